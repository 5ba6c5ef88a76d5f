import { a } from '../../model/attrs.js';
import { rgb } from '../../render/contrast.js';
import { TABLE } from '../../render/styles.js';
import { ICONS } from '../../ui/icons.js';
import { insertBlock } from '../commands.js';
import { defineBlock, domMarker, htmlMarker, markerRule } from '../define.js';

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
export const divider = defineBlock({
  name: 'divider',
  attrs: ATTRS,
  inspect: true,
  colors: { color: 'bg' },
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('divider', ATTRS), { tag: 'hr' }],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('divider', ATTRS, node.attrs),
        class: 'sv-divider',
        style: `padding:${node.attrs.spacing}px 0`,
      },
      ['hr', { style: `border:0;border-top:${node.attrs.thickness}px solid ${node.attrs.color};margin:0` }],
    ],
  },
  // A grey rule takes the dark border colour in dark mode (`sv-hr`), where light grey would
  // glare; a coloured one (the brand's) keeps its colour.
  render: (_node, attrs) =>
    `${TABLE}${htmlMarker('divider', ATTRS, attrs)}><tr><td style="padding:${attrs.spacing}px 0">${TABLE}><tr><td${isGrey(attrs.color) ? ' class="sv-hr"' : ''} style="border-top:${attrs.thickness}px solid ${attrs.color};font-size:1px;line-height:1px;mso-line-height-rule:exactly">&nbsp;</td></tr></table></td></tr></table>`,
  text: () => '----------',
  slash: [
    {
      id: 'divider',
      group: 'Layout',
      title: 'Divider',
      description: 'A horizontal line',
      keywords: ['divider', 'hr', 'line', 'separator', 'rule'],
      icon: ICONS.divider,
      run: (host, from, to) => insertBlock(host, from, to, host.view.state.schema.nodes.divider!.create()),
    },
  ],
});
