/**
 * The responder's brain: one DNS message in, the wire messages to send back out. Pure: the
 * sockets (responder.ts) only move bytes. Built on `dns-packet` for the wire format.
 *
 * Behaviour, with the rule behind each part:
 * - Undecodable messages and responses (QR=1) get no reply at all: a reply to garbage or to a
 *   forged response is how reflection attacks and loops start.
 * - Opcodes other than QUERY: NOTIMP (RFC 1035 §4.1.1). Not one question: FORMERR.
 * - Authoritative answers carry AA (RFC 1035 §4.1.1); RD is copied, RA is never set.
 * - NXDOMAIN and NODATA carry the SOA in the authority section (RFC 2308 §3), TTL = MINIMUM.
 * - Names outside the zone: REFUSED, as an authoritative-only server does. With a `ZoneSet` (the
 *   development local DNS), the zone is the deepest one holding the name.
 * - A name holding a CNAME answers it for every type, alone (RFC 1034 §4.3.2 step 3a; its
 *   target is in another zone, which the resolver asks).
 * - ANY gets RFC 8482's small answer (§4.2): one synthesized `HINFO "RFC8482" ""` at a name that
 *   exists, never the records themselves (ANY is the amplifier's favourite); NXDOMAIN elsewhere.
 * - EDNS0 (RFC 6891): one OPT or FORMERR (§6.1.1); version > 0 gets BADVERS (§6.1.3); the
 *   client's UDP payload size is honoured, never below 512 (§6.2.5) nor above our own 1232. The
 *   DO bit is copied into the answer's OPT (RFC 3225 §3); the zone is unsigned, so no RRSIG.
 * - UDP answers that do not fit drop all records and set TC (RFC 1035 §4.2.1, RFC 2181 §9),
 *   so the client retries over TCP, where the whole answer comes.
 * - AXFR/IXFR only to allow-listed secondaries (RFC 5936 §6), the transfer itself only over TCP
 *   (RFC 5936 §4.2): a secondary's IXFR over UDP gets the current SOA alone (RFC 1995 §2, "ask
 *   over TCP"), as BIND answers it. Anyone else's, an IXFR over UDP included (with or without
 *   the SOA of RFC 1995 §3 in authority), is REFUSED, as BIND refuses a client outside
 *   `allow-transfer`.
 * - DNS cookies (RFC 7873, with RFC 9018's server cookies, `cookie.ts`), when the context has a
 *   cookie maker: an answer to a query with a COOKIE option carries the client cookie and a fresh
 *   server cookie, as the only option of the OPT record, which is the answer's last record (the
 *   answer cache relies on that to splice the cookie into a stored answer). A COOKIE option of
 *   the wrong length is FORMERR (§5.2.2), with no cookie. A query with no question but a cookie
 *   (§5.4) gets NOERROR and the cookies, nothing else; BADCOOKIE when it sent a server cookie
 *   that is not valid (§5.4: BIND 9.18 answers NOERROR there). BADVERS carries no cookie, as
 *   BIND's does not. Queries without a COOKIE option are answered exactly as without cookies.
 * - A key the zone does not hold in memory (its key cache, issue 39) is loaded first: with a
 *   `pending` in the context, such a question gets no answer yet and `pending` says what to
 *   load (or that a transfer is to be streamed); without one, or once loading failed, SERVFAIL
 *   (RFC 1035 §4.1.1 "server failure"), never NXDOMAIN: the name may well exist.
 */
import dnsPacket, {
  type Answer,
  type DecodedPacket,
  type OptAnswer,
  type Packet,
  type Question,
} from 'dns-packet';
import { transferMessages } from './axfr.js';
import { COOKIE_OPTION, type Cookie, type CookieClient, parseCookie } from './cookie.js';
import type { DkimZone } from './zone.js';
import { type ServedZones, ZoneSet } from './zone-set.js';

/** The largest UDP answer we send, whatever a client offers (the DNS Flag Day 2020 value). */
export const MAX_UDP_PAYLOAD = 1232;
/** Without EDNS0 a UDP message is at most 512 bytes (RFC 1035 §2.3.4). */
export const CLASSIC_UDP_PAYLOAD = 512;

/** How the message arrived and who sent it. */
export interface QueryContext {
  transport: 'udp' | 'tcp';
  /** The client may transfer the zone (its address is an allow-listed secondary). */
  transferAllowed: boolean;
  /**
   * DNS cookies (RFC 7873): the server's cookie maker and the client's address. Without them a
   * COOKIE option is ignored as any unknown option is (RFC 6891 §6.1.2).
   */
  cookies?: CookieClient;
  /**
   * Where a question that needs the database is reported instead of answered: the key to load
   * (`DkimZone.load`, then ask again), or a zone transfer to stream (`transferStream`).
   */
  pending?: Pending;
}

/** What a question waits for; see {@link QueryContext.pending}. */
export interface Pending {
  load?: { zone: DkimZone; token: string };
  transfer?: { id: number; question: Question; zone: DkimZone };
}

const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
/** BADVERS is extended RCODE 16: upper 8 bits (1) in the OPT record, lower 4 bits (0) in the header. */
const BADVERS_UPPER = 1;
/** BADCOOKIE is extended RCODE 23 (RFC 7873 §8): 1 in the OPT record, 7 in the header. */
const BADCOOKIE_UPPER = 1;
const BADCOOKIE_LOWER = 7;
const OPCODE_QUERY = 0;
/** The DO bit of the OPT record's flags (RFC 3225 §3). */
const DNSSEC_OK = 0x8000;

interface Reply {
  rcode: number;
  answers?: Answer[];
  authorities?: Answer[];
  authoritative: boolean;
}

/** What the answer's OPT record says; absent when the query had none. */
interface Edns {
  dnssecOk: boolean;
  /** The COOKIE option's data: the client cookie and our server cookie. */
  cookie?: Buffer;
}

/** Answer one message; an empty list means "send nothing". Never throws. */
export function answerMessage(message: Buffer, zone: ServedZones, context: QueryContext): Buffer[] {
  if (message.length < 12) return [];
  let query: DecodedPacket;
  try {
    query = dnsPacket.decode(message);
  } catch {
    return [];
  }
  if (query.flag_qr) return [];
  try {
    return respond(query, zone, context);
  } catch {
    // A name dns-packet decoded but cannot encode back (e.g. a label with a dot in it).
    return [];
  }
}

function respond(query: DecodedPacket, served: ServedZones, context: QueryContext): Buffer[] {
  const questions = query.questions ?? [];
  const question = questions.length === 1 ? questions[0] : undefined;
  const opcode = ((query.flags ?? 0) >> 11) & 0xf;
  const opts = (query.additionals ?? []).filter((a): a is OptAnswer => a.type === 'OPT');
  const opt = opts[0];
  const limit =
    context.transport === 'tcp'
      ? 65_535
      : opt
        ? Math.min(Math.max(opt.udpPayloadSize ?? CLASSIC_UDP_PAYLOAD, CLASSIC_UDP_PAYLOAD), MAX_UDP_PAYLOAD)
        : CLASSIC_UDP_PAYLOAD;
  const cookie = opt && context.cookies ? findCookie(opt) : undefined;
  const dnssecOk = ((opt?.flags ?? 0) & DNSSEC_OK) !== 0;
  const plainEdns: Edns | undefined = opt && { dnssecOk };
  const edns =
    plainEdns && cookie && cookie !== 'malformed'
      ? { dnssecOk, cookie: replyCookie(cookie, context.cookies!) }
      : plainEdns;
  const send = (reply: Reply, extendedRcode = 0, withEdns = edns) =>
    encodeReply(query, question, reply, withEdns, extendedRcode, limit, context.transport);

  // RFC 7873 §5.2.2; first of all, as BIND, whose parser rejects the whole message
  if (cookie === 'malformed') return send({ rcode: RCODE.FORMERR, authoritative: false });
  if (opcode !== OPCODE_QUERY) return send({ rcode: RCODE.NOTIMP, authoritative: false });
  // RFC 7873 §5.4: no question, but a cookie, asks for a server cookie alone
  const cookieOnly = questions.length === 0 && cookie !== undefined;
  if ((question === undefined && !cookieOnly) || opts.length > 1)
    return send({ rcode: RCODE.FORMERR, authoritative: false });
  if (opt !== undefined && (opt.ednsVersion ?? 0) > 0) {
    // as BIND: the version is refused before the options are read, so no cookie
    return send({ rcode: RCODE.NOERROR, authoritative: false }, BADVERS_UPPER, plainEdns);
  }
  if (question === undefined) {
    // §5.4: NOERROR, or BADCOOKIE when the server cookie sent is not valid; either with ours
    const { client, server } = cookie as Cookie;
    const { maker, address } = context.cookies!;
    return server === undefined || maker.isValid(client, server, address)
      ? send({ rcode: RCODE.NOERROR, authoritative: false })
      : send({ rcode: BADCOOKIE_LOWER, authoritative: false }, BADCOOKIE_UPPER);
  }
  if ((question.class ?? 'IN') !== 'IN') return send({ rcode: RCODE.REFUSED, authoritative: false });

  const zone: DkimZone | undefined = served instanceof ZoneSet ? served.find(question.name) : served;
  if (zone === undefined) return send({ rcode: RCODE.REFUSED, authoritative: false });
  const match = zone.match(question.name);
  if (match.at === 'outside') return send({ rcode: RCODE.REFUSED, authoritative: false });
  if (match.at === 'unknown') {
    if (context.pending === undefined) return send({ rcode: RCODE.SERVFAIL, authoritative: false });
    context.pending.load = { zone, token: match.token };
    return [];
  }

  const type: string = question.type;
  if (type === 'AXFR' || type === 'IXFR') {
    if (!context.transferAllowed || match.at !== 'apex') {
      return send({ rcode: RCODE.REFUSED, authoritative: false });
    }
    if (context.transport !== 'tcp') {
      // A secondary's IXFR over UDP gets the current SOA alone, RFC 1995 §2's "ask again over
      // TCP" (as BIND answers it); AXFR is TCP only (RFC 5936 §4.2).
      return type === 'IXFR'
        ? send({ rcode: RCODE.NOERROR, authoritative: true, answers: [zone.soa()] })
        : send({ rcode: RCODE.REFUSED, authoritative: false });
    }
    // RFC 1995 §4 lets an IXFR be answered with the whole zone, as we do.
    if (!zone.loadsKeys) return transferMessages(zone, query.id ?? 0, question);
    if (context.pending === undefined) return send({ rcode: RCODE.SERVFAIL, authoritative: false });
    context.pending.transfer = { id: query.id ?? 0, question, zone };
    return [];
  }
  if (type === 'ANY') {
    if (match.at === 'none')
      return send({ rcode: RCODE.NXDOMAIN, authoritative: true, authorities: [zone.soa()] });
    const hinfo = {
      name: question.name,
      type: 'HINFO',
      ttl: zone.soa().ttl,
      data: { cpu: 'RFC8482', os: '' },
    };
    return send({ rcode: RCODE.NOERROR, authoritative: true, answers: [hinfo as Answer] });
  }

  // RFC 2308 §3: the SOA of a negative answer has TTL min(SOA TTL, SOA MINIMUM), equal here.
  const negative = (rcode: number): Reply => ({ rcode, authoritative: true, authorities: [zone.soa()] });
  switch (match.at) {
    case 'apex':
      if (type === 'SOA')
        return send({ rcode: RCODE.NOERROR, authoritative: true, answers: [zone.soa(question.name)] });
      if (type === 'NS')
        return send({ rcode: RCODE.NOERROR, authoritative: true, answers: zone.ns(question.name) });
      return send(negative(RCODE.NOERROR));
    case 'key':
      if (type === 'TXT') {
        return send({
          rcode: RCODE.NOERROR,
          authoritative: true,
          answers: [zone.txt(question.name, match.strings)],
        });
      }
      return send(negative(RCODE.NOERROR));
    case 'txt':
      if (type === 'TXT' && match.records.length > 0) {
        return send({
          rcode: RCODE.NOERROR,
          authoritative: true,
          answers: match.records.map((strings) => zone.txt(question.name, strings)),
        });
      }
      if (type === 'MX' && match.mx.length > 0)
        return send({ rcode: RCODE.NOERROR, authoritative: true, answers: zone.mx(question.name, match.mx) });
      if (
        (type === 'A' || type === 'AAAA') &&
        zone.addresses(question.name, match.addresses, type).length > 0
      ) {
        const answers = zone.addresses(question.name, match.addresses, type);
        return send({ rcode: RCODE.NOERROR, authoritative: true, answers });
      }
      return send(negative(RCODE.NOERROR));
    case 'alias':
      // RFC 1034 §4.3.2 step 3a: the CNAME answers every type. Its target lies in another zone,
      // so, as an authoritative-only server, we stop there: the resolver follows it.
      return send({
        rcode: RCODE.NOERROR,
        authoritative: true,
        answers: [zone.cname(question.name, match.target)],
      });
    case 'none':
      return send(negative(RCODE.NXDOMAIN));
  }
  return [];
}

/**
 * The first COOKIE option of the query's OPT record (RFC 7873 §5.2, as BIND: later ones are not
 * read), or `'malformed'` when any COOKIE option has a wrong length (BIND's parser rejects the
 * whole message then).
 */
function findCookie(opt: OptAnswer): Cookie | 'malformed' | undefined {
  let first: Cookie | undefined;
  // dns-packet types only the options it can encode from fields; every one decodes with `data`
  for (const option of (opt.options ?? []) as { code: number; data: Buffer }[]) {
    if (option.code !== COOKIE_OPTION) continue;
    const cookie = parseCookie(option.data);
    if (cookie === 'malformed') return 'malformed';
    first ??= cookie;
  }
  return first;
}

/** The answer's COOKIE option data: the client cookie and a fresh server cookie (RFC 7873 §5.2.3–5). */
function replyCookie(cookie: Cookie, { maker, address }: CookieClient): Buffer {
  return Buffer.concat([cookie.client, maker.make(cookie.client, address)]);
}

function encodeReply(
  query: DecodedPacket,
  question: Question | undefined,
  reply: Reply,
  edns: Edns | undefined,
  extendedRcode: number,
  limit: number,
  transport: 'udp' | 'tcp',
): Buffer[] {
  const queryFlags = query.flags ?? 0;
  const flags =
    (queryFlags & (0xf << 11)) | // opcode, echoed
    (reply.authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0) |
    (queryFlags & dnsPacket.RECURSION_DESIRED) |
    (queryFlags & dnsPacket.CHECKING_DISABLED) |
    reply.rcode;
  const opt =
    edns &&
    ({
      name: '.',
      type: 'OPT',
      udpPayloadSize: MAX_UDP_PAYLOAD,
      extendedRcode,
      ednsVersion: 0,
      flags: edns.dnssecOk ? DNSSEC_OK : 0,
    } as OptAnswer);
  // dns-packet encodes any option given as code and data; the OPT is the last record, the
  // cookie its only option, so the cookie ends the message
  if (opt && edns.cookie) opt.options = [{ code: COOKIE_OPTION, data: edns.cookie } as never];
  const additionals: Answer[] = opt ? [opt] : [];
  const packet: Packet = {
    id: query.id,
    type: 'response',
    flags,
    questions: question ? [question] : [],
    answers: reply.answers ?? [],
    authorities: reply.authorities ?? [],
    additionals,
  };
  let wire = dnsPacket.encode(packet);
  // dns-packet does not compress names; our answers are one record, so that costs little.
  if (transport === 'udp' && wire.length > limit) {
    wire = dnsPacket.encode({
      ...packet,
      flags: flags | dnsPacket.TRUNCATED_RESPONSE,
      answers: [],
      authorities: [],
    });
  }
  return [wire];
}
