import { escapeHtml } from './escape.js';
import { safeImageUrl, safeLinkUrl } from './url.js';

/** What {@link imageHtml} needs; URLs are checked again here. */
export interface ImageParts {
  src: string;
  darkSrc?: string;
  alt: string;
  href?: string;
  /** Display width in px. */
  width: number;
  align: string;
  radius?: number;
}

function img(src: string, alt: string, width: number, align: string, radius: number, cls: string): string {
  // `display:block` removes the gap under images in Gmail and Outlook.com; margins place it,
  // since `align` on the cell alone does not move a block image in every client. The auto
  // margin is on the far side for left and right too: a block with no auto margin goes to the
  // start side, which is the right in a right-to-left document.
  const margin =
    align === 'center' ? 'margin:0 auto' : align === 'right' ? 'margin:0 0 0 auto' : 'margin:0 auto 0 0';
  const round = radius > 0 ? `;border-radius:${radius}px` : '';
  return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" width="${width}"${cls} style="display:block;width:100%;max-width:${width}px;height:auto;${margin};border:0;text-decoration:none${round}">`;
}

/**
 * A responsive image: the `width` attribute for Outlook for Windows (which ignores CSS widths on
 * images), `max-width` plus `width:100%` so it shrinks on phones, always an `alt`. A dark-mode
 * source is a second image shown only under `prefers-color-scheme: dark` (Apple Mail, Outlook for
 * Mac, some others); clients without it, and Outlook for Windows (`mso-hide`), keep the light one.
 */
export function imageHtml(parts: ImageParts): string {
  const src = safeImageUrl(parts.src);
  if (!src) return '';
  const dark = safeImageUrl(parts.darkSrc);
  const radius = parts.radius ?? 0;
  let html = img(src, parts.alt, parts.width, parts.align, radius, dark ? ' class="sv-light"' : '');
  if (dark) {
    html += `<div class="sv-dark" style="display:none;overflow:hidden;max-height:0;mso-hide:all">${img(dark, parts.alt, parts.width, parts.align, radius, '')}</div>`;
  }
  const href = safeLinkUrl(parts.href);
  return href
    ? `<a href="${escapeHtml(href)}" target="_blank" style="text-decoration:none">${html}</a>`
    : html;
}
