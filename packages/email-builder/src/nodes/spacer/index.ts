import { a } from '../../model/attrs.js';
import { TABLE } from '../../render/styles.js';
import { ICONS } from '../../ui/icons.js';
import { insertBlock } from '../commands.js';
import { defineBlock, domMarker, htmlMarker, markerRule } from '../define.js';

const ATTRS = { height: a.number(32, 8, 160, 'Height', 'px', 4) };

/**
 * Vertical space. Outlook for Windows collapses empty cells and ignores `height` on them, so the
 * cell holds `&nbsp;` with an exact line height equal to the space.
 */
export const spacer = defineBlock({
  name: 'spacer',
  attrs: ATTRS,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('spacer', ATTRS)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('spacer', ATTRS, node.attrs),
        class: 'sv-spacer',
        style: `height:${node.attrs.height}px`,
      },
    ],
  },
  render: (_node, attrs) =>
    `${TABLE}${htmlMarker('spacer', ATTRS, attrs)}><tr><td style="height:${attrs.height}px;font-size:1px;line-height:${attrs.height}px;mso-line-height-rule:exactly">&nbsp;</td></tr></table>`,
  text: () => '',
  slash: [
    {
      id: 'spacer',
      group: 'Layout',
      title: 'Spacer',
      description: 'Empty vertical space',
      keywords: ['spacer', 'space', 'gap', 'padding', 'blank'],
      icon: ICONS.spacer,
      run: (host, from, to) => insertBlock(host, from, to, host.view.state.schema.nodes.spacer!.create()),
    },
  ],
});
