import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../render/escape.js';
import { FONT } from '../../render/styles.js';
import { ICONS } from '../../ui/icons.js';
import { insertInline } from '../commands.js';
import { type Attrs, defineBlock, domMarker, htmlMarker, markerRule } from '../define.js';

const ATTRS = {
  text: a.text('New', 'Text', 40),
  textColor: a.color('#1d4ed8', 'Text colour'),
  backgroundColor: a.color('#dbeafe', 'Background'),
};

const style = (attrs: Attrs) =>
  `display:inline-block;padding:2px 10px;border-radius:999px;background-color:${attrs.backgroundColor};color:${attrs.textColor};font-family:${FONT};font-size:12px;font-weight:700;line-height:18px;letter-spacing:.02em`;

/** An inline pill label ("New", "Sale") inside text. */
export const badge = defineBlock({
  name: 'badge',
  attrs: ATTRS,
  inspect: true,
  // the label sits on the badge's tint, not on white
  colors: { backgroundColor: 'bg', textColor: 'textOnTint' },
  spec: {
    inline: true,
    group: 'inline',
    atom: true,
    parseDOM: [markerRule('badge', ATTRS)],
    toDOM: (node) => [
      'span',
      { ...domMarker('badge', ATTRS, node.attrs), class: 'sv-badge', style: style(node.attrs) },
      node.attrs.text,
    ],
  },
  render: (_node, attrs) =>
    `<span${htmlMarker('badge', ATTRS, attrs)} style="${style(attrs)}">${escapeHtml(attrs.text)}</span>`,
  text: (_node, attrs) => `[${attrs.text}]`,
  slash: [
    {
      id: 'badge',
      group: 'Text',
      title: 'Badge',
      description: 'A small pill label inside text',
      keywords: ['badge', 'label', 'tag', 'pill', 'new'],
      icon: ICONS.badge,
      run: (host, from, to) => insertInline(host, from, to, host.view.state.schema.nodes.badge!.create()),
    },
  ],
});
