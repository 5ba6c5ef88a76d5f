import { toHexColor } from '../../primitives/color.js';
import { defineMark } from '../define.js';
import { fontSizeRendering, highlightRendering, textColorRendering } from './render.js';

// Pasted HTML (Google Docs, Word, web pages) puts colour, background, size, weight and slant on
// one <span>. Each mark's span rule is `consuming: false`, so after it matches, the rules after
// it still read the same span: the styles compose instead of the first one taking the span.
// (Not `style` rules: those apply to every element, and a block's own colour or background, a
// heading's or a table cell's, is not a mark.)

/** Font sizes the bubble menu offers; pasted sizes snap to the nearest. */
export const FONT_SIZES = [12, 14, 16, 18, 20, 24, 30, 36] as const;

/**
 * A pasted text colour worth a mark: hex, and not black. Google Docs writes `color:#000000` on
 * every run of text its author never coloured; as marks, every pasted word would carry a colour
 * nobody chose, and not the email's text colour. The palette never offers pure black, so black
 * text takes the email's text colour (and its dark-mode colour) instead.
 */
function pastedColor(value: string | null): { color: string } | false {
  const color = toHexColor(value);
  return color && color !== '#000000' ? { color } : false;
}

/** Text colour in the editor: pasted coloured spans and `<font color>`. */
export const textColor = defineMark({
  ...textColorRendering,
  spec: {
    parseDOM: [
      // Only inline elements: a block's own colour (a heading, a table cell) is not a mark.
      {
        tag: 'span[style*="color"]',
        consuming: false,
        getAttrs: (dom) => pastedColor((dom as HTMLElement).style.color),
      },
      {
        tag: 'font[color]',
        consuming: false,
        getAttrs: (dom) => pastedColor((dom as HTMLElement).getAttribute('color')),
      },
    ],
    toDOM: (mark) => ['span', { style: `color:${mark.attrs.color}` }, 0],
  },
});

/** Highlight in the editor: pasted `<mark>` and spans with a background. */
export const highlight = defineMark({
  ...highlightRendering,
  spec: {
    parseDOM: [
      {
        tag: 'mark',
        consuming: false,
        getAttrs: (dom) => ({ color: toHexColor((dom as HTMLElement).style.backgroundColor) || '#fef08a' }),
      },
      {
        // white is the page, not a highlight (nor is Docs' `transparent`)
        tag: 'span[style*="background"]',
        consuming: false,
        getAttrs: (dom) => {
          const color = toHexColor((dom as HTMLElement).style.backgroundColor);
          return color && color !== '#ffffff' ? { color } : false;
        },
      },
    ],
    toDOM: (mark) => ['mark', { style: `background-color:${mark.attrs.color};color:inherit` }, 0],
  },
});

/** Font size in the editor, one of {@link FONT_SIZES}. */
export const fontSize = defineMark({
  ...fontSizeRendering,
  spec: {
    parseDOM: [
      {
        tag: 'span[style*="font-size"]',
        consuming: false,
        getAttrs: (dom) => {
          const px = /^([\d.]+)px$/.exec((dom as HTMLElement).style.fontSize.trim());
          if (!px) return false;
          const n = Number(px[1]);
          const size = FONT_SIZES.reduce((best, s) => (Math.abs(s - n) < Math.abs(best - n) ? s : best), 16);
          return size === 16 ? false : { size };
        },
      },
    ],
    toDOM: (mark) => ['span', { style: `font-size:${mark.attrs.size}px` }, 0],
  },
});
