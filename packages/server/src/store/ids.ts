import { randomFillSync } from 'node:crypto';

/**
 * RFC 4648 §6 base32, lower case, no padding: 12 bytes give 20 characters. Written out rather
 * than `rfc4648`'s `base32.stringify`, which with `randomBytes(12)` cost 6.8 µs an id, a few
 * hundred ids for a batch of 100 messages, on the event loop (issue 37); this and the pool
 * below, 0.4 µs.
 */
export function base32Lower(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_BYTES = 12;
/** Random bytes for 256 ids, filled at once (one call into the CSPRNG instead of one an id). */
const pool = Buffer.alloc(ID_BYTES * 256);
let used = pool.length;

/** A new opaque id such as `dom_k5x2…`: a type prefix and 96 random bits. */
export function newId(
  prefix: 'acc' | 'key' | 'dom' | 'evt' | 'tpl' | 'whk' | 'msg' | 'dlv' | 'eml' | 'rcp' | 'eev',
): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + ID_BYTES);
  used += ID_BYTES;
  return `${prefix}_${base32Lower(bytes)}`;
}
