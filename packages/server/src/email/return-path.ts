/**
 * Envelope senders on a domain's return path (issue 34), one per recipient (VERP): what comes
 * back to `<recipient id>.<mac>@bounces.<domain>` names the message and the recipient it is
 * about, and only we can make such an address. The MAC is HMAC-SHA256 under a key derived from
 * `SECRET_KEY`, cut to 80 bits and written in lowercase base32, since receiving MTAs may change
 * the case of a local part; a forged or altered address matches no recipient.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { base32 } from 'rfc4648';

const MAC_BYTES = 10;
/** `rcp_` and 20 base32 characters (`store/ids.ts`), a dot, 16 base32 characters. */
const LOCAL_PART = /^(rcp_[a-z2-7]{20})\.([a-z2-7]{16})$/;

/** The HMAC key for return-path addresses, derived from the service's secret key. */
export function returnPathKey(secretKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'return-path v1', 32));
}

const mac = (key: Buffer, recipientId: string) =>
  base32
    .stringify(createHmac('sha256', key).update(recipientId).digest().subarray(0, MAC_BYTES), { pad: false })
    .toLowerCase();

/** The envelope sender for one recipient's copy: `<recipient id>.<mac>@<returnPathDomain>`. */
export function returnPathAddress(key: Buffer, recipientId: string, returnPathDomain: string): string {
  return `${recipientId}.${mac(key, recipientId)}@${returnPathDomain}`;
}

/** The recipient id an address's local part names, or `undefined` when it is not one of ours. */
export function readReturnPath(key: Buffer, address: string): string | undefined {
  const at = address.lastIndexOf('@');
  const match = LOCAL_PART.exec((at === -1 ? address : address.slice(0, at)).toLowerCase());
  if (!match) return undefined;
  const [, recipientId, given] = match as unknown as [string, string, string];
  const expected = Buffer.from(mac(key, recipientId));
  return timingSafeEqual(expected, Buffer.from(given)) ? recipientId : undefined;
}
