/**
 * Response rate limiting for UDP answers, after BIND's `rate-limit` (and the DNS RRL design it
 * comes from). A UDP query's source address can be forged, so an attacker can aim our answers
 * (a 555-byte key record for an 80-byte question) at a victim. Real resolvers cache our answers
 * for their TTL and ask the same question of us a few times a minute at most; a flood asks it
 * hundreds of times a second. So identical answers to one client network are counted:
 *
 * - the client network is the /24 of an IPv4 address, the /56 of an IPv6 one (one resolver
 *   farm, or one victim, usually sits in one such block);
 * - "identical" is the same question (name, case folded, and type); NXDOMAIN answers to one
 *   network share one count whatever the name (random names must not each get a fresh
 *   budget), and so do errors;
 * - each count is a token bucket of `perSecond` tokens refilled per second (bursts of up to one
 *   second's worth pass);
 * - past it, answers are dropped, except every `slip`-th one, which goes out as an empty
 *   truncated answer (TC=1, the question only): no larger than the question, and it tells a
 *   real resolver, whose address was not forged, to ask again over TCP, which is never limited
 *   because a TCP client cannot forge its address.
 *
 * The table is bounded: when it holds `maxEntries` counts, the full (idle) ones are dropped,
 * and if that frees too little, all of them, so a flood of distinct questions costs memory once.
 */
import { clientNetwork } from './client-address.js';

export interface ResponseRateLimitOptions {
  /** Identical answers per second to one client network. */
  perSecond: number;
  /** Every `slip`-th dropped answer is sent as an empty truncated one; 0 drops them all. */
  slip: number;
  /** Clients never limited (the zone's secondaries). */
  exempt?: (address: string) => boolean;
  /** Most counts kept at once. Default 100,000 (a few MB). */
  maxEntries?: number;
  /** The clock, in milliseconds (tests pass their own). */
  now?: () => number;
}

/** What to do with one answer. */
export type RateDecision = 'send' | 'drop' | 'slip';

interface Bucket {
  tokens: number;
  refilledAt: number;
  dropped: number;
}

/** DNS header RCODE values that decide the key (RFC 1035 §4.1.1). */
const RCODE_NOERROR = 0;
const RCODE_NXDOMAIN = 3;

export class ResponseRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: ResponseRateLimitOptions) {
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** Counts `reply` (the answer to `query`) for `address` and says whether it may go out. */
  decide(address: string, query: Buffer, reply: Buffer): RateDecision {
    if (this.options.exempt?.(address)) return 'send';
    const key = `${clientNetwork(address)}|${answerClass(query, reply)}`;
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxEntries) this.evict(now);
      bucket = { tokens: this.options.perSecond, refilledAt: now, dropped: 0 };
      this.buckets.set(key, bucket);
    } else {
      this.refill(bucket, now);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 'send';
    }
    bucket.dropped += 1;
    return this.options.slip > 0 && bucket.dropped % this.options.slip === 0 ? 'slip' : 'drop';
  }

  /** How many counts are held (for tests and the bench). */
  get size(): number {
    return this.buckets.size;
  }

  private refill(bucket: Bucket, now: number): void {
    const elapsed = Math.max(0, now - bucket.refilledAt);
    bucket.tokens = Math.min(
      this.options.perSecond,
      bucket.tokens + (elapsed / 1000) * this.options.perSecond,
    );
    bucket.refilledAt = now;
  }

  private evict(now: number): void {
    for (const [key, bucket] of this.buckets) {
      this.refill(bucket, now);
      if (bucket.tokens >= this.options.perSecond) this.buckets.delete(key);
    }
    if (this.buckets.size >= this.maxEntries * 0.9) this.buckets.clear();
  }
}

/** The part of the key that says which answers count as identical. */
function answerClass(query: Buffer, reply: Buffer): string {
  const rcode = reply.length >= 4 ? reply[3]! & 0x0f : -1;
  if (rcode === RCODE_NXDOMAIN) return 'nxdomain';
  if (rcode !== RCODE_NOERROR) return 'error';
  const end = questionEnd(query);
  // Resolvers randomise the case of names (0x20): the same question in any case counts once.
  // Length bytes (≤ 63) are never letters, so folding case cannot merge different names.
  return end === undefined ? 'error' : query.toString('latin1', 12, end).toLowerCase();
}

/** The offset just past the first question (name, type, class), or undefined if malformed. */
export function questionEnd(message: Buffer): number | undefined {
  let offset = 12;
  while (offset < message.length) {
    const length = message[offset]!;
    if (length === 0) return offset + 5 <= message.length ? offset + 5 : undefined;
    if (length > 63) return undefined; // questions carry no compression pointers
    offset += 1 + length;
  }
  return undefined;
}

/**
 * The empty truncated answer sent instead of a dropped one: the reply's header (its ID, flags
 * and RCODE) with TC set and only the question, so it is never bigger than the query.
 */
export function truncatedReply(reply: Buffer): Buffer | undefined {
  const end = questionEnd(reply);
  if (end === undefined || reply.readUInt16BE(4) !== 1) return undefined;
  const slip = Buffer.from(reply.subarray(0, end));
  slip[2] = slip[2]! | 0x02; // TC
  slip.writeUInt16BE(0, 6); // ANCOUNT
  slip.writeUInt16BE(0, 8); // NSCOUNT
  slip.writeUInt16BE(0, 10); // ARCOUNT
  return slip;
}
