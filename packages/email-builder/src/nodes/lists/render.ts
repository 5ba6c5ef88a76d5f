import { a } from '../../model/attrs.js';
import type { JSONNode } from '../../model/types.js';
import { flowBox, TEXT, textStyle } from '../../primitives/styles.js';
import { defineRendering, type RenderContext, type TextContext } from '../rendering.js';

// The indent is on the side where lines start, where the bullets hang: the left, or the right
// in a right-to-left document (a left indent there leaves the bullets in the right margin).
const listStyle = (ctx: RenderContext) =>
  `margin:${ctx.listDepth > 0 ? '4px 0 0' : ctx.flushEnd ? '0' : '0 0 16px'};padding:${flowBox(ctx.settings.dir, '0', '0', '0', '24px')};color:${TEXT}`;

function listText(node: JSONNode, ctx: TextContext, ordered: boolean, start = 1): string {
  const indent = '  '.repeat(ctx.listDepth);
  return (node.content ?? [])
    .map((item, i) => {
      const bullet = ordered ? `${start + i}.` : '-';
      const body = ctx.blocks(item.content, ctx.listDepth + 1);
      return `${indent}${bullet} ${body.trimStart()}`;
    })
    .join('\n');
}

/** A bulleted list; lists nest inside list items. */
export const bulletListRendering = defineRendering({
  name: 'bulletList',
  attrs: {},
  render: (node, _attrs, ctx) =>
    `<ul style="${listStyle(ctx)}">${ctx.blocks(node.content, { listDepth: ctx.listDepth + 1, flushEnd: ctx.flushEnd })}</ul>`,
  text: (node, _attrs, ctx) => listText(node, ctx, false),
});

/** A numbered list with an optional start number. */
export const orderedListRendering = defineRendering({
  name: 'orderedList',
  attrs: { start: a.number(1, 1, 9999, 'Start', '') },
  render: (node, attrs, ctx) => {
    const start = attrs.start === 1 ? '' : ` start="${attrs.start}"`;
    return `<ol${start} style="${listStyle(ctx)}">${ctx.blocks(node.content, { listDepth: ctx.listDepth + 1, flushEnd: ctx.flushEnd })}</ol>`;
  },
  text: (node, attrs, ctx) => listText(node, ctx, true, attrs.start),
});

/** A list item: a paragraph, then more paragraphs or nested lists. */
export const listItemRendering = defineRendering({
  name: 'listItem',
  attrs: {},
  render: (node, _attrs, ctx) =>
    `<li class="sv-t" style="${textStyle(16, 1.6, ctx.flushEnd ? '0' : '0 0 4px')}">${ctx.blocks(node.content, { listDepth: ctx.listDepth, flushEnd: ctx.flushEnd })}</li>`,
  text: (node, _attrs, ctx) => ctx.blocks(node.content, ctx.listDepth),
});
