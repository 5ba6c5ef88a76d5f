import { type ButtonParts, buttonFaceStyle } from '../../primitives/button.js';
import { insertBlock } from '../commands.js';
import { defineBlock } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { buttonRendering } from './render.js';

/** The button in the editor: its face as the email shows it, its settings in the form. */
export const button = defineBlock({
  ...buttonRendering,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('button', buttonRendering.attrs)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('button', buttonRendering.attrs, node.attrs),
        class: 'sv-button',
        style: `text-align:${node.attrs.align}`,
      },
      [
        'span',
        { class: 'sv-button-face', style: buttonFaceStyle(node.attrs as ButtonParts) },
        node.attrs.text || ' ',
      ],
    ],
  },
  slash: [
    {
      id: 'button',
      group: 'Media',
      title: 'Button',
      description: 'A call-to-action link button',
      keywords: ['button', 'cta', 'link', 'action'],
      icon: 'button',
      run: (host, from, to) =>
        insertBlock(host, from, to, host.view.state.schema.nodes.button!.create(host.branded('button'))),
    },
  ],
});
