import { keymap } from 'prosemirror-keymap';
import { type Command, NodeSelection, Plugin } from 'prosemirror-state';
import { cursorAfterBlock } from '../nodes/commands.js';

/**
 * A whole block with no text of its own (a button, an image, a divider, a footer) selected as a
 * node: the state after clicking it, or after the arrow keys reach it.
 */
function selectedAtomBlock(selection: unknown): NodeSelection | null {
  return selection instanceof NodeSelection && selection.node.isBlock && selection.node.isAtom
    ? selection
    : null;
}

/** Enter on a selected block atom opens a paragraph after it (ProseMirror's default puts it above a first block). */
const enterAfter: Command = (state, dispatch) => {
  const selected = selectedAtomBlock(state.selection);
  if (!selected) return false;
  const tr = cursorAfterBlock(state.tr, selected.to);
  if (!tr) return false;
  dispatch?.(tr.scrollIntoView());
  return true;
};

/**
 * ArrowDown (or ArrowRight) on a selected block atom with nothing after it in its container (the
 * last block of the email or of a column) makes the paragraph to write in, where the default
 * would stop at a thin gap cursor; with a block after it, the default moves on.
 */
const leaveLast: Command = (state, dispatch) => {
  const selected = selectedAtomBlock(state.selection);
  if (!selected || state.doc.resolve(selected.to).nodeAfter) return false;
  const tr = cursorAfterBlock(state.tr, selected.to);
  if (!tr) return false;
  dispatch?.(tr.scrollIntoView());
  return true;
};

/**
 * How the keyboard gets past blocks without text, as in Notion: Enter and the arrow keys lead
 * to a paragraph after a selected button or image, and typing while one is selected writes in a
 * new paragraph after it instead of replacing it (ProseMirror replaces a node selection with the
 * typed text, so the first key after inserting a button deleted it). Backspace and Delete still
 * remove the selected block, as everywhere.
 */
export function blockAtomInput(): Plugin[] {
  return [
    keymap({ Enter: enterAfter, ArrowDown: leaveLast, ArrowRight: leaveLast }),
    new Plugin({
      props: {
        handleTextInput(view, _from, _to, text) {
          const selected = selectedAtomBlock(view.state.selection);
          if (!selected) return false;
          const tr = cursorAfterBlock(view.state.tr, selected.to);
          if (!tr) return false;
          view.dispatch(tr.insertText(text).scrollIntoView());
          return true;
        },
      },
    }),
  ];
}
