import { a } from '../../model/attrs.js';
import { alignStyle, textStyle } from '../../primitives/styles.js';
import { defineRendering } from '../rendering.js';

/** A paragraph. An empty one renders as a blank line (`&nbsp;`), so deliberate gaps survive. */
export const paragraphRendering = defineRendering({
  name: 'paragraph',
  attrs: { textAlign: a.align() },
  render: (node, attrs, ctx) => {
    const margin = ctx.listDepth > 0 || ctx.flushEnd ? '0' : '0 0 16px';
    return `<p class="sv-t" style="${textStyle(16, 1.6, margin)}${alignStyle(attrs.textAlign)}">${ctx.inline(node.content) || '&nbsp;'}</p>`;
  },
  text: (node, _attrs, ctx) => ctx.inline(node.content),
});
