import { wrappingInputRule } from 'prosemirror-inputrules';
import { wrapBlock } from '../commands.js';
import { defineBlock } from '../define.js';
import { blockquoteRendering } from './render.js';

/** The quote in the editor: "> " or the slash menu wraps the current block in it. */
export const blockquote = defineBlock({
  ...blockquoteRendering,
  inputRules: (type) => [wrappingInputRule(/^\s*>\s$/, type)],
  spec: {
    content: '(paragraph | heading | list)+',
    group: 'block inner',
    defining: true,
    parseDOM: [{ tag: 'blockquote' }],
    toDOM: () => ['blockquote', 0],
  },
  slash: [
    {
      id: 'quote',
      group: 'Text',
      title: 'Quote',
      description: 'Set a passage apart',
      keywords: ['blockquote', 'quote', 'citation', 'testimonial'],
      icon: 'quote',
      run: (host, from, to) => wrapBlock(host, from, to, 'blockquote'),
    },
  ],
});
