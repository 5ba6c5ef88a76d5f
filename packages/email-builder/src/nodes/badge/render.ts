import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../primitives/escape.js';
import { FONT } from '../../primitives/styles.js';
import { htmlMarker } from '../marker.js';
import { type Attrs, defineRendering } from '../rendering.js';

const ATTRS = {
  text: a.text('New', 'Text', 40),
  textColor: a.color('#1d4ed8', 'Text colour'),
  backgroundColor: a.color('#dbeafe', 'Background'),
};

/** The pill's inline style, the same in the email and the editor. */
export const badgeStyle = (attrs: Attrs) =>
  `display:inline-block;padding:2px 10px;border-radius:999px;background-color:${attrs.backgroundColor};color:${attrs.textColor};font-family:${FONT};font-size:12px;font-weight:700;line-height:18px;letter-spacing:.02em`;

/** An inline pill label ("New", "Sale") inside text. */
export const badgeRendering = defineRendering({
  name: 'badge',
  attrs: ATTRS,
  inline: true,
  // the label sits on the badge's tint, not on white
  colors: { backgroundColor: 'bg', textColor: 'textOnTint' },
  render: (_node, attrs) =>
    `<span${htmlMarker('badge', ATTRS, attrs)} style="${badgeStyle(attrs)}">${escapeHtml(attrs.text)}</span>`,
  text: (_node, attrs) => `[${attrs.text}]`,
});
