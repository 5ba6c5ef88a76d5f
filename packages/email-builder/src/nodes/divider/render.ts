import { a } from '../../model/attrs.js';
import { rgb } from '../../primitives/contrast.js';
import { TABLE } from '../../primitives/styles.js';
import { htmlMarker } from '../marker.js';
import { defineRendering } from '../rendering.js';

const ATTRS = {
  color: a.color('#e4e4e7', 'Colour'),
  thickness: a.number(1, 1, 8, 'Thickness'),
  spacing: a.number(16, 0, 64, 'Space around'),
};

/** A colour with (almost) no hue: its channels differ by at most 16 of 255 (the zinc and slate greys). */
function isGrey(color: string): boolean {
  const channels = rgb(color);
  return Math.max(...channels) - Math.min(...channels) <= 16;
}

/**
 * A horizontal rule drawn as a cell's top border: `<hr>` margins and colours differ between
 * Gmail, Outlook and Apple Mail, a bordered cell does not.
 */
export const dividerRendering = defineRendering({
  name: 'divider',
  attrs: ATTRS,
  colors: { color: 'bg' },
  // A grey rule takes the dark border colour in dark mode (`sv-hr`), where light grey would
  // glare; a coloured one (the brand's) keeps its colour.
  render: (_node, attrs) =>
    `${TABLE}${htmlMarker('divider', ATTRS, attrs)}><tr><td style="padding:${attrs.spacing}px 0">${TABLE}><tr><td${isGrey(attrs.color) ? ' class="sv-hr"' : ''} style="border-top:${attrs.thickness}px solid ${attrs.color};font-size:1px;line-height:1px;mso-line-height-rule:exactly">&nbsp;</td></tr></table></td></tr></table>`,
  text: () => '----------',
});
