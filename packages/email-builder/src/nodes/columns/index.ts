import type { Fragment, NodeType, Node as PMNode, Schema } from 'prosemirror-model';
import { type Command, Selection, TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { cursorAfterBlock, insertBlock } from '../commands.js';
import { defineBlock, type SlashItem } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { columnRendering, columnsRendering, LAYOUT_KEYS, LAYOUT_LABELS, LAYOUTS } from './render.js';

/** A row of columns in the editor: a grid in the row's proportions; its layout changes in place. */
export const columns = defineBlock({
  ...columnsRendering,
  inspect: true,
  inspectChildren: true,
  spec: {
    content: 'column+',
    group: 'block',
    isolating: true,
    draggable: true,
    parseDOM: [markerRule('columns', columnsRendering.attrs)],
    toDOM: (node) => {
      const ratios = LAYOUTS[node.attrs.layout as string] ?? [1, 1];
      const template =
        ratios.length === node.childCount
          ? ratios.map((r) => `${r}fr`).join(' ')
          : `repeat(${node.childCount}, 1fr)`;
      return [
        'div',
        {
          ...domMarker('columns', columnsRendering.attrs, node.attrs),
          class: 'sv-columns',
          style: `grid-template-columns:${template};gap:${node.attrs.gap}px;align-items:${node.attrs.verticalAlign === 'middle' ? 'center' : node.attrs.verticalAlign === 'bottom' ? 'end' : 'start'}`,
        },
        0,
      ];
    },
  },
  update: (view, pos, key, value) => (key === 'layout' ? setLayout(view, pos, String(value)) : false),
  slash: LAYOUT_KEYS.map(
    (layout, i): SlashItem => ({
      id: `columns-${layout}`,
      group: 'Layout',
      title: layout === '1' ? 'Section' : `Columns ${LAYOUT_LABELS[i]}`,
      description:
        layout === '1'
          ? 'A boxed section with its own background'
          : `${LAYOUTS[layout]!.length} columns that stack on phones`,
      keywords: ['columns', 'layout', 'grid', 'section', 'row', layout.replace('-', ':')],
      icon: layout === '3' ? 'columns3' : 'columns',
      run: (host, from, to) => insertBlock(host, from, to, createColumns(host.view.state.schema, layout)),
    }),
  ),
});

/**
 * Tab (`dir` 1) and Shift-Tab (-1) in a column: the cursor goes to the start of the next or
 * previous column of the row, as in a table. From the last (or first) column the key is not
 * handled, so the browser moves focus out of the editor as it does everywhere else: never a trap.
 * A list in a column nests with Tab first (the list's keys run before these).
 */
function toColumn(type: NodeType, dir: 1 | -1): Command {
  return (state, dispatch) => {
    const { $from } = state.selection;
    for (let depth = $from.depth; depth > 0; depth--) {
      if ($from.node(depth).type !== type) continue;
      const row = $from.node(depth - 1);
      const target = $from.index(depth - 1) + dir;
      if (target < 0 || target >= row.childCount) return false;
      let start = $from.start(depth - 1);
      for (let i = 0; i < target; i++) start += row.child(i).nodeSize;
      const selection = Selection.findFrom(state.doc.resolve(start + 1), 1, true);
      if (!selection) return false;
      dispatch?.(state.tr.setSelection(selection).scrollIntoView());
      return true;
    }
    return false;
  };
}

/**
 * Enter in an empty paragraph that ends the last column of a row leaves the row, as in Notion:
 * the paragraph goes (unless it is all the column holds) and the cursor goes on in a paragraph
 * after the columns block. Without it, Ctrl+End then Enter in a last block of columns kept
 * making paragraphs inside the column, with no way below it (issue 40).
 */
function leaveRow(type: NodeType): Command {
  return (state, dispatch) => {
    const { $from, empty } = state.selection;
    const depth = $from.depth - 1;
    if (!empty || depth < 1 || $from.node(depth).type !== type) return false;
    const paragraph = $from.parent;
    const column = $from.node(depth);
    const row = $from.node(depth - 1);
    if (paragraph.type.name !== 'paragraph' || paragraph.content.size > 0) return false;
    if ($from.index(depth) !== column.childCount - 1) return false;
    if ($from.index(depth - 1) !== row.childCount - 1) return false;
    const tr = state.tr;
    if (column.childCount > 1) tr.delete($from.before(), $from.after());
    const after = cursorAfterBlock(tr, tr.mapping.map($from.after(depth - 1)));
    if (!after) return false;
    dispatch?.(after.scrollIntoView());
    return true;
  };
}

/** A column in the editor: Tab and Shift-Tab move between the columns of its row. */
export const column = defineBlock({
  ...columnRendering,
  inspect: true,
  keys: (type) => ({ Tab: toColumn(type, 1), 'Shift-Tab': toColumn(type, -1), Enter: leaveRow(type) }),
  spec: {
    content: 'inner+',
    isolating: true,
    parseDOM: [markerRule('column', columnRendering.attrs)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('column', columnRendering.attrs, node.attrs),
        // sv-colbg: dark mode darkens the panel as the email does (render/email.ts)
        class: node.attrs.backgroundColor ? 'sv-column sv-colbg' : 'sv-column',
        style: `padding:${node.attrs.padding}px${node.attrs.backgroundColor ? `;background-color:${node.attrs.backgroundColor}` : ''}`,
      },
      0,
    ],
  },
});

/** A columns node in the given layout with an empty paragraph in each column. */
export function createColumns(schema: Schema, layout: string): PMNode {
  const count = LAYOUTS[layout]?.length ?? 2;
  const cols = Array.from({ length: count }, () =>
    schema.nodes.column!.create(null, schema.nodes.paragraph!.create()),
  );
  return schema.nodes.columns!.create({ layout }, cols);
}

/** Changes the layout, adding empty columns or moving the content of removed ones into the last kept. */
export function setLayout(view: EditorView, pos: number, layout: string): boolean {
  const node = view.state.doc.nodeAt(pos);
  if (node?.type.name !== 'columns' || !LAYOUTS[layout]) return false;
  const schema = view.state.schema;
  const count = LAYOUTS[layout]!.length;
  const kept: PMNode[] = [];
  node.forEach((col, _offset, i) => {
    if (i < count) kept.push(col);
    else {
      const last = kept[kept.length - 1]!;
      kept[kept.length - 1] = last.copy(last.content.append(col.content as Fragment));
    }
  });
  while (kept.length < count) kept.push(schema.nodes.column!.create(null, schema.nodes.paragraph!.create()));
  const replacement = node.type.create({ ...node.attrs, layout }, kept);
  let tr = view.state.tr.replaceWith(pos, pos + node.nodeSize, replacement);
  tr = tr.setSelection(TextSelection.near(tr.doc.resolve(pos + 2)));
  view.dispatch(tr);
  return true;
}
