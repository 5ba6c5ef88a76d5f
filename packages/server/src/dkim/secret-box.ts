/**
 * Private keys at rest: AES-256-GCM (NIST SP 800-38D) under `SECRET_KEY`. Pure apart from the
 * random nonce, which can be passed in for tests.
 *
 * Sealed form: `v1.<base64 nonce>.<base64 ciphertext>.<base64 tag>`. The version prefix lets a
 * later release change algorithm or key without guessing what an old row holds. The token the
 * key belongs to is bound as additional authenticated data, so a ciphertext copied onto another
 * row does not open there.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256 key length in bytes. */
export const SECRET_KEY_BYTES = 32;
const NONCE_BYTES = 12; // SP 800-38D §8.2: 96-bit IVs for random nonces
const TAG_BYTES = 16;

/** Opening failed: wrong `SECRET_KEY`, a damaged row, or a row of another token. */
export class SecretBoxError extends Error {}

/** Encrypt `plaintext` bound to `context` (the token). */
export function seal(
  key: Buffer,
  plaintext: Buffer,
  context: string,
  nonce: Buffer = randomBytes(NONCE_BYTES),
): string {
  checkKey(key);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ['v1', nonce, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64')))
    .join('.');
}

/** Decrypt what {@link seal} produced for the same `context`; throws {@link SecretBoxError} otherwise. */
export function open(key: Buffer, sealed: string, context: string): Buffer {
  checkKey(key);
  const [version, nonce, ciphertext, tag, ...rest] = sealed.split('.');
  if (
    version !== 'v1' ||
    nonce === undefined ||
    ciphertext === undefined ||
    tag === undefined ||
    rest.length > 0
  ) {
    throw new SecretBoxError('not a sealed v1 value');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]);
  } catch {
    throw new SecretBoxError(
      'the private key does not decrypt: SECRET_KEY differs from the one it was sealed with, or the row is damaged',
    );
  }
}

function checkKey(key: Buffer): void {
  if (key.length !== SECRET_KEY_BYTES)
    throw new RangeError(`the secret key must be ${SECRET_KEY_BYTES} bytes`);
}
