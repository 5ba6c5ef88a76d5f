/**
 * Signing Domain Connect apply URLs, and publishing the key that checks them (spec 2.3,
 * "Digitally Sign Requests"): RSASSA-PKCS1-v1_5 with SHA-256 over the query string, the
 * signature in standard base64; the public key (its SubjectPublicKeyInfo in base64) in TXT
 * records `p=<n>,a=RS256,d=<piece>` at `<key>.<syncPubKeyDomain>`.
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * Characters of the key per TXT record. Providers' verifiers read only the first string of
 * each record, so each record stays one string of at most 255 bytes: `p=N,a=RS256,d=` and
 * 200 characters of key.
 */
const PIECE = 200;

/** The base64 signature of `query` (UTF-8) with `privateKey` (PEM or KeyObject). */
export function signQuery(query: string, privateKey: string | KeyObject): string {
  return sign('sha256', Buffer.from(query, 'utf8'), privateKey).toString('base64');
}

/** Whether `signature` (base64) signs `query` for the public key in `records` (as published). */
export function verifyQuery(query: string, signature: string, records: readonly string[]): boolean {
  const key = publicKeyFromRecords(records);
  return verify('sha256', Buffer.from(query, 'utf8'), key, Buffer.from(signature, 'base64'));
}

/** The TXT record texts publishing `privateKey`'s public half, in order. */
export function publicKeyRecords(privateKey: string | KeyObject): string[] {
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  const records: string[] = [];
  for (let i = 0; i * PIECE < spki.length; i++)
    records.push(`p=${i + 1},a=RS256,d=${spki.slice(i * PIECE, (i + 1) * PIECE)}`);
  return records;
}

/**
 * The public key published in `records` (TXT texts, any order): pieces sorted by `p` and
 * joined. Refuses an algorithm other than RS256 or a type other than x509, as providers do.
 */
export function publicKeyFromRecords(records: readonly string[]): KeyObject {
  const pieces = records.map((record) => {
    const fields = new Map(
      record.split(',').map((field) => {
        const at = field.indexOf('=');
        return [field.slice(0, at).trim(), field.slice(at + 1).trim()] as const;
      }),
    );
    if ((fields.get('a') ?? 'RS256') !== 'RS256') throw new Error(`unsupported algorithm in "${record}"`);
    if ((fields.get('t') ?? 'x509') !== 'x509') throw new Error(`unsupported key type in "${record}"`);
    const p = Number(fields.get('p'));
    const d = fields.get('d');
    if (!Number.isInteger(p) || d === undefined) throw new Error(`not a key piece: "${record}"`);
    return { p, d };
  });
  if (pieces.length === 0) throw new Error('no key records');
  const spki = pieces
    .sort((a, b) => a.p - b.p)
    .map((piece) => piece.d)
    .join('');
  return createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
}

/** A PEM private key as a KeyObject (once, not per signature). */
export const privateKeyOf = (pem: string): KeyObject => createPrivateKey(pem);
