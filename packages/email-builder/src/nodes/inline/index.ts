import { chainCommands } from 'prosemirror-commands';
import { defineBlock } from '../define.js';

/** Text. Its HTML comes from the inline renderer, which escapes it and applies marks. */
export const text = defineBlock({
  name: 'text',
  attrs: {},
  spec: { group: 'inline' },
  render: () => '',
  text: (node) => node.text ?? '',
});

/** A hard line break (Shift+Enter): `<br>` in the email; the original product dropped these. */
export const hardBreak = defineBlock({
  name: 'hardBreak',
  attrs: {},
  spec: {
    inline: true,
    group: 'inline',
    selectable: false,
    parseDOM: [{ tag: 'br' }],
    toDOM: () => ['br'],
  },
  keys: (type) => {
    const insert = chainCommands((state, dispatch) => {
      dispatch?.(state.tr.replaceSelectionWith(type.create()).scrollIntoView());
      return true;
    });
    return { 'Shift-Enter': insert, 'Mod-Enter': insert };
  },
  render: () => '<br>',
  text: () => '\n',
});
