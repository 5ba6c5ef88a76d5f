import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../render/escape.js';
import { notMso, vmlButton } from '../../render/mso.js';
import { FONT, TABLE } from '../../render/styles.js';
import { safeLinkUrl } from '../../render/url.js';
import { ICONS } from '../../ui/icons.js';
import { insertBlock } from '../commands.js';
import { type Attrs, defineBlock, domMarker, htmlMarker, markerRule } from '../define.js';

const ATTRS = {
  text: a.text('Get started', 'Text', 120),
  href: a.link(),
  backgroundColor: a.color('#18181b', 'Button colour'),
  textColor: a.color('#ffffff', 'Text colour'),
  borderRadius: a.number(6, 0, 40, 'Corner radius'),
  fullWidth: a.bool(false, 'Full width'),
  align: a.align('center'),
};

const FONT_SIZE = 16;
const HEIGHT = 44;

/** Outlook's VML needs a fixed width: estimated from the text at about 0.6 em per character. */
function vmlWidth(attrs: Attrs, available: number): number {
  if (attrs.fullWidth) return available;
  return Math.min(available, Math.max(120, Math.round(String(attrs.text).length * FONT_SIZE * 0.6) + 56));
}

function linkStyle(attrs: Attrs): string {
  const display = attrs.fullWidth ? 'display:block' : 'display:inline-block';
  return `${display};padding:12px 28px;background-color:${attrs.backgroundColor};border-radius:${attrs.borderRadius}px;color:${attrs.textColor};font-family:${FONT};font-size:${FONT_SIZE}px;font-weight:600;line-height:20px;text-align:center;text-decoration:none;-webkit-text-size-adjust:none`;
}

/**
 * A call-to-action button. Everywhere but Outlook for Windows it is a padded link; there, a VML
 * rounded rectangle (the "bulletproof button") draws the same shape.
 */
export const button = defineBlock({
  name: 'button',
  attrs: ATTRS,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('button', ATTRS)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('button', ATTRS, node.attrs),
        class: 'sv-button',
        style: `text-align:${node.attrs.align}`,
      },
      ['span', { class: 'sv-button-face', style: linkStyle(node.attrs) }, node.attrs.text || ' '],
    ],
  },
  problems: (attrs) => (safeLinkUrl(attrs.href) ? [] : ['SEB_PROBLEM_NO_LINK']),
  render: (_node, attrs, ctx) => {
    const href = safeLinkUrl(attrs.href);
    const text = escapeHtml(attrs.text || 'Button');
    const width = vmlWidth(attrs, ctx.width);
    const vml = vmlButton({
      href,
      text: attrs.text || 'Button',
      width,
      height: HEIGHT,
      radius: attrs.borderRadius,
      fill: attrs.backgroundColor,
      color: attrs.textColor,
      fontSize: FONT_SIZE,
    });
    const face = href
      ? `<a href="${escapeHtml(href)}" target="_blank" style="${linkStyle(attrs)}">${text}</a>`
      : `<span style="${linkStyle(attrs)}">${text}</span>`;
    return `${TABLE}${htmlMarker('button', ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:${ctx.flushEnd ? '4px 0 0' : '4px 0 20px'}">${vml}${notMso(face)}</td></tr></table>`;
  },
  text: (_node, attrs) => {
    const href = safeLinkUrl(attrs.href);
    return href ? `${attrs.text}: ${href}` : attrs.text;
  },
  slash: [
    {
      id: 'button',
      title: 'Button',
      description: 'A call-to-action link button',
      keywords: ['button', 'cta', 'link', 'action'],
      icon: ICONS.button,
      run: (host, from, to) =>
        insertBlock(host, from, to, host.view.state.schema.nodes.button!.create(host.branded('button'))),
    },
  ],
});
