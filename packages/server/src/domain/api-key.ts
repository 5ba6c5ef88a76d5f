/**
 * API keys: 256 random bits shown once, stored only as a SHA-256 hash. A fast hash is
 * right here (unlike passwords): the input already has full entropy, so there is nothing
 * to brute-force, and every request pays for the check.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'sk_';
/** Characters of the key kept in clear in the store, so humans can tell keys apart. */
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

/**
 * Scopes a key can hold. `*` is the whole API; `sending` is sending (and reading what was sent),
 * optionally limited to some domains; `templates` and `images` are for browser code.
 */
export const API_SCOPES = ['*', 'sending', 'templates', 'images'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export interface GeneratedKey {
  /** The key to show the user once. */
  secret: string;
  hash: string;
  prefix: string;
}

export function generateApiKey(random: (size: number) => Buffer = randomBytes): GeneratedKey {
  const secret = KEY_PREFIX + random(32).toString('base64url');
  return { secret, hash: hashApiKey(secret), prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** Hex SHA-256 of a presented key (the one-shot `hash`: a third of `createHash`'s 0.6 µs). */
export function hashApiKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Room for one hex SHA-256 each side of a comparison, reused: a compare allocates nothing. */
const HEX_HASH_LENGTH = 64;
const left = Buffer.alloc(HEX_HASH_LENGTH);
const right = Buffer.alloc(HEX_HASH_LENGTH);

/**
 * Constant-time comparison of two hex SHA-256 hashes (as `hashApiKey` makes them); anything of
 * another length is unequal. The hex text is compared as it is, not decoded.
 */
export function hashesEqual(a: string, b: string): boolean {
  if (a.length !== HEX_HASH_LENGTH || b.length !== HEX_HASH_LENGTH) return false;
  left.write(a, 'latin1');
  right.write(b, 'latin1');
  return timingSafeEqual(left, right);
}

/**
 * The key as presented in `Authorization`: the spec sends the key alone; a `Bearer `
 * prefix is tolerated (design decision). With `acceptBasic`, `Basic base64(key + ":")` too,
 * the form ImageKit's upload protocol (and so the editor's uploader) sends. Returns
 * `undefined` for an empty value.
 */
export function keyFromAuthorization(header: string | undefined, acceptBasic = false): string | undefined {
  if (header === undefined) return undefined;
  const basic = acceptBasic ? /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
  const value = basic
    ? (Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0] ?? '')
    : header.trim().replace(/^bearer\s+/i, '');
  return value.length > 0 ? value : undefined;
}
