import { setBlockType } from 'prosemirror-commands';
import { textblockTypeInputRule } from 'prosemirror-inputrules';
import { toTextBlock } from '../commands.js';
import { alignFrom, defineBlock, type SlashItem } from '../define.js';
import { headingRendering } from './render.js';

const slash = ([1, 2, 3] as const).map(
  (level): SlashItem => ({
    id: `h${level}`,
    group: 'Text',
    title: `Heading ${level}`,
    description: ['Large section title', 'Medium section title', 'Small section title'][level - 1]!,
    keywords: ['heading', 'title', `h${level}`, ['large', 'medium', 'small'][level - 1]!],
    icon: `h${level}`,
    run: (host, from, to) => toTextBlock(host, from, to, 'heading', { level }),
  }),
);

/** Headings 1–3 in the editor (pasted h4–h6 become level 3). */
export const heading = defineBlock({
  ...headingRendering,
  // settings (level, alignment, and the condition any block may carry: issue 38), from the block menu
  inspect: true,
  keys: (type) => ({
    'Mod-Alt-1': setBlockType(type, { level: 1 }),
    'Mod-Alt-2': setBlockType(type, { level: 2 }),
    'Mod-Alt-3': setBlockType(type, { level: 3 }),
  }),
  // "# ", "## " or "### " at the start of a paragraph
  inputRules: (type) => [
    textblockTypeInputRule(/^(#{1,3})\s$/, type, (match) => ({ level: match[1]!.length })),
  ],
  spec: {
    content: 'inline*',
    group: 'block inner',
    defining: true,
    parseDOM: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag, i) => ({
      tag,
      getAttrs: (dom: HTMLElement) => ({ level: Math.min(3, i + 1), textAlign: alignFrom(dom) }),
    })),
    toDOM: (node) => [
      `h${node.attrs.level}`,
      node.attrs.textAlign === 'left' ? {} : { style: `text-align:${node.attrs.textAlign}` },
      0,
    ],
  },
  slash,
});
