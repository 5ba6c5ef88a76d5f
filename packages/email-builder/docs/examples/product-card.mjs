// A custom block written outside the package, as a host would: a product card with an image,
// a name, a price and a buy button. The same module goes to the editor (`blocks` option), to
// `renderEmail`/`renderText`/`checkDocument` wherever documents are rendered or checked, and to
// the service (`EDITOR_BLOCKS=packages/email-builder/docs/examples/product-card.mjs`). See docs/custom-blocks.md.
import {
  attr,
  defineBlock,
  domMarker,
  emailButton,
  emailImage,
  escapeHtml,
  htmlMarker,
  insertBlock,
  markerRule,
  TABLE,
  textStyle,
} from '@service/email-builder';

const ATTRS = {
  image: attr.image('Product image'),
  title: attr.text('Product name', 'Name', 120),
  price: attr.text('$0.00', 'Price', 40),
  href: attr.link('Product link'),
  buttonText: attr.text('Buy now', 'Button text', 60),
  buttonColor: attr.color('#18181b', 'Button colour'),
};

const ICON =
  '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M6 2 3 6v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6l-3-4z"/><path d="M3 6h18M16 10a4 4 0 0 1-8 0"/></svg>';

export const productCard = defineBlock({
  name: 'productCard',
  attrs: ATTRS,
  // the settings form lists every attribute above
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    // `getHTML()` and copy/paste come back as the same block, attributes and all
    parseDOM: [markerRule('productCard', ATTRS)],
    toDOM: (node) => [
      'div',
      { ...domMarker('productCard', ATTRS, node.attrs), class: 'product-card', style: 'text-align:center' },
      ['strong', {}, node.attrs.title],
      ' · ',
      ['span', {}, node.attrs.price],
    ],
  },
  // Email HTML: escaped text, a responsive image, and a button with its Outlook (VML) form.
  render: (_node, attrs, ctx) =>
    `${TABLE}${htmlMarker('productCard', ATTRS, attrs)}><tr><td align="center" style="padding:0 0 20px">` +
    emailImage({ src: attrs.image, alt: attrs.title, width: Math.min(ctx.width, 280), align: 'center' }) +
    `<p class="sv-t" style="${textStyle(18, 1.4, '12px 0 4px')};font-weight:700">${escapeHtml(attrs.title)}</p>` +
    `<p class="sv-t" style="${textStyle(16, 1.4, '0 0 12px')}">${escapeHtml(attrs.price)}</p>` +
    emailButton(
      {
        text: attrs.buttonText,
        href: attrs.href,
        backgroundColor: attrs.buttonColor,
        textColor: '#ffffff',
        borderRadius: 6,
      },
      ctx.width,
    ) +
    '</td></tr></table>',
  // The plain-text part.
  text: (_node, attrs) =>
    [attrs.title, attrs.price, attrs.href ? `${attrs.buttonText}: ${attrs.href}` : '']
      .filter(Boolean)
      .join('\n'),
  // A card nobody can click is listed by getProblems() before sending.
  problems: (attrs) => (attrs.href ? [] : ['SEB_PROBLEM_NO_LINK']),
  // The button takes the brand colour, and follows it when the brand changes.
  brand: ({ brandColor }) => ({ buttonColor: brandColor }),
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
