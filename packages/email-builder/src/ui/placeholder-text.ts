import { Plugin } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';

/** Shows a hint (`data-placeholder`, drawn by the stylesheet) in the empty paragraph that has the cursor. */
export function placeholderText(text: () => string): Plugin {
  return new Plugin({
    props: {
      decorations: (state) => {
        const { $from, empty } = state.selection;
        const parent = $from.parent;
        if (!empty || parent.type.name !== 'paragraph' || parent.content.size > 0) return null;
        const pos = $from.before();
        return DecorationSet.create(state.doc, [
          Decoration.node(pos, pos + parent.nodeSize, { class: 'sv-empty', 'data-placeholder': text() }),
        ]);
      },
    },
  });
}
