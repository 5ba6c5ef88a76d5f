import { a } from '../../model/attrs.js';
import { imageHtml } from '../../render/image.js';
import { TABLE } from '../../render/styles.js';
import { safeImageUrl, safeLinkUrl } from '../../render/url.js';
import { ICONS } from '../../ui/icons.js';
import { insertBlock } from '../commands.js';
import { alignFrom, defineBlock, domMarker, htmlMarker, markerRule } from '../define.js';
import { imageView } from './view.js';

/** The image attributes; `width` is a percentage of the space the image sits in. */
export const IMAGE_ATTRS = {
  src: a.image('Image'),
  alt: a.text('', 'Alt text (describe the image)', 300),
  href: a.link(),
  width: a.number(100, 10, 100, 'Width', '%', 5),
  align: a.align('center'),
  borderRadius: a.number(0, 0, 40, 'Corner radius'),
  darkSrc: a.image('Dark-mode image'),
};

/** An image: uploaded or by URL, with alt text, link, width, alignment, radius, dark-mode source. */
export const image = defineBlock({
  name: 'image',
  attrs: IMAGE_ATTRS,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [
      markerRule('image', IMAGE_ATTRS),
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
        ...domMarker('image', IMAGE_ATTRS, node.attrs),
        class: 'sv-image',
        style: `text-align:${node.attrs.align}`,
      },
      ['img', { src: node.attrs.src, alt: node.attrs.alt, style: `width:${node.attrs.width}%` }],
    ],
  },
  // without a picture the block renders nothing: listed, and shown on the block (view.ts)
  problems: (attrs) => (safeImageUrl(attrs.src) ? [] : ['SEB_PROBLEM_NO_IMAGE']),
  render: (_node, attrs, ctx) => {
    const html = imageHtml({
      src: attrs.src,
      darkSrc: attrs.darkSrc,
      alt: attrs.alt,
      href: attrs.href,
      width: Math.round((ctx.width * attrs.width) / 100),
      align: attrs.align,
      radius: attrs.borderRadius,
    });
    if (!html) return '';
    return `${TABLE}${htmlMarker('image', IMAGE_ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:${ctx.flushEnd ? '0' : '0 0 16px'}">${html}</td></tr></table>`;
  },
  text: (_node, attrs) => {
    if (!attrs.src) return '';
    const href = safeLinkUrl(attrs.href);
    return `[${attrs.alt || 'Image'}]${href ? ` (${href})` : ''}`;
  },
  view: imageView,
  slash: [
    {
      id: 'image',
      group: 'Media',
      title: 'Image',
      description: 'Upload an image or embed one by URL',
      keywords: ['image', 'picture', 'photo', 'img', 'upload', 'banner'],
      icon: ICONS.image,
      run: (host, from, to) => insertBlock(host, from, to, host.view.state.schema.nodes.image!.create()),
    },
  ],
});
