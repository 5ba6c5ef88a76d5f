import { a } from '../../model/attrs.js';
import { imageHtml } from '../../primitives/image.js';
import { TABLE } from '../../primitives/styles.js';
import { safeImageUrl, safeLinkUrl } from '../../primitives/url.js';
import { htmlMarker } from '../marker.js';
import { defineRendering } from '../rendering.js';

/** The image attributes; `width` is a percentage of the space the image sits in. */
const ATTRS = {
  src: a.image('Image'),
  alt: a.text('', 'Alt text (describe the image)', 300),
  href: a.link(),
  width: a.number(100, 10, 100, 'Width', '%', 5),
  align: a.align('center'),
  borderRadius: a.number(0, 0, 40, 'Corner radius'),
  darkSrc: a.image('Dark-mode image'),
};

/** An image: uploaded or by URL, with alt text, link, width, alignment, radius, dark-mode source. */
export const imageRendering = defineRendering({
  name: 'image',
  attrs: ATTRS,
  // without a picture the block renders nothing: listed, and shown on the block (view.ts)
  problems: (attrs) => (safeImageUrl(attrs.src) ? [] : ['SEB_PROBLEM_NO_IMAGE']),
  render: (_node, attrs, ctx) => {
    const html = imageHtml({
      src: attrs.src,
      darkSrc: attrs.darkSrc,
      alt: attrs.alt,
      href: attrs.href,
      width: Math.round((ctx.width * attrs.width) / 100),
      align: attrs.align,
      radius: attrs.borderRadius,
    });
    if (!html) return '';
    return `${TABLE}${htmlMarker('image', ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:${ctx.flushEnd ? '0' : '0 0 16px'}">${html}</td></tr></table>`;
  },
  text: (_node, attrs) => {
    if (!attrs.src) return '';
    const href = safeLinkUrl(attrs.href);
    return `[${attrs.alt || 'Image'}]${href ? ` (${href})` : ''}`;
  },
});
