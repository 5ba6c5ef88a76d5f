import { randomBytes } from 'node:crypto';
import { base32 } from 'rfc4648';

/** Length of a DKIM selector token: 160 random bits in lowercase RFC 4648 base32. */
export const TOKEN_LENGTH = 32;

/**
 * A new DKIM selector token: 32 characters of lowercase base32 from the CSPRNG
 * (20 bytes = 160 bits, so collisions are not a practical concern; the store still
 * enforces uniqueness). Lowercase because DNS names are case-insensitive and customers
 * copy these into DNS consoles.
 */
export function newToken(random: (size: number) => Uint8Array = randomBytes): string {
  return base32.stringify(random(20), { pad: false }).toLowerCase();
}
