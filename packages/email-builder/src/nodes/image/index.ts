import { safeImageUrl } from '../../primitives/url.js';
import { insertBlock } from '../commands.js';
import { alignFrom, defineBlock } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { imageRendering } from './render.js';
import { imageView } from './view.js';

/** The image in the editor: an upload form until it has a picture (view.ts); pasted `<img>` too. */
export const image = defineBlock({
  ...imageRendering,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [
      markerRule('image', imageRendering.attrs),
      {
        tag: 'img[src]',
        getAttrs: (dom) => {
          const el = dom as HTMLImageElement;
          const src = safeImageUrl(el.getAttribute('src'));
          if (!src) return false;
          return { src, alt: el.getAttribute('alt') ?? '', align: alignFrom(el.parentElement ?? el) };
        },
      },
    ],
    toDOM: (node) => [
      'figure',
      {
        ...domMarker('image', imageRendering.attrs, node.attrs),
        class: 'sv-image',
        style: `text-align:${node.attrs.align}`,
      },
      ['img', { src: node.attrs.src, alt: node.attrs.alt, style: `width:${node.attrs.width}%` }],
    ],
  },
  view: imageView,
  slash: [
    {
      id: 'image',
      group: 'Media',
      title: 'Image',
      description: 'Upload an image or embed one by URL',
      keywords: ['image', 'picture', 'photo', 'img', 'upload', 'banner'],
      icon: 'image',
      run: (host, from, to) => insertBlock(host, from, to, host.view.state.schema.nodes.image!.create()),
    },
  ],
});
