import { flowBox, textSides } from '../../primitives/styles.js';
import { defineRendering } from '../rendering.js';

/**
 * A quote: a rule on the side where lines start (the left, the right in a right-to-left
 * document) and indented text. Outlook for Windows draws the border too. Its last block leaves
 * no margin under itself, so the rule ends with the text.
 */
export const blockquoteRendering = defineRendering({
  name: 'blockquote',
  attrs: {},
  render: (node, _attrs, ctx) => {
    const dir = ctx.settings.dir;
    const padding = flowBox(dir, '2px', '0', '2px', '16px');
    const border = `border-${textSides(dir).start}:4px solid #d4d4d8`;
    return `<blockquote class="sv-q" style="margin:${ctx.flushEnd ? '0' : '0 0 16px'};padding:${padding};${border}">${ctx.blocks(node.content, { width: ctx.width - 20, flushEnd: true })}</blockquote>`;
  },
  text: (node, _attrs, ctx) =>
    ctx
      .blocks(node.content)
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n'),
});
