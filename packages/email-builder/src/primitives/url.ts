/**
 * URL checks shared by the editor (links typed, pasted, stored) and the email renderer, which
 * checks again whatever JSON it is handed.
 *
 * Links: `http:`, `https:`, `mailto:`, `tel:` only. Images: `http:`, `https:`, and `data:` for
 * PNG, JPEG, GIF and WebP only (never SVG, which can carry script). Gmail does not show `data:`
 * images, so the uploader always produces http(s) URLs; data URLs survive only as a paste fallback.
 */

import { VARIABLE_ONLY } from './merge-tags.js';

// Browsers drop tabs and newlines anywhere in a URL and control characters around it, so
// "java\tscript:" runs as "javascript:". A URL holding any of them is refused outright.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const UNSAFE_CHARS = /[\u0000-\u001f\u007f\s]/;

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/]+=*$/i;

function schemeOf(url: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return match ? `${match[1]!.toLowerCase()}:` : null;
}

function isHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Returns the trimmed URL when it is a safe link (http, https, mailto, tel), else `''`. A link
 * that is exactly one merge variable (`{{reset_url}}`) is kept: `renderTemplate` fills it at send
 * time and checks the value it puts there against these same rules.
 */
export function safeLinkUrl(value: unknown): string {
  if (typeof value !== 'string') return '';
  const url = value.trim();
  if (VARIABLE_ONLY.test(url)) return url.replace(/\s+/g, '');
  if (url === '' || url.length > 2048 || UNSAFE_CHARS.test(url)) return '';
  const scheme = schemeOf(url);
  if (scheme === null || !LINK_SCHEMES.has(scheme)) return '';
  if (scheme === 'http:' || scheme === 'https:') return isHttp(url) ? url : '';
  return url.length > scheme.length ? url : '';
}

/** Returns the trimmed URL when it is a safe image source (http, https, raster data URL), else `''`. */
export function safeImageUrl(value: unknown): string {
  if (typeof value !== 'string') return '';
  const url = value.trim();
  if (url === '' || UNSAFE_CHARS.test(url)) return '';
  if (DATA_IMAGE.test(url)) return url.length <= 2_000_000 ? url : '';
  const scheme = schemeOf(url);
  if ((scheme === 'http:' || scheme === 'https:') && url.length <= 2048) return isHttp(url) ? url : '';
  return '';
}

/**
 * Turns what a person types in a link field into a URL: "example.com" becomes
 * "https://example.com", "name@example.com" becomes a mailto link. Returns `''` if still unsafe.
 */
export function normalizeUserUrl(value: string): string {
  const url = value.trim();
  if (url === '' || VARIABLE_ONLY.test(url)) return safeLinkUrl(url);
  if (schemeOf(url) === null) {
    if (/^[^\s@/]+@[^\s@/]+\.[^\s@/]+$/.test(url)) return safeLinkUrl(`mailto:${url}`);
    if (/^\+?[\d\s().-]{5,}$/.test(url)) return safeLinkUrl(`tel:${url.replace(/[\s().-]/g, '')}`);
    return safeLinkUrl(`https://${url}`);
  }
  return safeLinkUrl(url);
}

/** Turns what a person pastes in an image field into a safe image URL ("cdn.x/a.png" gets https). */
export function normalizeImageInput(value: string): string {
  const url = value.trim();
  if (url === '') return '';
  return safeImageUrl(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
}
