import { a } from '../../model/attrs.js';
import { isHexColor } from '../../primitives/color.js';
import type { MarkRendering } from '../rendering.js';

/** Text colour (hex only). */
export const textColorRendering: MarkRendering = {
  name: 'textColor',
  attrs: { color: a.color('#27272a') },
  colors: { color: 'text' },
  render: (attrs, ctx) =>
    isHexColor(attrs.color)
      ? [`<span${ctx.darkTextAttr(attrs.color)} style="color:${attrs.color}">`, '</span>']
      : null,
};

/** Highlight (background colour, hex only). */
export const highlightRendering: MarkRendering = {
  name: 'highlight',
  attrs: { color: a.color('#fef08a') },
  colors: { color: 'bg' },
  // Highlighted text gets a dark-mode colour that reads on the highlight, which keeps its
  // background in dark mode while the text around it turns light.
  render: (attrs, ctx, text) =>
    isHexColor(attrs.color)
      ? [
          `<span${ctx.darkHighlightAttr(text.ink, attrs.color)} style="background-color:${attrs.color}">`,
          '</span>',
        ]
      : null,
};

/** Font size in px. */
export const fontSizeRendering: MarkRendering = {
  name: 'fontSize',
  attrs: { size: a.number(16, 10, 48) },
  render: (attrs) =>
    typeof attrs.size === 'number'
      ? [`<span style="font-size:${attrs.size}px;line-height:${Math.round(attrs.size * 1.4)}px">`, '</span>']
      : null,
};
