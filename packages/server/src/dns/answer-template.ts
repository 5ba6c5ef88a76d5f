/**
 * The responder's fast path (issue 39): a UDP query of the plain shape resolvers send is read
 * at the wire, without decoding it, and answered from a ready-made answer for its name and type,
 * copied with the query's ID, flags and question. Everything else (another shape, a name not
 * held, a name outside the zone) goes to `answerMessage`, which makes every answer.
 *
 * The plain shape: opcode QUERY, QR clear, one question of class IN whose name has only letters,
 * digits, `-` and `_` (no compression pointer), no answer or authority records, and nothing after
 * the question but one OPT record (RFC 6891) of version 0 with no option, or with one well-formed
 * COOKIE (RFC 7873 §5.2, what resolvers that use cookies send), answered with the client cookie
 * and a fresh server cookie as `answerMessage` answers it. Any other option, TCP, a zone
 * transfer, a second record: the slow path.
 *
 * A template is `answerMessage`'s own answer to the same question over TCP (so never truncated)
 * without EDNS, made twice, for the name in lower case and in upper case: the bytes that differ
 * are where the answer echoes the question's spelling (the question, and the owner of a record
 * at the name), and each query's spelling is copied there, so 0x20 case randomisation is echoed
 * exactly. Any other byte that differs and the template is not kept. The OPT record and
 * truncation are added per query as `answerMessage` adds them: the OPT (payload 1232, version
 * 0, DO echoed, RFC 3225 §3) ends the answer, and an answer longer than the client's payload (512
 * without EDNS, RFC 1035 §4.2.1) keeps only the question, with TC set.
 *
 * Where templates are kept: a key's beside its entry in the key cache (`HeldKey`), so they go
 * with it on a change, an eviction or an absence's end; an answer that shows the SOA (negative
 * answers, RFC 2308 §3) is only used while the serial is the one it shows. Other names (the
 * apex, names below a key, a zone whose keys are a table) are kept per zone version, bounded.
 */
import { answerMessage, CLASSIC_UDP_PAYLOAD, MAX_UDP_PAYLOAD, type QueryContext } from './answer.js';
import { normalizeAddress } from './client-address.js';
import { CLIENT_COOKIE_BYTES, COOKIE_OPTION, SERVER_COOKIE_BYTES, type ServerCookies } from './cookie.js';
import { NOT_CACHED } from './key-cache.js';
import { DkimZone } from './zone.js';
import type { ServedZones } from './zone-set.js';

const TYPE_SOA = 6;
const TYPE_OPT = 41;
const TYPE_IXFR = 251;
const TYPE_AXFR = 252;
const CLASS_IN = 1;
/** Longest name in wire form, its final zero byte included (RFC 1035 §2.3.4). */
const MAX_NAME_BYTES = 255;
/** An OPT record without options: root name, type, payload, extended RCODE, version, flags, RDLENGTH. */
const OPT_BYTES = 11;
/** An answer's COOKIE option: code, length, client cookie, server cookie (RFC 7873 §4). */
const COOKIE_BYTES = 4 + CLIENT_COOKIE_BYTES + SERVER_COOKIE_BYTES;
const FLAG_TC = 0x02;
const FLAG_RD = 0x01;
const FLAG_CD = 0x10;
/** The DO bit in the high byte of the OPT record's flags (RFC 3225 §3). */
const DO_HIGH = 0x80;
/** Most names whose templates one zone version keeps outside the key cache. */
const MAX_VERSION_NAMES = 10_000;
/** Most templates (types) kept for one name. */
const MAX_TYPES_PER_NAME = 8;

/** A query of the plain shape, as {@link readPlainQuery} read it. */
interface PlainQuery {
  /** Bytes of the question's name in lower case with dots, without the final dot, in {@link nameBytes}. */
  length: number;
  /** Bytes of its first label. */
  firstLabel: number;
  /** Where the question's type starts: just past the name's final zero byte. */
  nameEnd: number;
  qtype: number;
  edns: boolean;
  /** The client's UDP payload size (with EDNS). */
  payload: number;
  dnssecOk: boolean;
  /** Where the client cookie starts in the query, or -1 without a COOKIE option. */
  cookieAt: number;
}

/** Where templates are kept: a key cache entry (`HeldKey`), or a name of a zone version. */
interface Shelf {
  /** The first of a list (`AnswerTemplate.next`): a name's one template is one object away. */
  answers: AnswerTemplate | undefined;
}

/**
 * One ready answer: to a question of one type at one name, in any spelling, from any client.
 * What `compose` needs is in its own fields (the echo after the question's is a number, not an
 * array): each object a hit follows at 100,000 random names is a cache miss.
 */
export class AnswerTemplate {
  /** The next template kept for the same name (another type). */
  next: AnswerTemplate | undefined = undefined;
  /** Where the name is echoed after the question (a record's owner), or -1. */
  private readonly echo: number;
  /** Echoes after that one (rare: an answer of several records at the name). */
  private readonly moreEchoes: readonly number[];

  constructor(
    /** The answer to the question in lower case, ID 0, RD and CD clear, no OPT record. */
    private readonly wire: Buffer,
    /** Where the question's name is echoed (the question itself at 12 first), in order. */
    slots: readonly number[],
    /** The question's end: what a truncated answer keeps. */
    private readonly questionEnd: number,
    readonly qtype: number,
    /** The SOA serial the answer shows, or `undefined` when it shows none. */
    readonly serial: number | undefined,
  ) {
    this.echo = slots[1] ?? -1;
    this.moreEchoes = slots.slice(2);
  }

  /**
   * The answer to `message` (read into `query`): its ID, RD, CD, spelling, EDNS and payload, and
   * its cookie with a server cookie from `maker` for `address`. Written at `into[at]` when
   * given (the batch socket's answer slot, room for any UDP answer), else into a new buffer.
   */
  compose(
    message: Buffer,
    query: PlainQuery,
    maker?: ServerCookies,
    address?: string,
    into?: Buffer,
    at = 0,
  ): Buffer {
    const wire = this.wire;
    const cookie = query.cookieAt >= 0 ? COOKIE_BYTES : 0;
    const opt = query.edns ? OPT_BYTES + cookie : 0;
    const limit = query.edns
      ? Math.min(Math.max(query.payload, CLASSIC_UDP_PAYLOAD), MAX_UDP_PAYLOAD)
      : CLASSIC_UDP_PAYLOAD;
    // RFC 1035 §4.2.1, RFC 2181 §9: too long for the client drops every record and sets TC
    const truncated = wire.length + opt > limit;
    const body = truncated ? this.questionEnd : wire.length;
    const reply = into ? into.subarray(at, at + body + opt) : Buffer.allocUnsafe(body + opt);
    reply.set(truncated ? wire.subarray(0, body) : wire);
    reply[0] = message[0]!;
    reply[1] = message[1]!;
    reply[2] = wire[2]! | (message[2]! & FLAG_RD) | (truncated ? FLAG_TC : 0);
    reply[3] = wire[3]! | (message[3]! & FLAG_CD);
    const nameLength = query.nameEnd - 12;
    // the question as asked, then each echo of the name in the answer's records
    for (let i = 0; i < nameLength; i++) reply[12 + i] = message[12 + i]!;
    if (this.echo >= 0 && !truncated) {
      copyName(message, nameLength, reply, this.echo);
      for (const slot of this.moreEchoes) copyName(message, nameLength, reply, slot);
    }
    if (truncated) reply.fill(0, 6, 10); // ANCOUNT, NSCOUNT
    reply[10] = 0;
    reply[11] = query.edns ? 1 : 0; // ARCOUNT: the OPT alone
    if (query.edns) {
      reply[body] = 0; // the root
      reply.writeUInt16BE(TYPE_OPT, body + 1);
      reply.writeUInt16BE(MAX_UDP_PAYLOAD, body + 3);
      reply[body + 5] = 0; // extended RCODE
      reply[body + 6] = 0; // version
      reply[body + 7] = query.dnssecOk ? DO_HIGH : 0;
      reply[body + 8] = 0;
      reply.writeUInt16BE(cookie, body + 9); // RDLENGTH
    }
    if (cookie > 0) {
      // the option's data: the client cookie, then ours for it and the client's address
      const at = body + OPT_BYTES;
      reply.writeUInt16BE(COOKIE_OPTION, at);
      reply.writeUInt16BE(CLIENT_COOKIE_BYTES + SERVER_COOKIE_BYTES, at + 2);
      message.copy(reply, at + 4, query.cookieAt, query.cookieAt + CLIENT_COOKIE_BYTES);
      maker!.makeInto(
        message,
        query.cookieAt,
        normalizeAddress(address!),
        reply,
        at + 4 + CLIENT_COOKIE_BYTES,
      );
    }
    return reply;
  }
}

/** The question's name (`length` bytes at 12 in `message`) copied into `reply` at `at`. */
function copyName(message: Buffer, length: number, reply: Buffer, at: number): void {
  // a loop: the name is short, and Buffer#copy's checks cost more than the bytes
  for (let i = 0; i < length; i++) reply[at + i] = message[12 + i]!;
}

/** The query being answered: read into one object, reused (one query at a time). */
const query: PlainQuery = {
  length: 0,
  firstLabel: 0,
  nameEnd: 0,
  qtype: 0,
  edns: false,
  payload: 0,
  dnssecOk: false,
  cookieAt: -1,
};
/** The question's name in lower case with dots, as it is read. */
const nameBytes = Buffer.alloc(MAX_NAME_BYTES);

/**
 * The answer to `message` from a ready-made one, or `undefined` when the slow path must answer
 * it (see the file's comment). A template missing for a held name is made here, from
 * `answerMessage`, and kept. With a cookie `maker` and the client's `address` (as received), a
 * COOKIE option is answered (RFC 7873); without, a query with one is left to the slow path.
 * `into` and `at`: where to write the answer instead of a new buffer (`compose`).
 */
export function answerFromTemplate(
  message: Buffer,
  served: ServedZones,
  maker?: ServerCookies,
  address?: string,
  into?: Buffer,
  at?: number,
): Buffer | undefined {
  if (!(served instanceof DkimZone) || !readPlainQuery(message, query)) return undefined;
  if (query.cookieAt >= 0 && (maker === undefined || address === undefined)) return undefined;
  const zone = served;
  const origin = originOf(zone);
  const n = query.length;
  const dot = n - origin.length - 1;
  let shelf: Shelf | undefined;
  if (dot === -1 && bytesAt(nameBytes, 0, origin)) shelf = versionShelf(zone, zone.origin);
  else if (dot > 0 && nameBytes[dot] === 0x2e && bytesAt(nameBytes, dot + 1, origin)) {
    // one label below the apex: a key's name, unless other records hold it
    const held = query.firstLabel === dot ? zone.heldKey(nameBytes.toString('latin1', 0, dot)) : undefined;
    // not held: the slow path has it loaded
    if (held === NOT_CACHED) return undefined;
    shelf = held ?? versionShelf(zone, nameBytes.toString('latin1', 0, n));
  } else return undefined; // outside the zone: REFUSED, rare enough for the slow path
  let template = findTemplate(shelf, query.qtype, zone.serial);
  if (template === undefined) {
    template = makeTemplate(zone, message, query);
    if (template === undefined) return undefined;
    keep(shelf, template);
  }
  return template.compose(message, query, maker, address, into, at);
}

/** Reads a plain query into `into`; `false` for any other message. */
function readPlainQuery(m: Buffer, into: PlainQuery): boolean {
  const length = m.length;
  // QR clear and opcode QUERY; QDCOUNT 1, ANCOUNT 0, NSCOUNT 0, ARCOUNT 0 or 1
  if (length < 17 || (m[2]! & 0xf8) !== 0) return false;
  if (m[4] !== 0 || m[5] !== 1 || m[6] !== 0 || m[7] !== 0 || m[8] !== 0 || m[9] !== 0) return false;
  if (m[10] !== 0 || m[11]! > 1) return false;
  let at = 12;
  let n = 0;
  for (;;) {
    if (at >= length) return false;
    const label = m[at]!;
    if (label === 0) break;
    if (label > 63 || at + 1 + label >= length) return false;
    if (n > 0) nameBytes[n++] = 0x2e;
    else into.firstLabel = label;
    const end = at + 1 + label;
    for (let i = at + 1; i < end; i++) {
      let c = m[i]!;
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f))
        return false;
      nameBytes[n++] = c;
    }
    at = end;
    if (at - 12 >= MAX_NAME_BYTES) return false;
  }
  if (n === 0) return false;
  const nameEnd = at + 1;
  const end = nameEnd + 4;
  if (end > length) return false;
  const qtype = (m[nameEnd]! << 8) | m[nameEnd + 1]!;
  if (qtype === TYPE_IXFR || qtype === TYPE_AXFR || m[nameEnd + 2] !== 0 || m[nameEnd + 3] !== CLASS_IN)
    return false;
  if (m[11] === 0) {
    if (end !== length) return false;
    into.edns = false;
    into.cookieAt = -1;
  } else {
    // the OPT record: root name, type 41, version 0, nothing after it
    if (end + OPT_BYTES > length || m[end] !== 0 || m[end + 1] !== 0 || m[end + 2] !== TYPE_OPT) return false;
    const options = (m[end + 9]! << 8) | m[end + 10]!;
    if (m[end + 6] !== 0 || end + OPT_BYTES + options !== length) return false;
    into.cookieAt = -1;
    if (options > 0) {
      // one option, a COOKIE of a valid length (RFC 7873 §5.2.2: 8, or 16 to 40 bytes)
      const at = end + OPT_BYTES;
      const size = options - 4;
      if (size < 0 || m.readUInt16BE(at) !== COOKIE_OPTION || m.readUInt16BE(at + 2) !== size) return false;
      if (size !== CLIENT_COOKIE_BYTES && (size < 16 || size > 40)) return false;
      into.cookieAt = at + 4;
    }
    into.edns = true;
    into.payload = (m[end + 3]! << 8) | m[end + 4]!;
    into.dnssecOk = (m[end + 7]! & DO_HIGH) !== 0;
  }
  into.length = n;
  into.nameEnd = nameEnd;
  into.qtype = qtype;
  return true;
}

const versions = new WeakMap<DkimZone, Map<string, Shelf>>();

/** Whether `buffer` holds `bytes` at `at`. */
function bytesAt(buffer: Buffer, at: number, bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (buffer[at + i] !== bytes[i]) return false;
  return true;
}

/** The origin in bytes of the zone asked last (one zone answers most questions). */
let lastOrigin = { of: '', bytes: Buffer.alloc(0) };

function originOf(zone: DkimZone): Buffer {
  if (zone.origin !== lastOrigin.of)
    lastOrigin = { of: zone.origin, bytes: Buffer.from(zone.origin, 'latin1') };
  return lastOrigin.bytes;
}

/** Where a name's templates are kept for this zone version alone. */
function versionShelf(zone: DkimZone, name: string): Shelf {
  let names = versions.get(zone);
  if (names === undefined) {
    names = new Map();
    versions.set(zone, names);
  }
  let shelf = names.get(name);
  if (shelf === undefined) {
    // bounded: a flood of distinct names costs memory once
    if (names.size >= MAX_VERSION_NAMES) names.clear();
    shelf = { answers: undefined };
    names.set(name, shelf);
  }
  return shelf;
}

function findTemplate(shelf: Shelf, qtype: number, serial: number): AnswerTemplate | undefined {
  for (let template = shelf.answers; template !== undefined; template = template.next)
    if (template.qtype === qtype && (template.serial === undefined || template.serial === serial))
      return template;
  return undefined;
}

/** Keeps `template` first on `shelf`: one per type (a stale one, of another serial, goes), the oldest past the most. */
function keep(shelf: Shelf, template: AnswerTemplate): void {
  let kept = 1;
  let last = template;
  for (let t = shelf.answers; t !== undefined && kept < MAX_TYPES_PER_NAME; t = t.next) {
    if (t.qtype === template.qtype) continue;
    last.next = t;
    last = t;
    kept++;
  }
  last.next = undefined;
  shelf.answers = template;
}

const TCP: QueryContext = { transport: 'tcp', transferAllowed: false };

/**
 * `answerMessage`'s answer to `query`'s question, as a template; `undefined` when it cannot be
 * one (SERVFAIL, no answer, or bytes that depend on the spelling outside the name's echoes).
 */
function makeTemplate(zone: DkimZone, message: Buffer, query: PlainQuery): AnswerTemplate | undefined {
  const nameLength = query.nameEnd - 12;
  const lower = Buffer.from(message.subarray(12, query.nameEnd));
  const upper = Buffer.from(lower);
  for (let i = 0; i < nameLength; i++) {
    const c = lower[i]!;
    if (c >= 0x41 && c <= 0x5a) lower[i] = c | 0x20;
    else if (c >= 0x61 && c <= 0x7a) upper[i] = c & ~0x20;
  }
  const ask = (name: Buffer) => {
    const asked = Buffer.alloc(query.nameEnd + 4);
    asked[5] = 1; // QDCOUNT
    name.copy(asked, 12);
    asked.writeUInt16BE(query.qtype, query.nameEnd);
    asked.writeUInt16BE(CLASS_IN, query.nameEnd + 2);
    return answerMessage(asked, zone, TCP);
  };
  const [a, ...more] = ask(lower);
  const [b] = ask(upper);
  if (a === undefined || b === undefined || more.length > 0 || a.length !== b.length) return undefined;
  // SERVFAIL is never kept (the key may load next time); nor an answer already with EDNS
  if ((a[3]! & 0x0f) === 2 || a.readUInt16BE(10) !== 0) return undefined;
  const slots: number[] = [];
  for (let at = 12; at + nameLength <= a.length; at++)
    if (bytesAt(a, at, lower) && bytesAt(b, at, upper)) {
      slots.push(at);
      at += nameLength - 1;
    }
  if (slots[0] !== 12) return undefined;
  // every byte outside the echoes is the same whatever the spelling
  for (let i = 0, s = 0; i < a.length; i++) {
    while (s < slots.length && i >= slots[s]! + nameLength) s++;
    if (a[i] !== b[i] && !(s < slots.length && i >= slots[s]!)) return undefined;
  }
  // Only a positive answer of another type than SOA shows no SOA (a negative one has it in
  // authority, RFC 2308 §3): the others are kept for their serial alone.
  const positive = (a[3]! & 0x0f) === 0 && a.readUInt16BE(6) > 0 && a.readUInt16BE(8) === 0;
  const showsSoa = !positive || query.qtype === TYPE_SOA;
  const wire = Buffer.allocUnsafeSlow(a.length);
  a.copy(wire);
  return new AnswerTemplate(wire, slots, query.nameEnd + 4, query.qtype, showsSoa ? zone.serial : undefined);
}
