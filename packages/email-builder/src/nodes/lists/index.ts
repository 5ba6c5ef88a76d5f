import { wrappingInputRule } from 'prosemirror-inputrules';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import { wrapBlock } from '../commands.js';
import { defineBlock } from '../define.js';
import { bulletListRendering, listItemRendering, orderedListRendering } from './render.js';

/** A bulleted list in the editor: "- " or "* " starts one. */
export const bulletList = defineBlock({
  ...bulletListRendering,
  inputRules: (type) => [wrappingInputRule(/^\s*([-*])\s$/, type)],
  spec: {
    content: 'listItem+',
    group: 'block inner list',
    parseDOM: [{ tag: 'ul' }],
    toDOM: () => ['ul', 0],
  },
  slash: [
    {
      id: 'bulletList',
      group: 'Text',
      title: 'Bulleted list',
      description: 'A simple list with bullets',
      keywords: ['ul', 'unordered', 'bullet', 'list', 'points'],
      icon: 'bullet',
      run: (host, from, to) => wrapBlock(host, from, to, 'bulletList'),
    },
  ],
});

/** A numbered list in the editor. */
export const orderedList = defineBlock({
  ...orderedListRendering,
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
  slash: [
    {
      id: 'orderedList',
      group: 'Text',
      title: 'Numbered list',
      description: 'A list with numbers',
      keywords: ['ol', 'ordered', 'numbered', 'list', 'steps'],
      icon: 'ordered',
      run: (host, from, to) => wrapBlock(host, from, to, 'orderedList'),
    },
  ],
});

/** A list item in the editor: Enter splits it, Tab nests it, Shift-Tab lifts it out. */
export const listItem = defineBlock({
  ...listItemRendering,
  keys: (type) => ({ Enter: splitListItem(type), Tab: sinkListItem(type), 'Shift-Tab': liftListItem(type) }),
  spec: {
    content: 'paragraph (paragraph | list)*',
    defining: true,
    parseDOM: [{ tag: 'li' }],
    toDOM: () => ['li', 0],
  },
});
