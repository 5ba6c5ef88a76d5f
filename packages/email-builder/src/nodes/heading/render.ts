import { a } from '../../model/attrs.js';
import { alignStyle, textStyle } from '../../primitives/styles.js';
import { defineRendering } from '../rendering.js';

/** Font size and line height of each heading level. */
const SIZES: Record<number, [number, number]> = { 1: [30, 1.25], 2: [24, 1.3], 3: [20, 1.35] };

/** Headings 1–3. */
export const headingRendering = defineRendering({
  name: 'heading',
  attrs: { level: a.number(1, 1, 3, 'Level', ''), textAlign: a.align() },
  render: (node, attrs, ctx) => {
    const [size, lh] = SIZES[attrs.level] ?? [30, 1.25];
    const tag = `h${attrs.level}`;
    const inner = ctx.inline(node.content) || '&nbsp;';
    return `<${tag} class="sv-t" style="${textStyle(size, lh, ctx.flushEnd ? '0' : '0 0 12px')};font-weight:700${alignStyle(attrs.textAlign)}">${inner}</${tag}>`;
  },
  text: (node, _attrs, ctx) => ctx.inline(node.content),
});
