import { keymap } from 'prosemirror-keymap';
import {
  type Command,
  type EditorState,
  NodeSelection,
  type Plugin,
  Selection,
  TextSelection,
  type Transaction,
} from 'prosemirror-state';

/** The position of the top-level block holding the selection (where it starts). */
function currentBlock(state: EditorState): number | null {
  const { $from } = state.selection;
  if ($from.depth === 0) return state.selection instanceof NodeSelection ? state.selection.from : null;
  return $from.before(1);
}

/** The selection moved by `delta` (the block it lies in moved that far), or one near it. */
function shifted(state: EditorState, tr: Transaction, delta: number): Selection {
  const { selection } = state;
  if (selection instanceof NodeSelection) return NodeSelection.create(tr.doc, selection.from + delta);
  if (selection instanceof TextSelection)
    return TextSelection.create(tr.doc, selection.anchor + delta, selection.head + delta);
  return Selection.near(tr.doc.resolve(selection.from + delta));
}

/**
 * Swaps the block at `pos` with its neighbour above (`-1`) or below (`1`) in the same parent
 * (the document, or a repeat for a block inside one), the selection inside it going along.
 * Null at the first (or last) block of its parent, or when `pos` is no block.
 */
export function moveBlock(state: EditorState, pos: number, dir: -1 | 1): Transaction | null {
  const { doc } = state;
  const node = doc.nodeAt(pos);
  const $pos = doc.resolve(pos);
  if (!node?.isBlock) return null;
  const index = $pos.index();
  if (index + dir < 0 || index + dir >= $pos.parent.childCount) return null;
  const neighbour = $pos.parent.child(index + dir);
  const target = dir === -1 ? pos - neighbour.nodeSize : pos + neighbour.nodeSize;
  const tr = state.tr.delete(pos, pos + node.nodeSize).insert(target, node);
  const inside = state.selection.from >= pos && state.selection.to <= pos + node.nodeSize;
  tr.setSelection(
    inside
      ? shifted(state, tr, target - pos)
      : node.isAtom
        ? NodeSelection.create(tr.doc, target)
        : TextSelection.near(tr.doc.resolve(target + 1)),
  );
  return tr.scrollIntoView();
}

/**
 * Inserts a copy of the block at `pos` right after it, in the same parent (the document, or a
 * repeat); the selection moves into the copy, at the same place, so a repeated Mod-D makes copies
 * in a row.
 */
export function duplicateBlock(state: EditorState, pos: number): Transaction | null {
  const node = state.doc.nodeAt(pos);
  const $pos = state.doc.resolve(pos);
  if (!node?.isBlock || !$pos.parent.canReplaceWith($pos.index(), $pos.index(), node.type)) return null;
  const tr = state.tr.insert(pos + node.nodeSize, node.copy(node.content));
  const inside = state.selection.from >= pos && state.selection.to <= pos + node.nodeSize;
  if (inside) tr.setSelection(shifted(state, tr, node.nodeSize));
  return tr.scrollIntoView();
}

/** Moves the top-level block holding the selection up (`-1`) or down (`1`). */
export function moveCurrentBlock(dir: -1 | 1): Command {
  return (state, dispatch) => {
    const pos = currentBlock(state);
    const tr = pos === null ? null : moveBlock(state, pos, dir);
    if (!tr) return false;
    dispatch?.(tr);
    return true;
  };
}

/** Duplicates the top-level block holding the selection. */
export const duplicateCurrentBlock: Command = (state, dispatch) => {
  const pos = currentBlock(state);
  const tr = pos === null ? null : duplicateBlock(state, pos);
  if (!tr) return false;
  dispatch?.(tr);
  return true;
};

/**
 * Moving and duplicating blocks from the keyboard, as the block menu does with the pointer:
 * Alt-Shift-ArrowUp / Alt-Shift-ArrowDown move the top-level block holding the cursor (or the
 * selected block), Mod-D duplicates it. No other keymap of the editor binds these (Mod-D is the
 * browser's bookmark key, which the editor takes while it has the focus, as Notion does).
 */
export function blockMoveKeys(): Plugin {
  return keymap({
    'Alt-Shift-ArrowUp': moveCurrentBlock(-1),
    'Alt-Shift-ArrowDown': moveCurrentBlock(1),
    'Mod-d': duplicateCurrentBlock,
  });
}
