// The rendering of the product card (product-card.mjs): its attributes, email HTML, plain text,
// problems and branding, with no editing code. A bundle that only renders (a worker, an edge
// function) imports this module alone and leaves the editor out. See docs/custom-blocks.md.
import {
  attr,
  defineRendering,
  emailButton,
  emailImage,
  escapeHtml,
  htmlMarker,
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

export const productCardRendering = defineRendering({
  name: 'productCard',
  attrs: ATTRS,
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
});

/** What `renderEmail`, `renderText`, `findProblems` and `applyBranding` read where nothing is edited. */
export const renderings = [productCardRendering];
