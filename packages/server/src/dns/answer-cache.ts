/**
 * A cache of encoded UDP answers, so the hot path of a busy responder (the same few key
 * records asked again and again by resolvers) skips decoding and encoding. The key is the
 * query's bytes after its ID: two queries that differ only in ID get the same answer but
 * for its ID (RFC 1035 §4.1.1: the ID is copied from the query), and the question's exact
 * spelling (0x20 case) is part of the key, so it is echoed faithfully.
 *
 * DNS cookies (RFC 7873) differ per client and per query, so a query's COOKIE option data is
 * left out of its key: the stored answer is the first such query's, and each later one gets a
 * copy with its own client cookie and a fresh server cookie written over the last 24 bytes
 * (`answer.ts` ends every answer that carries a cookie with it). Only the plain shape resolvers
 * send is read this way (one question, one OPT record); any other message with a cookie is
 * answered without the cache, as the cookie it is answered with belongs to its sender alone.
 *
 * One cache per zone version: a reloaded zone starts empty. Bounded: when full it is
 * cleared, so a flood of distinct queries costs memory once, not without end. And aged: a
 * version's answers go after {@link NEGATIVE_TTL_MS}, as the key cache's absences do, so an
 * answer made from the key cache (issue 39) lives no longer here than there. A question whose
 * key is not in the key cache is not answered here (its `pending` says what to load), and
 * nothing is stored for it.
 */
import type { Pending, QueryContext } from './answer.js';
import { answerMessage } from './answer.js';
import { CLIENT_COOKIE_BYTES, COOKIE_OPTION, type CookieClient, SERVER_COOKIE_BYTES } from './cookie.js';
import { NEGATIVE_TTL_MS } from './key-cache.js';
import { questionEnd } from './response-rate-limit.js';
import type { ServedZones } from './zone-set.js';

/** Most answers kept per zone version. */
const MAX_ENTRIES = 10_000;
/** Queries longer than this are answered without the cache (real questions are short). */
const MAX_KEY_BYTES = 300;
/** Starts the key of a query with a cookie: no latin1 string of query bytes can. */
const COOKIE_KEY = '\u0100';
/** The COOKIE option of an answer: code, length, client cookie, server cookie. */
const ANSWER_COOKIE_BYTES = 4 + CLIENT_COOKIE_BYTES + SERVER_COOKIE_BYTES;
/** An OPT record before its options: root name, type, class, TTL, RDLENGTH. */
const OPT_HEADER_BYTES = 11;
const TYPE_OPT = 41;

/** A stored answer to queries with a cookie: its last 24 bytes are rewritten for each. */
class CookieTemplate {
  constructor(readonly wire: Buffer) {}
}

/** One zone version's answers, and when the first was stored (ms). */
interface Answers {
  born: number;
  entries: Map<string, Buffer | CookieTemplate | null>;
}

const caches = new WeakMap<ServedZones, Answers>();
const UDP: QueryContext = { transport: 'udp', transferAllowed: false };

/**
 * `answerMessage` over UDP with the cache; returns the reply to send, or `undefined` for none.
 * With `cookies`, COOKIE options are answered (RFC 7873); without, they are ignored.
 */
export function answerUdpCached(
  message: Buffer,
  zone: ServedZones,
  cookies?: CookieClient,
  pending?: Pending,
): Buffer | undefined {
  if (message.length < 12 || message.length > MAX_KEY_BYTES)
    return answerUncached(message, zone, cookies, pending);
  const cookieAt = cookies ? findCookieOption(message) : NO_COOKIE;
  if (cookieAt === UNREAD) return answerUncached(message, zone, cookies, pending);
  let answers = caches.get(zone);
  const now = Date.now();
  if (!answers || now - answers.born > NEGATIVE_TTL_MS) {
    answers = { born: now, entries: new Map() };
    caches.set(zone, answers);
  }
  const cache = answers.entries;
  const dataAt = cookieAt + 4;
  const dataEnd = dataAt + (cookieAt === NO_COOKIE ? 0 : message.readUInt16BE(cookieAt + 2));
  const key =
    cookieAt === NO_COOKIE
      ? message.toString('latin1', 2)
      : // the option's code and length stay in the key: they decide FORMERR; a cookie is
        // usually the message's last bytes
        dataEnd === message.length
        ? COOKIE_KEY + message.toString('latin1', 2, dataAt)
        : COOKIE_KEY + message.toString('latin1', 2, dataAt) + message.toString('latin1', dataEnd);
  let entry = cache.get(key);
  if (entry === undefined) {
    const answer = answerUncached(message, zone, cookies, pending);
    if (pending?.load !== undefined) return undefined;
    if (answer === undefined) entry = null;
    else if (cookieAt !== NO_COOKIE && endsWithCookie(answer, message, dataAt))
      entry = new CookieTemplate(answer);
    else entry = answer;
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, entry);
  }
  if (entry === null) return undefined;
  const reply = Buffer.from(entry instanceof CookieTemplate ? entry.wire : entry);
  reply[0] = message[0]!;
  reply[1] = message[1]!;
  if (entry instanceof CookieTemplate) {
    const clientAt = reply.length - CLIENT_COOKIE_BYTES - SERVER_COOKIE_BYTES;
    message.copy(reply, clientAt, dataAt, dataAt + CLIENT_COOKIE_BYTES);
    cookies!.maker.makeInto(message, dataAt, cookies!.address, reply, clientAt + CLIENT_COOKIE_BYTES);
  }
  return reply;
}

function answerUncached(
  message: Buffer,
  zone: ServedZones,
  cookies: CookieClient | undefined,
  pending: Pending | undefined,
): Buffer | undefined {
  const context: QueryContext =
    cookies || pending
      ? {
          transport: 'udp',
          transferAllowed: false,
          ...(cookies && { cookies }),
          ...(pending && { pending }),
        }
      : UDP;
  return answerMessage(message, zone, context)[0];
}

/**
 * Whether `message` (a plain query, as {@link findCookieOption} reads it) carries a server cookie
 * we made for its client cookie and `address` that is still valid: a client that proves its
 * address this way is never rate limited (BIND's rule), since a forged address cannot get one.
 */
export function hasValidServerCookie(message: Buffer, cookies: CookieClient): boolean {
  if (message.length < 12) return false;
  const at = findCookieOption(message);
  if (at < 0 || message.readUInt16BE(at + 2) !== CLIENT_COOKIE_BYTES + SERVER_COOKIE_BYTES) return false;
  const client = message.subarray(at + 4, at + 4 + CLIENT_COOKIE_BYTES);
  const server = message.subarray(
    at + 4 + CLIENT_COOKIE_BYTES,
    at + 4 + CLIENT_COOKIE_BYTES + SERVER_COOKIE_BYTES,
  );
  return cookies.maker.isValid(client, server, cookies.address);
}

/** {@link findCookieOption}: the message has no COOKIE option. */
const NO_COOKIE = -1;
/** {@link findCookieOption}: the message is not of the plain shape read here. */
const UNREAD = -2;

/**
 * Where the COOKIE option (its code) of a plain query starts: one question with an
 * uncompressed name, no answer or authority records, and nothing or one OPT record after the
 * question, its options filling its data exactly. `NO_COOKIE` for such a query without one;
 * `UNREAD` for any other shape, or for a second COOKIE option (which decides FORMERR).
 */
function findCookieOption(message: Buffer): number {
  if (message.readUInt16BE(4) !== 1 || message.readUInt32BE(6) !== 0) return UNREAD;
  const arcount = message.readUInt16BE(10);
  const end = questionEnd(message);
  if (end === undefined) return UNREAD;
  if (arcount === 0) return NO_COOKIE;
  if (
    arcount !== 1 ||
    end + OPT_HEADER_BYTES > message.length ||
    message[end] !== 0 ||
    message.readUInt16BE(end + 1) !== TYPE_OPT ||
    end + OPT_HEADER_BYTES + message.readUInt16BE(end + 9) !== message.length
  )
    return UNREAD;
  let found = NO_COOKIE;
  for (let at = end + OPT_HEADER_BYTES; at < message.length; ) {
    if (at + 4 > message.length) return UNREAD;
    const next = at + 4 + message.readUInt16BE(at + 2);
    if (next > message.length) return UNREAD;
    if (message.readUInt16BE(at) === COOKIE_OPTION) {
      if (found !== NO_COOKIE) return UNREAD;
      found = at;
    }
    at = next;
  }
  return found;
}

/**
 * Whether `answer` ends with an OPT record whose only option is a COOKIE with the query's
 * client cookie (at `message[clientAt]`) and a server cookie: the part to rewrite per query.
 * Answers without it (FORMERR for a malformed cookie, BADVERS) do not depend on the cookie.
 */
function endsWithCookie(answer: Buffer, message: Buffer, clientAt: number): boolean {
  const cookieAt = answer.length - ANSWER_COOKIE_BYTES;
  const optAt = cookieAt - OPT_HEADER_BYTES;
  return (
    optAt >= 12 &&
    answer[optAt] === 0 &&
    answer.readUInt16BE(optAt + 1) === TYPE_OPT &&
    answer.readUInt16BE(optAt + 9) === ANSWER_COOKIE_BYTES &&
    answer.readUInt16BE(cookieAt) === COOKIE_OPTION &&
    answer.readUInt16BE(cookieAt + 2) === CLIENT_COOKIE_BYTES + SERVER_COOKIE_BYTES &&
    answer.compare(message, clientAt, clientAt + CLIENT_COOKIE_BYTES, cookieAt + 4, cookieAt + 12) === 0
  );
}
