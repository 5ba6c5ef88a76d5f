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
      { ...domMarker('repeat', repeatRendering.attrs, node.attrs), class: 'sv-repeat' },
      0,
    ],
  },
});
