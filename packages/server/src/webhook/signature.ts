/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, "Signature scheme"): the
 * secret is shown as `whsec_<base64>`, and each request carries
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the
 * secret's decoded bytes.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
/** 24 random bytes (192 bits), within the 24–64 bytes the specification recommends. */
const SECRET_BYTES = 24;

/** A new secret's bytes. */
export const newSecretBytes = (): Buffer => randomBytes(SECRET_BYTES);

/** The form the secret is shown in, once, at creation. */
export const formatSecret = (bytes: Buffer): string => PREFIX + bytes.toString('base64');

/** The three headers of one attempt; `timestamp` in seconds since the epoch. */
export function signatureHeaders(
  secret: Buffer,
  id: string,
  timestamp: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const signature = createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}
