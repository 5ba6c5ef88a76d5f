import { a } from '../../model/attrs.js';
import { TABLE } from '../../primitives/styles.js';
import { htmlMarker } from '../marker.js';
import { defineRendering } from '../rendering.js';

const ATTRS = { height: a.number(32, 8, 160, 'Height', 'px', 4) };

/**
 * Vertical space. Outlook for Windows collapses empty cells and ignores `height` on them, so the
 * cell holds `&nbsp;` with an exact line height equal to the space.
 */
export const spacerRendering = defineRendering({
  name: 'spacer',
  attrs: ATTRS,
  render: (_node, attrs) =>
    `${TABLE}${htmlMarker('spacer', ATTRS, attrs)}><tr><td style="height:${attrs.height}px;font-size:1px;line-height:${attrs.height}px;mso-line-height-rule:exactly">&nbsp;</td></tr></table>`,
  text: () => '',
});
