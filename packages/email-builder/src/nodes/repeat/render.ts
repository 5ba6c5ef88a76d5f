import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../primitives/escape.js';
import { isVariableName } from '../../primitives/merge-tags.js';
import { MAX_EACH } from '../../variables/condition-syntax.js';
import { htmlMarker } from '../marker.js';
import { defineRendering } from '../rendering.js';

const ATTRS = {
  each: { ...a.text('items', 'List to repeat (a variable holding a list)', 64), list: true },
  empty: a.text('', 'Shown when the list is empty', 500),
  max: a.number(50, 1, MAX_EACH, 'Most items shown', ''),
};

/** The empty state as a paragraph, so it reads like the text around it. */
const emptyParagraph = (text: string) => [{ type: 'paragraph', content: [{ type: 'text', text }] }];

/**
 * A repeat: its blocks once per item of the list variable `each` (at most `max`), where
 * `{{item.field}}` reads the item; its `empty` text when the list is empty or missing. Written
 * as `{{#each items max=50}}…{{else}}…{{/each}}` (see `variables/condition-syntax.ts`), which
 * `renderTemplate` evaluates. A repeat whose list name is not a variable name shows only its
 * empty state (and `getProblems()` says so).
 */
export const repeatRendering = defineRendering({
  name: 'repeat',
  attrs: ATTRS,
  render: (node, attrs, ctx) => {
    const empty = attrs.empty ? ctx.blocks(emptyParagraph(attrs.empty)) : '';
    const inner = isVariableName(attrs.each)
      ? `${escapeHtml(`{{#each ${attrs.each} max=${attrs.max}}}`)}${ctx.blocks(node.content)}${empty ? `{{else}}${empty}` : ''}{{/each}}`
      : empty;
    return `<div${htmlMarker('repeat', ATTRS, attrs)}>${inner}</div>`;
  },
  text: (node, attrs, ctx) => {
    if (!isVariableName(attrs.each)) return attrs.empty;
    const otherwise = attrs.empty ? `{{else}}${attrs.empty}` : '';
    return `{{#each ${attrs.each} max=${attrs.max}}}\n${ctx.blocks(node.content)}\n\n${otherwise}{{/each}}`;
  },
  problems: (attrs) => (isVariableName(attrs.each) ? [] : ['SEB_PROBLEM_NO_LIST']),
});
