/**
 * DKIM key pairs: RSA-2048 (RFC 8301 §3.2: signers MUST use at least 1024 bits and SHOULD use
 * at least 2048), exponent 65537. Generation runs on the libuv thread pool (`crypto.generateKeyPair`
 * is asynchronous), so the event loop keeps serving requests meanwhile.
 */
import { createPrivateKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

/** RSA modulus length of every key we generate. */
export const DKIM_KEY_BITS = 2048;

/** A fresh key pair, in the forms we store. */
export interface DkimKeyPair {
  /** Base64 DER SubjectPublicKeyInfo: exactly the `p=` tag of the key record (RFC 6376 §3.6.1). */
  publicKey: string;
  /** PKCS#8 DER, to be sealed before it is stored. */
  privateKey: Buffer;
}

const generate = promisify(generateKeyPair);

/** Generate one RSA-2048 key pair off the event loop. */
export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: DKIM_KEY_BITS,
    publicExponent: 0x10001,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  return { publicKey: publicKey.toString('base64'), privateKey };
}

/** The private key object of a stored PKCS#8 DER key. */
export function privateKeyObject(pkcs8: Buffer): KeyObject {
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
}
