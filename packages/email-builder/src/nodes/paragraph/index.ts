import { setBlockType } from 'prosemirror-commands';
import { Fragment } from 'prosemirror-model';
import { toTextBlock } from '../commands.js';
import { alignFrom, defineBlock } from '../define.js';
import { paragraphRendering } from './render.js';

/** A paragraph in the editor, the default block. */
export const paragraph = defineBlock({
  ...paragraphRendering,
  // settings (alignment, and the condition any block may carry: issue 38), from the block menu
  inspect: true,
  keys: (type) => ({ 'Mod-Alt-0': setBlockType(type) }),
  spec: {
    content: 'inline*',
    group: 'block inner',
    parseDOM: [
      // the blank line an empty paragraph renders as comes back empty, not as a space
      {
        tag: 'p',
        priority: 60,
        getAttrs: (dom) =>
          dom.childElementCount === 0 && dom.textContent === '\u00a0'
            ? { textAlign: alignFrom(dom as HTMLElement) }
            : false,
        getContent: () => Fragment.empty,
      },
      { tag: 'p', getAttrs: (dom) => ({ textAlign: alignFrom(dom as HTMLElement) }) },
    ],
    toDOM: (node) => [
      'p',
      node.attrs.textAlign === 'left' ? {} : { style: `text-align:${node.attrs.textAlign}` },
      0,
    ],
  },
  slash: [
    {
      id: 'text',
      group: 'Text',
      title: 'Text',
      description: 'Plain paragraph',
      keywords: ['paragraph', 'p', 'body', 'plain'],
      icon: 'text',
      run: (host, from, to) => toTextBlock(host, from, to, 'paragraph'),
    },
  ],
});
