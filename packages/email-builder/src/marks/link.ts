import { a, cleanAttrs } from '../model/attrs.js';
import { escapeHtml } from '../render/escape.js';
import { LINK } from '../render/styles.js';
import { safeLinkUrl } from '../render/url.js';
import { defineMark } from './define.js';

const attrs = { href: a.link() };

/** A link: http, https, mailto and tel only; anything else is dropped on paste, load and render. */
export const link = defineMark({
  name: 'link',
  attrs,
  spec: {
    inclusive: false,
    parseDOM: [
      {
        tag: 'a[href]',
        getAttrs: (dom) => {
          const href = safeLinkUrl((dom as HTMLElement).getAttribute('href'));
          return href ? { href } : false;
        },
      },
    ],
    toDOM: (mark) => [
      'a',
      { href: cleanAttrs(attrs, mark.attrs).href, rel: 'noopener noreferrer nofollow' },
      0,
    ],
  },
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
});
