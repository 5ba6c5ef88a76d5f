import { a, cleanAttrs } from '../../model/attrs.js';
import { ghostTable, msoOnly } from '../../primitives/mso.js';
import { flowBox, TABLE, textSides } from '../../primitives/styles.js';
import { guardHtml, guardText } from '../../variables/condition-syntax.js';
import { htmlMarker } from '../marker.js';
import { type Attrs, defineRendering } from '../rendering.js';

/** Column layouts and their width ratios. */
export const LAYOUTS: Record<string, readonly number[]> = {
  '1': [1],
  '2': [1, 1],
  '1-2': [1, 2],
  '2-1': [2, 1],
  '3': [1, 1, 1],
};
// Kept as a list: object keys that look like integers ('1', '2', '3') would be reordered.
export const LAYOUT_KEYS = ['1', '2', '1-2', '2-1', '3'];
export const LAYOUT_LABELS = ['1 column', '2 equal', '1 : 2', '2 : 1', '3 equal'];

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
export const columnsRendering = defineRendering({
  name: 'columns',
  attrs: ATTRS,
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
      const blocks = ctx.blocks(col.content, {
        width: inner,
        panel: Boolean(checked.backgroundColor),
        flushEnd: true,
      });
      // A column's condition hides what it holds, not its place: the row keeps its widths in
      // every client (Outlook's ghost table included) whatever the data.
      const body = guardHtml(col.attrs, 'a column', blocks);
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
  text: (node, _attrs, ctx) =>
    (node.content ?? []).map((col) => guardText(col.attrs, 'a column', ctx.blocks(col.content))).join('\n\n'),
});

/**
 * One column of a {@link columnsRendering} row: a background, padding, and any block but
 * columns. The row renders it (its width and cell come from the row), so on its own it is empty.
 */
export const columnRendering = defineRendering({
  name: 'column',
  attrs: COLUMN_ATTRS,
  colors: { backgroundColor: 'bg' },
  render: () => '',
  text: (node, _attrs, ctx) => ctx.blocks(node.content),
});
