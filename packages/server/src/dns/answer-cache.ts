/**
 * A cache of encoded UDP answers, so the hot path of a busy responder (the same few key
 * records asked again and again by resolvers) skips decoding and encoding. The key is the
 * query's bytes after its ID: two queries that differ only in ID get the same answer but
 * for its ID (RFC 1035 §4.1.1: the ID is copied from the query), and the question's exact
 * spelling (0x20 case) is part of the key, so it is echoed faithfully.
 *
 * One cache per zone version: a reloaded zone starts empty. Bounded: when full it is
 * cleared, so a flood of distinct queries costs memory once, not without end.
 */
import type { QueryContext } from './answer.js';
import { answerMessage } from './answer.js';
import type { DkimZone } from './zone.js';

/** Most answers kept per zone version. */
const MAX_ENTRIES = 10_000;
/** Queries longer than this are answered without the cache (real questions are short). */
const MAX_KEY_BYTES = 300;

const caches = new WeakMap<DkimZone, Map<string, Buffer | null>>();
const UDP: QueryContext = { transport: 'udp', transferAllowed: false };

/** `answerMessage` over UDP with the cache; returns the reply to send, or `undefined` for none. */
export function answerUdpCached(message: Buffer, zone: DkimZone): Buffer | undefined {
  if (message.length < 12 || message.length > MAX_KEY_BYTES) return answerMessage(message, zone, UDP)[0];
  let cache = caches.get(zone);
  if (!cache) {
    cache = new Map();
    caches.set(zone, cache);
  }
  const key = message.toString('latin1', 2);
  let template = cache.get(key);
  if (template === undefined) {
    template = answerMessage(message, zone, UDP)[0] ?? null;
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, template);
  }
  if (template === null) return undefined;
  const reply = Buffer.from(template);
  reply[0] = message[0]!;
  reply[1] = message[1]!;
  return reply;
}
