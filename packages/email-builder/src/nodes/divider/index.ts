import { insertBlock } from '../commands.js';
import { defineBlock } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { dividerRendering } from './render.js';

/** The divider in the editor: an `<hr>`, which is also what a pasted `<hr>` becomes. */
export const divider = defineBlock({
  ...dividerRendering,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('divider', dividerRendering.attrs), { tag: 'hr' }],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('divider', dividerRendering.attrs, node.attrs),
        class: 'sv-divider',
        style: `padding:${node.attrs.spacing}px 0`,
      },
      ['hr', { style: `border:0;border-top:${node.attrs.thickness}px solid ${node.attrs.color};margin:0` }],
    ],
  },
  slash: [
    {
      id: 'divider',
      group: 'Layout',
      title: 'Divider',
      description: 'A horizontal line',
      keywords: ['divider', 'hr', 'line', 'separator', 'rule'],
      icon: 'divider',
      run: (host, from, to) => insertBlock(host, from, to, host.view.state.schema.nodes.divider!.create()),
    },
  ],
});
