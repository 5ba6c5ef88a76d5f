import { a } from '../model/attrs.js';
import { isHexColor, toHexColor } from '../render/color.js';
import { defineMark } from './define.js';

/** Font sizes the bubble menu offers; pasted sizes snap to the nearest. */
export const FONT_SIZES = [12, 14, 16, 18, 20, 24, 30, 36] as const;

/** Text colour (hex only). */
export const textColor = defineMark({
  name: 'textColor',
  attrs: { color: a.color('#27272a') },
  spec: {
    parseDOM: [
      // Only inline elements: a block's own colour (a heading, a table cell) is not a mark.
      {
        tag: 'span[style*="color"]',
        getAttrs: (dom) => {
          const color = toHexColor((dom as HTMLElement).style.color);
          return color ? { color } : false;
        },
      },
      {
        tag: 'font[color]',
        getAttrs: (dom) => {
          const color = toHexColor((dom as HTMLElement).getAttribute('color'));
          return color ? { color } : false;
        },
      },
    ],
    toDOM: (mark) => ['span', { style: `color:${mark.attrs.color}` }, 0],
  },
  render: (attrs, ctx) =>
    isHexColor(attrs.color)
      ? [`<span${ctx.darkTextAttr(attrs.color)} style="color:${attrs.color}">`, '</span>']
      : null,
});

/** Highlight (background colour, hex only). */
export const highlight = defineMark({
  name: 'highlight',
  attrs: { color: a.color('#fef08a') },
  spec: {
    parseDOM: [
      {
        tag: 'mark',
        getAttrs: (dom) => ({ color: toHexColor((dom as HTMLElement).style.backgroundColor) || '#fef08a' }),
      },
      {
        tag: 'span[style*="background"]',
        getAttrs: (dom) => {
          const color = toHexColor((dom as HTMLElement).style.backgroundColor);
          return color && color !== '#ffffff' ? { color } : false;
        },
      },
    ],
    toDOM: (mark) => ['mark', { style: `background-color:${mark.attrs.color};color:inherit` }, 0],
  },
  render: (attrs) =>
    isHexColor(attrs.color) ? [`<span style="background-color:${attrs.color}">`, '</span>'] : null,
});

/** Font size in px, one of {@link FONT_SIZES}. */
export const fontSize = defineMark({
  name: 'fontSize',
  attrs: { size: a.number(16, 10, 48) },
  spec: {
    parseDOM: [
      {
        tag: 'span[style*="font-size"]',
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
  render: (attrs) =>
    typeof attrs.size === 'number'
      ? [`<span style="font-size:${attrs.size}px;line-height:${Math.round(attrs.size * 1.4)}px">`, '</span>']
      : null,
});
