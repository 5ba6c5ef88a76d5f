import { cleanAttrs } from '../../model/attrs.js';
import { safeLinkUrl } from '../../primitives/url.js';
import { defineMark } from '../define.js';
import { linkRendering } from './render.js';

/** A link in the editor: a pasted link with another scheme is dropped. */
export const link = defineMark({
  ...linkRendering,
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
      { href: cleanAttrs(linkRendering.attrs, mark.attrs).href, rel: 'noopener noreferrer nofollow' },
      0,
    ],
  },
});
