import { a } from '../../model/attrs.js';
import { imageHtml } from '../../primitives/image.js';
import { TABLE } from '../../primitives/styles.js';
import { safeImageUrl, safeLinkUrl } from '../../primitives/url.js';
import { htmlMarker } from '../marker.js';
import { defineRendering } from '../rendering.js';

const ATTRS = {
  src: a.image('Logo'),
  darkSrc: a.image('Dark-mode logo'),
  alt: a.text('Logo', 'Alt text', 200),
  href: a.link(),
  width: a.number(120, 24, 600, 'Width'),
  align: a.align('center'),
};

/** The brand logo: an image with a fixed pixel width; branding fills its light and dark sources. */
export const logoRendering = defineRendering({
  name: 'logo',
  attrs: ATTRS,
  brand: (b) => ({ src: b.logo.light, darkSrc: b.logo.dark, alt: b.signature.company }),
  // without a picture the block renders nothing: listed, and shown on the block (image/view.ts)
  problems: (attrs) => (safeImageUrl(attrs.src) ? [] : ['SEB_PROBLEM_NO_IMAGE']),
  render: (_node, attrs, ctx) => {
    const html = imageHtml({
      src: attrs.src,
      darkSrc: attrs.darkSrc,
      alt: attrs.alt || 'Logo',
      href: attrs.href,
      width: Math.min(attrs.width, ctx.width),
      align: attrs.align,
    });
    if (!html) return '';
    return `${TABLE}${htmlMarker('logo', ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:${ctx.flushEnd ? '0' : '0 0 24px'}">${html}</td></tr></table>`;
  },
  text: (_node, attrs) => {
    const href = safeLinkUrl(attrs.href);
    return attrs.src ? `[${attrs.alt || 'Logo'}]${href ? ` (${href})` : ''}` : '';
  },
});
