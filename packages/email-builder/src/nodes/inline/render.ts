import { defineRendering } from '../rendering.js';

/** Text. Its HTML comes from the inline renderer, which escapes it and applies marks. */
export const textRendering = defineRendering({
  name: 'text',
  attrs: {},
  render: () => '',
  text: (node) => node.text ?? '',
});

/** A hard line break (Shift+Enter): `<br>` in the email; the original product dropped these. */
export const hardBreakRendering = defineRendering({
  name: 'hardBreak',
  attrs: {},
  inline: true,
  render: () => '<br>',
  text: () => '\n',
});
