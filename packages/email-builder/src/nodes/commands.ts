import { setBlockType, wrapIn } from 'prosemirror-commands';
import type { NodeType, Attrs as PMAttrs, Node as PMNode } from 'prosemirror-model';
import { wrapInList } from 'prosemirror-schema-list';
import { NodeSelection, TextSelection, type Transaction } from 'prosemirror-state';
import type { EditorHost } from './define.js';

/** Deletes the typed "/query" before a slash command runs. */
function clearRange(host: EditorHost, from: number, to: number): void {
  if (to > from) host.view.dispatch(host.view.state.tr.delete(from, to));
}

/** Turns the current text block into `type` (paragraph, heading). */
export function toTextBlock(host: EditorHost, from: number, to: number, type: string, attrs?: PMAttrs): void {
  clearRange(host, from, to);
  const nodeType = host.view.state.schema.nodes[type]!;
  setBlockType(nodeType, attrs)(host.view.state, host.view.dispatch);
  host.view.focus();
}

/** Wraps the current block in a list or a quote. */
export function wrapBlock(host: EditorHost, from: number, to: number, type: string): void {
  clearRange(host, from, to);
  const nodeType: NodeType = host.view.state.schema.nodes[type]!;
  const isList = type === 'bulletList' || type === 'orderedList';
  (isList ? wrapInList(nodeType) : wrapIn(nodeType))(host.view.state, host.view.dispatch);
  host.view.focus();
}

/**
 * Puts the cursor in the text block right after the block ending at `end`: the next sibling when
 * it is an empty paragraph, else a new empty paragraph there. Null where no paragraph may go.
 */
export function cursorAfterBlock(tr: Transaction, end: number): Transaction | null {
  const $end = tr.doc.resolve(end);
  const next = $end.nodeAfter;
  if (next?.type.name === 'paragraph' && next.content.size === 0)
    return tr.setSelection(TextSelection.create(tr.doc, end + 1));
  const paragraph = tr.doc.type.schema.nodes.paragraph!;
  if (!$end.parent.canReplaceWith($end.index(), $end.index(), paragraph)) return null;
  tr.insert(end, paragraph.create());
  return tr.setSelection(TextSelection.create(tr.doc, end + 1));
}

/**
 * Inserts a block where the slash command was typed: it replaces the paragraph when that is now
 * empty, otherwise goes after it. After a block without text (a button, an image) the cursor
 * goes on in a paragraph below it, as in Notion, so the next key writes there; the block's
 * settings open when it is clicked.
 */
export function insertBlock(host: EditorHost, from: number, to: number, node: PMNode): void {
  clearRange(host, from, to);
  const { state } = host.view;
  const $pos = state.selection.$from;
  let tr = state.tr;
  let at: number;
  const parent = $pos.parent;
  if (parent.isTextblock && parent.content.size === 0 && $pos.depth > 0) {
    at = $pos.before();
    tr = tr.replaceWith(at, $pos.after(), node);
  } else {
    at = $pos.depth > 0 ? $pos.after() : $pos.pos;
    tr = tr.insert(at, node);
  }
  if (node.isAtom)
    tr = cursorAfterBlock(tr, at + node.nodeSize) ?? tr.setSelection(NodeSelection.create(tr.doc, at));
  else tr = tr.setSelection(TextSelection.near(tr.doc.resolve(at + 1)));
  host.view.dispatch(tr.scrollIntoView());
  host.view.focus();
}

/** Inserts an inline node (a badge, a variable) at the cursor; `select` selects it (its settings open). */
export function insertInline(host: EditorHost, from: number, to: number, node: PMNode, select = false): void {
  clearRange(host, from, to);
  const { state } = host.view;
  const at = state.selection.from;
  let tr = state.tr.replaceSelectionWith(node, false);
  if (select) tr = tr.setSelection(NodeSelection.create(tr.doc, at));
  host.view.dispatch(tr.scrollIntoView());
  host.view.focus();
}
