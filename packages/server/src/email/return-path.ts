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
/**
 * `rcp_` and 20 base32 characters (`store/ids.ts`), a dot, 16 base32 characters; `unsubscribe.`
 * in front for the `mailto:` of `List-Unsubscribe`.
 */
const LOCAL_PART = /^(unsubscribe\.)?(rcp_[a-z2-7]{20})\.([a-z2-7]{16})$/;

/** What an address of ours is for: bounces and reports, or a request to unsubscribe. */
export type ReturnPathPurpose = 'bounce' | 'unsubscribe';

/** The HMAC key for return-path addresses, derived from the service's secret key. */
export function returnPathKey(secretKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'return-path v1', 32));
}

const mac = (key: Buffer, recipientId: string, purpose: ReturnPathPurpose) =>
  base32
    .stringify(
      createHmac('sha256', key)
        // the bounce address's MAC is over the id alone; another purpose is named, so one
        // address can never be turned into the other
        .update(purpose === 'bounce' ? recipientId : `${purpose}:${recipientId}`)
        .digest()
        .subarray(0, MAC_BYTES),
      { pad: false },
    )
    .toLowerCase();

/**
 * The envelope sender for one recipient's copy, `<recipient id>.<mac>@<returnPathDomain>`, or
 * with `unsubscribe` the `mailto:` address of its List-Unsubscribe.
 */
export function returnPathAddress(
  key: Buffer,
  recipientId: string,
  returnPathDomain: string,
  purpose: ReturnPathPurpose = 'bounce',
): string {
  const prefix = purpose === 'bounce' ? '' : `${purpose}.`;
  return `${prefix}${recipientId}.${mac(key, recipientId, purpose)}@${returnPathDomain}`;
}

/** The recipient id and purpose an address's local part names, or `undefined` when it is not ours. */
export function readReturnPath(
  key: Buffer,
  address: string,
): { recipientId: string; purpose: ReturnPathPurpose } | undefined {
  const at = address.lastIndexOf('@');
  const match = LOCAL_PART.exec((at === -1 ? address : address.slice(0, at)).toLowerCase());
  if (!match) return undefined;
  const [, prefix, recipientId, given] = match as unknown as [string, string | undefined, string, string];
  const purpose: ReturnPathPurpose = prefix ? 'unsubscribe' : 'bounce';
  const expected = Buffer.from(mac(key, recipientId, purpose));
  return timingSafeEqual(expected, Buffer.from(given)) ? { recipientId, purpose } : undefined;
}
