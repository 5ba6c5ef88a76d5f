// A custom block written outside the package, as a host would: a product card with an image,
// a name, a price and a buy button. Its rendering is product-card-rendering.mjs; this module
// adds the editing half. It goes to the editor (`blocks` option), to
// `renderEmail`/`renderText`/`checkDocument` wherever documents are rendered or checked, and to
// the service (`EDITOR_BLOCKS=packages/email-builder/docs/examples/product-card.mjs`). See docs/custom-blocks.md.
import { defineBlock, domMarker, insertBlock, markerRule } from '@service/email-builder';
import { productCardRendering } from './product-card-rendering.mjs';

const ICON =
  '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M6 2 3 6v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6l-3-4z"/><path d="M3 6h18M16 10a4 4 0 0 1-8 0"/></svg>';

export const productCard = defineBlock({
  ...productCardRendering,
  // the settings form lists every attribute
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    // `getHTML()` and copy/paste come back as the same block, attributes and all
    parseDOM: [markerRule('productCard', productCardRendering.attrs)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('productCard', productCardRendering.attrs, node.attrs),
        class: 'product-card',
        style: 'text-align:center',
      },
      ['strong', {}, node.attrs.title],
      ' · ',
      ['span', {}, node.attrs.price],
    ],
  },
  slash: [
    {
      id: 'productCard',
      title: 'Product card',
      description: 'An image, a name, a price and a buy button',
      keywords: ['product', 'shop', 'price', 'card'],
      group: 'Media',
      icon: ICON,
      run: (host, from, to) =>
        insertBlock(
          host,
          from,
          to,
          host.view.state.schema.nodes.productCard.create(host.branded('productCard')),
        ),
    },
  ],
});

/** What the editor's `blocks` option and `EDITOR_BLOCKS` read. */
export const blocks = [productCard];
