import type { MarkType, ResolvedPos } from 'prosemirror-model';
import type { EditorState } from 'prosemirror-state';

/** One link in the document: where it starts and ends, and its address. */
export interface LinkRange {
  from: number;
  to: number;
  href: string;
}

/**
 * The extent of the link of `type` around `$pos` (a cursor inside a link or at its end), or null
 * when there is none. Adjacent text with the same link counts as one link.
 */
export function linkRange(type: MarkType, $pos: ResolvedPos): LinkRange | null {
  const parent = $pos.parent;
  const mark = type.isInSet($pos.marks()) ?? type.isInSet($pos.nodeBefore?.marks ?? []);
  if (!mark || !parent.inlineContent) return null;
  let index = $pos.index();
  if (!mark.isInSet(parent.maybeChild(index)?.marks ?? [])) index -= 1;
  let start = index;
  let end = index + 1;
  while (start > 0 && mark.isInSet(parent.child(start - 1).marks)) start--;
  while (end < parent.childCount && mark.isInSet(parent.child(end).marks)) end++;
  let from = $pos.start();
  for (let i = 0; i < start; i++) from += parent.child(i).nodeSize;
  let to = from;
  for (let i = start; i < end; i++) to += parent.child(i).nodeSize;
  return { from, to, href: String(mark.attrs.href) };
}

/**
 * The link the cursor is in: the one that text typed at the cursor would join (so not at the
 * end of a link, which does not grow, nor at its start after other text). Null for a selection
 * that is not a bare cursor, and where there is no link mark.
 */
export function caretLink(state: EditorState): LinkRange | null {
  const type = state.schema.marks.link;
  const { selection } = state;
  if (!type || !selection.empty || !selection.$from.parent.inlineContent) return null;
  if (!type.isInSet(state.storedMarks ?? selection.$from.marks())) return null;
  return linkRange(type, selection.$from);
}
