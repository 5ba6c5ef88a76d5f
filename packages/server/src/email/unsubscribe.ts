/**
 * One-click unsubscribe (RFC 8058) for messages from Marketing domains: each recipient's copy
 * carries `List-Unsubscribe: <…/unsubscribe/TOKEN>` and `List-Unsubscribe-Post:
 * List-Unsubscribe=One-Click`. The token names the recipient row and is authenticated with an
 * HMAC under a key derived from `SECRET_KEY`, so it cannot be guessed or altered; a POST to it
 * puts the address on the sending account's suppression list.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 16;

/** The HMAC key for tokens, derived from the service's secret key (never the key itself). */
export function unsubscribeKey(secretKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'list-unsubscribe v1', 32));
}

const mac = (key: Buffer, recipientId: string) =>
  createHmac('sha256', key).update(recipientId).digest().subarray(0, MAC_BYTES);

/** `<recipient id>.<mac>`, URL-safe. */
export function unsubscribeToken(key: Buffer, recipientId: string): string {
  return `${recipientId}.${mac(key, recipientId).toString('base64url')}`;
}

/** The recipient id a token names, or `undefined` when the token is not ours. */
export function readUnsubscribeToken(key: Buffer, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0 || token.length > 200) return undefined;
  const recipientId = token.slice(0, dot);
  const encoded = token.slice(dot + 1);
  const given = Buffer.from(encoded, 'base64url');
  // Only the one encoding we write: Node's decoder skips foreign characters and ignores the
  // last character's unused low bits, so `ab!c`, `abc%00` and a changed last bit decode alike.
  if (given.toString('base64url') !== encoded) return undefined;
  const expected = mac(key, recipientId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? recipientId : undefined;
}

/** The two headers, ending in CRLF, to put above a recipient's copy before it is signed. */
export function unsubscribeHeaders(baseUrl: string, token: string, mailto?: string): string {
  const mail = mailto === undefined ? '' : `, <mailto:${mailto}?subject=unsubscribe>`;
  return `List-Unsubscribe: <${baseUrl}/unsubscribe/${token}>${mail}\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n`;
}
