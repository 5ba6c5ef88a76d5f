import type { Fragment, NodeType, Node as PMNode, Schema } from 'prosemirror-model';
import { type Command, Selection, TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { a, cleanAttrs } from '../../model/attrs.js';
import { ghostTable, msoOnly } from '../../render/mso.js';
import { flowBox, TABLE, textSides } from '../../render/styles.js';
import { ICONS } from '../../ui/icons.js';
import { insertBlock } from '../commands.js';
import { type Attrs, defineBlock, domMarker, htmlMarker, markerRule, type SlashItem } from '../define.js';

/** Column layouts and their width ratios. */
export const LAYOUTS: Record<string, readonly number[]> = {
  '1': [1],
  '2': [1, 1],
  '1-2': [1, 2],
  '2-1': [2, 1],
  '3': [1, 1, 1],
};
// Kept as a list: object keys that look like integers ('1', '2', '3') would be reordered.
const LAYOUT_KEYS = ['1', '2', '1-2', '2-1', '3'];
const LAYOUT_LABELS = ['1 column', '2 equal', '1 : 2', '2 : 1', '3 equal'];

const ATTRS = {
  layout: a.choice('2', LAYOUT_KEYS, 'Layout', LAYOUT_LABELS),
  gap: a.number(16, 0, 48, 'Gap'),
  stackOnMobile: a.bool(true, 'Stack on mobile'),
  verticalAlign: a.choice('top', ['top', 'middle', 'bottom'], 'Vertical alignment', [
    'Top',
    'Middle',
    'Bottom',
  ]),
};

const COLUMN_ATTRS = {
  backgroundColor: a.color('', 'Column background'),
  padding: a.number(0, 0, 48, 'Column padding'),
};

/** Pixel widths of the columns: ratios of the available width, the rounding left to the last. */
export function columnWidths(layout: string, count: number, available: number): number[] {
  const layoutRatios = LAYOUTS[layout];
  const ratios = layoutRatios && layoutRatios.length === count ? layoutRatios : Array<number>(count).fill(1);
  const total = ratios.reduce((s, r) => s + r, 0);
  const widths = ratios.map((r) => Math.floor((available * r) / total));
  widths[widths.length - 1]! += available - widths.reduce((s, w) => s + w, 0);
  return widths;
}

function columnCell(col: Attrs, body: string, attrs: Attrs): string {
  const bg = col.backgroundColor ? ` bgcolor="${col.backgroundColor}"` : '';
  // `sv-colbg`: in dark mode the text turns light, so a light panel must turn dark too.
  const cls = col.backgroundColor ? ' class="sv-colbg"' : '';
  const bgStyle = col.backgroundColor ? `;background-color:${col.backgroundColor}` : '';
  // The column's last block ends flush (see render below), so the padding is even all round.
  return `<td${htmlMarker('column', COLUMN_ATTRS, col)}${bg}${cls} valign="${attrs.verticalAlign}" style="padding:${col.padding}px${bgStyle}">${body}</td>`;
}

/**
 * Columns. Stacking ones are "hybrid": inline-block divs with `max-width` that wrap by themselves
 * where media queries are unsupported (Gmail app with non-Google accounts), a media query that
 * stacks them to full width where supported, and an MSO ghost table with fixed cell widths for
 * Outlook for Windows, which understands neither. Non-stacking ones are a plain table row.
 */
export const columns = defineBlock({
  name: 'columns',
  attrs: ATTRS,
  inspect: true,
  inspectChildren: true,
  spec: {
    content: 'column+',
    group: 'block',
    isolating: true,
    draggable: true,
    parseDOM: [markerRule('columns', ATTRS)],
    toDOM: (node) => {
      const ratios = LAYOUTS[node.attrs.layout as string] ?? [1, 1];
      const template =
        ratios.length === node.childCount
          ? ratios.map((r) => `${r}fr`).join(' ')
          : `repeat(${node.childCount}, 1fr)`;
      return [
        'div',
        {
          ...domMarker('columns', ATTRS, node.attrs),
          class: 'sv-columns',
          style: `grid-template-columns:${template};gap:${node.attrs.gap}px;align-items:${node.attrs.verticalAlign === 'middle' ? 'center' : node.attrs.verticalAlign === 'bottom' ? 'end' : 'start'}`,
        },
        0,
      ];
    },
  },
  render: (node, attrs, ctx) => {
    const cols = node.content ?? [];
    if (cols.length === 0) return '';
    const widths = columnWidths(attrs.layout, cols.length, ctx.width);
    const gap = attrs.gap as number;
    const dir = ctx.settings.dir;
    // Columns follow the text: the first on the right in a right-to-left document, each gap
    // between a column's end side and the next one's start side.
    const parts = cols.map((col, i) => {
      const checked = cleanAttrs(COLUMN_ATTRS, col.attrs) as Attrs;
      const padStart = i === 0 ? 0 : Math.floor(gap / 2);
      const padEnd = i === cols.length - 1 ? 0 : Math.ceil(gap / 2);
      const inner = widths[i]! - padStart - padEnd - checked.padding * 2;
      // The last block leaves no space under itself: the row's own 16 px follow the columns,
      // as they follow any block (its margin on top of them made 32).
      const body = ctx.blocks(col.content, {
        width: inner,
        panel: Boolean(checked.backgroundColor),
        flushEnd: true,
      });
      const padding = flowBox(dir, '0', `${padEnd}px`, '0', `${padStart}px`);
      return { width: widths[i]!, padding, cell: columnCell(checked, body, attrs) };
    });
    const marker = htmlMarker('columns', ATTRS, attrs);
    if (!attrs.stackOnMobile) {
      const cells = parts
        .map(
          (p) =>
            `<td width="${p.width}" valign="${attrs.verticalAlign}" style="padding:${p.padding}">${TABLE}><tr>${p.cell}</tr></table></td>`,
        )
        .join('');
      return `${TABLE}${marker} style="margin:0 0 16px"><tr>${cells}</tr></table>`;
    }
    const divs = parts.map(
      (p, i) =>
        (i === 0 ? '' : msoOnly(`</td><td width="${p.width}" valign="${attrs.verticalAlign}">`)) +
        `<div class="sv-col" style="display:inline-block;width:100%;max-width:${p.width}px;vertical-align:${attrs.verticalAlign}">${TABLE}><tr><td class="${i < parts.length - 1 && gap > 0 ? 'sv-gap sv-gapv' : 'sv-gap'}" style="padding:${p.padding}">${TABLE}><tr>${p.cell}</tr></table></td></tr></table></div>`,
    );
    const start = textSides(dir).start;
    const open = ghostTable(ctx.width, start).replace(
      '<tr><![endif]-->',
      `<tr><td width="${parts[0]!.width}" valign="${attrs.verticalAlign}"><![endif]-->`,
    );
    return `${TABLE}${marker}><tr><td style="text-align:${start};padding:0 0 16px">${open}${divs.join('')}${msoOnly('</td></tr></table>')}</td></tr></table>`;
  },
  text: (node, _attrs, ctx) => (node.content ?? []).map((col) => ctx.blocks(col.content)).join('\n\n'),
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
      icon: layout === '3' ? ICONS.columns3 : ICONS.columns,
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

/** One column of a {@link columns} block: a background, padding, and any block but columns. */
export const column = defineBlock({
  name: 'column',
  attrs: COLUMN_ATTRS,
  inspect: true,
  keys: (type) => ({ Tab: toColumn(type, 1), 'Shift-Tab': toColumn(type, -1) }),
  colors: { backgroundColor: 'bg' },
  spec: {
    content: 'inner+',
    isolating: true,
    parseDOM: [markerRule('column', COLUMN_ATTRS)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('column', COLUMN_ATTRS, node.attrs),
        // sv-colbg: dark mode darkens the panel as the email does (render/email.ts)
        class: node.attrs.backgroundColor ? 'sv-column sv-colbg' : 'sv-column',
        style: `padding:${node.attrs.padding}px${node.attrs.backgroundColor ? `;background-color:${node.attrs.backgroundColor}` : ''}`,
      },
      0,
    ],
  },
  render: () => '',
  text: (node, _attrs, ctx) => ctx.blocks(node.content),
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
