import { chainCommands } from 'prosemirror-commands';
import { defineBlock } from '../define.js';
import { hardBreakRendering, textRendering } from './render.js';

/** Text in the editor: ProseMirror's own text node, in the inline group. */
export const text = defineBlock({ ...textRendering, spec: { group: 'inline' } });

/** A hard line break in the editor: Shift+Enter (or Mod+Enter) inserts it; a pasted `<br>` is one. */
export const hardBreak = defineBlock({
  ...hardBreakRendering,
  spec: {
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
});
