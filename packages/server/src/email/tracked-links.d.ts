/** Types of `tracked-links.js` (plain JavaScript: it runs on the render threads). */
export declare const RECIPIENT_MARK: string;
/** Longest link tracked and followed. */
export declare const MAX_URL: number;
export declare function addTracking(
  html: string,
  options: { base: string; opens: boolean; clicks: boolean; keep: string[] },
): string;
export declare function trackingMac(
  key: Uint8Array,
  purpose: 'open' | 'click',
  recipientId: string,
  url?: string,
  host?: string,
): Buffer;
export declare function personalise(message: string, key: Uint8Array, recipientId: string): string;
export declare function withoutTracking(content: string, html: boolean): string;
