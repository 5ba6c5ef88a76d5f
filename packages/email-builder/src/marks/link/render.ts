import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../primitives/escape.js';
import { LINK } from '../../primitives/styles.js';
import { safeLinkUrl } from '../../primitives/url.js';
import type { MarkRendering } from '../rendering.js';

/** A link: http, https, mailto and tel only; anything else is dropped on load and render. */
export const linkRendering: MarkRendering = {
  name: 'link',
  attrs: { href: a.link() },
  render: (attrs, ctx) => {
    const href = safeLinkUrl(attrs.href);
    if (!href) return null;
    // Outlook and Gmail recolour links without an inline colour, so the colour is always set.
    return [
      `<a href="${escapeHtml(href)}" target="_blank"${ctx.darkTextAttr(LINK)} style="color:${LINK};text-decoration:underline">`,
      '</a>',
    ];
  },
  textSuffix: (attrs, text) => {
    const href = safeLinkUrl(attrs.href);
    return href && href !== text && href !== `mailto:${text}` ? ` (${href})` : '';
  },
};
