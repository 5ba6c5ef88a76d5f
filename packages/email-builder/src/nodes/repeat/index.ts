import { insertBlock } from '../commands.js';
import { defineBlock } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { repeatRendering } from './render.js';

/**
 * The repeat in the editor: a framed box holding the blocks repeated for each item of a list.
 * Its settings name the list, the empty state and the most items shown.
 */
export const repeat = defineBlock({
  ...repeatRendering,
  inspect: true,
  spec: {
    content: 'block+',
    group: 'block',
    defining: true,
    parseDOM: [markerRule('repeat', repeatRendering.attrs)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('repeat', repeatRendering.attrs, node.attrs),
        class: 'sv-repeat',
        'data-sv-each': String(node.attrs.each),
      },
      0,
    ],
  },
  slash: [
    {
      id: 'repeat',
      group: 'Variables',
      title: 'Repeat',
      description: 'Blocks shown once for each item of a list',
      keywords: ['repeat', 'each', 'loop', 'items', 'array'],
      icon: 'columns',
      run: (host, from, to) => {
        const { schema } = host.view.state;
        const item = schema.nodes.variable!.create({ name: 'item.name' });
        const first = schema.nodes.paragraph!.create(null, item);
        insertBlock(host, from, to, schema.nodes.repeat!.create(null, first));
      },
    },
  ],
});
