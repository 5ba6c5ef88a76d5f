import { TEMPLATE_ACCENT } from '../../branding/accent.js';
import { a } from '../../model/attrs.js';
import { emailButton } from '../../primitives/button.js';
import { textOn } from '../../primitives/contrast.js';
import { TABLE } from '../../primitives/styles.js';
import { safeLinkUrl } from '../../primitives/url.js';
import { htmlMarker } from '../marker.js';
import { defineRendering } from '../rendering.js';

const ATTRS = {
  text: a.text('Get started', 'Text', 120),
  href: a.link(),
  backgroundColor: a.color('#18181b', 'Button colour'),
  textColor: a.color('#ffffff', 'Text colour'),
  borderRadius: a.number(6, 0, 40, 'Corner radius'),
  fullWidth: a.bool(false, 'Full width'),
  align: a.align('center'),
};

/**
 * A call-to-action button. Everywhere but Outlook for Windows it is a padded link; there, a VML
 * rounded rectangle (the "bulletproof button") draws the same shape.
 */
export const buttonRendering = defineRendering({
  name: 'button',
  attrs: ATTRS,
  brand: ({ brandColor }) =>
    brandColor ? { backgroundColor: brandColor, textColor: textOn(brandColor) } : {},
  // The label colour follows the button colour, never on its own. Buttons in another colour
  // than the brand's (a deliberate secondary button) are left alone.
  rebrand: (current, given, before) => {
    const bg = current.backgroundColor.toLowerCase();
    const follows = before?.backgroundColor
      ? bg === before.backgroundColor
      : bg === TEMPLATE_ACCENT || bg === ATTRS.backgroundColor.default;
    return given.backgroundColor && follows
      ? { backgroundColor: given.backgroundColor, textColor: given.textColor }
      : {};
  },
  problems: (attrs) => (safeLinkUrl(attrs.href) ? [] : ['SEB_PROBLEM_NO_LINK']),
  render: (_node, attrs, ctx) =>
    `${TABLE}${htmlMarker('button', ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:${ctx.flushEnd ? '4px 0 0' : '4px 0 20px'}">${emailButton(attrs, ctx.width)}</td></tr></table>`,
  text: (_node, attrs) => {
    const href = safeLinkUrl(attrs.href);
    return href ? `${attrs.text}: ${href}` : attrs.text;
  },
});
