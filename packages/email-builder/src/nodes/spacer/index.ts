import { insertBlock } from '../commands.js';
import { defineBlock } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { spacerRendering } from './render.js';

/** The spacer in the editor: an empty box of its height. */
export const spacer = defineBlock({
  ...spacerRendering,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('spacer', spacerRendering.attrs)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('spacer', spacerRendering.attrs, node.attrs),
        class: 'sv-spacer',
        style: `height:${node.attrs.height}px`,
      },
    ],
  },
  slash: [
    {
      id: 'spacer',
      group: 'Layout',
      title: 'Spacer',
      description: 'Empty vertical space',
      keywords: ['spacer', 'space', 'gap', 'padding', 'blank'],
      icon: 'spacer',
      run: (host, from, to) => insertBlock(host, from, to, host.view.state.schema.nodes.spacer!.create()),
    },
  ],
});
