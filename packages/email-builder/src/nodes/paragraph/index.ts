import { setBlockType } from 'prosemirror-commands';
import { Fragment } from 'prosemirror-model';
import { a } from '../../model/attrs.js';
import { alignStyle, textStyle } from '../../render/styles.js';
import { ICONS } from '../../ui/icons.js';
import { toTextBlock } from '../commands.js';
import { alignFrom, defineBlock } from '../define.js';

/** A paragraph. An empty one renders as a blank line (`&nbsp;`), so deliberate gaps survive. */
export const paragraph = defineBlock({
  name: 'paragraph',
  attrs: { textAlign: a.align() },
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
  render: (node, attrs, ctx) => {
    const margin = ctx.listDepth > 0 || ctx.flushEnd ? '0' : '0 0 16px';
    return `<p class="sv-t" style="${textStyle(16, 1.6, margin)}${alignStyle(attrs.textAlign)}">${ctx.inline(node.content) || '&nbsp;'}</p>`;
  },
  text: (node, _attrs, ctx) => ctx.inline(node.content),
  slash: [
    {
      id: 'text',
      group: 'Text',
      title: 'Text',
      description: 'Plain paragraph',
      keywords: ['paragraph', 'p', 'body', 'plain'],
      icon: ICONS.text,
      run: (host, from, to) => toTextBlock(host, from, to, 'paragraph'),
    },
  ],
});
