/**
 * Open and click tracking, per recipient (issue 37). A tracked message is composed once with
 * `RECIPIENT_MARK` where each recipient's token goes, and each recipient's copy gets its tokens
 * before it is signed (`tracked-links.js`, on the render threads). Here: the key, reading tokens
 * back, and telling machines from people. A token is the recipient id and an
 * HMAC under a key derived from `SECRET_KEY` over the purpose, the id and (for a click) the
 * link, so a token cannot be made for another recipient and a tracked link cannot be pointed
 * anywhere else: the tracking host is never an open redirect.
 */
import { hkdfSync, timingSafeEqual } from 'node:crypto';
import { MAX_URL, RECIPIENT_MARK, trackingMac } from './tracked-links.js';

export { RECIPIENT_MARK };

/** A recipient id (`rcp_` and 20 base32 characters, `store/ids.ts`). */
const RECIPIENT_ID = /^rcp_[a-z2-7]{20}$/;

/** The HMAC key for tracking tokens, derived from the service's secret key. */
export function trackingKey(secretKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'tracking v1', 32));
}

type Purpose = 'open' | 'click';

/** The recipient a token names when its MAC holds, else `undefined`. */
function readToken(
  key: Buffer,
  given: string,
  purpose: Purpose,
  url?: string,
  host?: string,
): string | undefined {
  const dot = given.indexOf('.');
  const recipientId = given.slice(0, dot);
  const encoded = given.slice(dot + 1);
  if (dot === -1 || !RECIPIENT_ID.test(recipientId)) return undefined;
  const provided = Buffer.from(encoded, 'base64url');
  // only the one encoding we write (Node's decoder skips foreign characters)
  if (provided.toString('base64url') !== encoded) return undefined;
  const expected = trackingMac(key, purpose, recipientId, url, host);
  return provided.length === expected.length && timingSafeEqual(provided, expected) ? recipientId : undefined;
}

/** The recipient of an open pixel's token (`/t/o/<token>`). */
export function readOpenToken(key: Buffer, given: string): string | undefined {
  return readToken(key, given, 'open');
}

/**
 * The recipient and link of a tracked link (`/t/c/<token>/<link, base64url>`) asked for on
 * `host`: a link signed for one tracking host is not followed through another.
 */
export function readClickToken(
  key: Buffer,
  given: string,
  encodedUrl: string,
  host: string,
): { recipientId: string; url: string } | undefined {
  if (encodedUrl.length > (MAX_URL * 4) / 3 + 4) return undefined;
  const url = Buffer.from(encodedUrl, 'base64url').toString('utf8');
  if (Buffer.from(url).toString('base64url') !== encodedUrl || !/^https?:\/\//i.test(url)) return undefined;
  const recipientId = readToken(key, given, 'click', url, host.toLowerCase());
  return recipientId === undefined ? undefined : { recipientId, url };
}

/** Why an open or a click was a machine's, not a person's. */
export type MachineReason = 'apple_privacy_protection' | 'security_scanner' | 'head_request' | 'too_soon';
export const MACHINE_REASONS: readonly MachineReason[] = [
  'apple_privacy_protection',
  'security_scanner',
  'head_request',
  'too_soon',
];

/** User agents of link scanners and fetchers (mail security gateways, HTTP libraries, crawlers). */
const SCANNER =
  /bot\b|crawler|spider|scanner|python-|curl\/|wget\/|go-http-client|java\/|okhttp|libwww|headless|barracuda|mimecast|proofpoint|messagelabs|symantec|trendmicro|forcepoint|fortiguard|sophos|safelinks|cisco|ironport|zscaler/i;
/** A click this soon after the copy left is a gateway following links as the mail arrives. */
const TOO_SOON_MS = 10_000;

/**
 * Why a pixel load or a click was not a person's, as far as the request tells: Apple Mail
 * Privacy Protection loads every image through a proxy that says only `Mozilla/5.0`; security
 * gateways fetch links with their own user agents, with HEAD, or within seconds of delivery.
 * `null`: nothing says it was a machine (which does not prove it was a person).
 */
export function machineReason(
  kind: 'opened' | 'clicked',
  request: { method: string; userAgent: string | undefined; msSinceSent: number | null },
): MachineReason | null {
  const ua = request.userAgent?.trim() ?? '';
  if (kind === 'clicked' && request.method === 'HEAD') return 'head_request';
  if (ua === '' || SCANNER.test(ua)) return 'security_scanner';
  if (kind === 'opened' && ua === 'Mozilla/5.0') return 'apple_privacy_protection';
  if (kind === 'clicked' && request.msSinceSent !== null && request.msSinceSent < TOO_SOON_MS)
    return 'too_soon';
  return null;
}
