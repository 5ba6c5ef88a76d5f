import { insertBlock } from '../commands.js';
import { defineBlock } from '../define.js';
import { imageView } from '../image/view.js';
import { domMarker, markerRule } from '../marker.js';
import { logoRendering } from './render.js';

/** The logo in the editor: the image's upload form until it has a picture; inserted with the brand's. */
export const logo = defineBlock({
  ...logoRendering,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('logo', logoRendering.attrs)],
    toDOM: (node) => [
      'figure',
      {
        ...domMarker('logo', logoRendering.attrs, node.attrs),
        class: 'sv-image',
        style: `text-align:${node.attrs.align}`,
      },
      ['img', { src: node.attrs.src, alt: node.attrs.alt, style: `width:${node.attrs.width}px` }],
    ],
  },
  view: (node, view, getPos, host) => imageView(node, view, getPos, host),
  slash: [
    {
      id: 'logo',
      group: 'Brand',
      title: 'Logo',
      description: 'Your brand logo, light and dark',
      keywords: ['logo', 'brand', 'header'],
      icon: 'logo',
      run: (host, from, to) =>
        insertBlock(host, from, to, host.view.state.schema.nodes.logo!.create(host.branded('logo'))),
    },
  ],
});
