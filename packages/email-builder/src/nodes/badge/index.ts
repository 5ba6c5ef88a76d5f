import { insertInline } from '../commands.js';
import { defineBlock } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { badgeRendering, badgeStyle } from './render.js';

/** The badge in the editor: an atom in text, its settings in the form. */
export const badge = defineBlock({
  ...badgeRendering,
  inspect: true,
  spec: {
    group: 'inline',
    atom: true,
    parseDOM: [markerRule('badge', badgeRendering.attrs)],
    toDOM: (node) => [
      'span',
      {
        ...domMarker('badge', badgeRendering.attrs, node.attrs),
        class: 'sv-badge',
        style: badgeStyle(node.attrs),
      },
      node.attrs.text,
    ],
  },
  slash: [
    {
      id: 'badge',
      group: 'Text',
      title: 'Badge',
      description: 'A small pill label inside text',
      keywords: ['badge', 'label', 'tag', 'pill', 'new'],
      icon: 'badge',
      run: (host, from, to) => insertInline(host, from, to, host.view.state.schema.nodes.badge!.create()),
    },
  ],
});
