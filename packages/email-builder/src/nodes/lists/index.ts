import { wrappingInputRule } from 'prosemirror-inputrules';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import { a } from '../../model/attrs.js';
import type { JSONNode } from '../../model/types.js';
import { flowBox, TEXT, textStyle } from '../../render/styles.js';
import { ICONS } from '../../ui/icons.js';
import { wrapBlock } from '../commands.js';
import { defineBlock, type RenderContext, type TextContext } from '../define.js';

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
export const bulletList = defineBlock({
  name: 'bulletList',
  attrs: {},
  inputRules: (type) => [wrappingInputRule(/^\s*([-*])\s$/, type)],
  spec: {
    content: 'listItem+',
    group: 'block inner list',
    parseDOM: [{ tag: 'ul' }],
    toDOM: () => ['ul', 0],
  },
  render: (node, _attrs, ctx) =>
    `<ul style="${listStyle(ctx)}">${ctx.blocks(node.content, { listDepth: ctx.listDepth + 1, flushEnd: ctx.flushEnd })}</ul>`,
  text: (node, _attrs, ctx) => listText(node, ctx, false),
  slash: [
    {
      id: 'bulletList',
      group: 'Text',
      title: 'Bulleted list',
      description: 'A simple list with bullets',
      keywords: ['ul', 'unordered', 'bullet', 'list', 'points'],
      icon: ICONS.bullet,
      run: (host, from, to) => wrapBlock(host, from, to, 'bulletList'),
    },
  ],
});

/** A numbered list with an optional start number. */
export const orderedList = defineBlock({
  name: 'orderedList',
  attrs: { start: a.number(1, 1, 9999, 'Start', '') },
  // "1. " starts a list at 1; "3. " at 3
  inputRules: (type) => [
    wrappingInputRule(
      /^(\d+)\.\s$/,
      type,
      (match) => ({ start: Number(match[1]) }),
      (match, node) => node.childCount + node.attrs.start === Number(match[1]),
    ),
  ],
  spec: {
    content: 'listItem+',
    group: 'block inner list',
    parseDOM: [
      {
        tag: 'ol',
        getAttrs: (dom) => ({ start: Number((dom as HTMLElement).getAttribute('start') ?? 1) || 1 }),
      },
    ],
    toDOM: (node) => ['ol', node.attrs.start === 1 ? {} : { start: node.attrs.start }, 0],
  },
  render: (node, attrs, ctx) => {
    const start = attrs.start === 1 ? '' : ` start="${attrs.start}"`;
    return `<ol${start} style="${listStyle(ctx)}">${ctx.blocks(node.content, { listDepth: ctx.listDepth + 1, flushEnd: ctx.flushEnd })}</ol>`;
  },
  text: (node, attrs, ctx) => listText(node, ctx, true, attrs.start),
  slash: [
    {
      id: 'orderedList',
      group: 'Text',
      title: 'Numbered list',
      description: 'A list with numbers',
      keywords: ['ol', 'ordered', 'numbered', 'list', 'steps'],
      icon: ICONS.ordered,
      run: (host, from, to) => wrapBlock(host, from, to, 'orderedList'),
    },
  ],
});

/** A list item: a paragraph, then more paragraphs or nested lists. */
export const listItem = defineBlock({
  name: 'listItem',
  attrs: {},
  keys: (type) => ({ Enter: splitListItem(type), Tab: sinkListItem(type), 'Shift-Tab': liftListItem(type) }),
  spec: {
    content: 'paragraph (paragraph | list)*',
    defining: true,
    parseDOM: [{ tag: 'li' }],
    toDOM: () => ['li', 0],
  },
  render: (node, _attrs, ctx) =>
    `<li class="sv-t" style="${textStyle(16, 1.6, ctx.flushEnd ? '0' : '0 0 4px')}">${ctx.blocks(node.content, { listDepth: ctx.listDepth, flushEnd: ctx.flushEnd })}</li>`,
  text: (node, _attrs, ctx) => ctx.blocks(node.content, ctx.listDepth),
});
