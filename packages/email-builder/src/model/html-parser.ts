import {
  DOMParser,
  type ParseOptions,
  type Node as PMNode,
  type Schema,
  type Slice,
} from 'prosemirror-model';

/** Written between the cells of a pasted table row, which becomes one line of text. */
const CELL_SEPARATOR = ' · ';

/** Elements that make a cell hold blocks of its own (Google Docs and Word put a <p> in each cell). */
const BLOCK_CONTENT =
  'address,article,aside,blockquote,div,dl,fieldset,figure,footer,form,h1,h2,h3,h4,h5,h6,header,hr,img,li,ol,p,pre,section,table,ul';

const hasBlocks = (cell: Element) => cell.querySelector(BLOCK_CONTENT) !== null;
const isEmpty = (cell: Element) => !cell.textContent?.trim() && !hasBlocks(cell);

/** A `<p>` holding the children of `cells`, separated; a header cell's are bold. */
function cellParagraph(doc: Document, cells: readonly Element[]): HTMLElement {
  const p = doc.createElement('p');
  cells.forEach((cell, i) => {
    if (i > 0) p.append(CELL_SEPARATOR);
    const into = cell.tagName === 'TH' ? p.appendChild(doc.createElement('strong')) : p;
    into.append(...cell.childNodes);
  });
  return p;
}

/**
 * Rewrites the data tables in `root` (a pasted clipboard, or HTML given to `setContent`) into
 * paragraphs, in place. The editor has no table block, and a row's cells used to run together
 * ("cell Acell B"). A row of cells holding only text becomes one paragraph, its non-empty cells
 * joined by {@link CELL_SEPARATOR} (a tab or a space would vanish: an email collapses white
 * space). A row where a cell holds blocks (Docs and Word put paragraphs in cells) keeps those
 * blocks, and its text-only cells become paragraphs of their own. Tables inside a `data-block`
 * marker are the editor's own email layout and are left alone.
 */
function flattenTables(root: Node): void {
  if (!(root instanceof Element || root instanceof DocumentFragment)) return;
  const doc = root.ownerDocument ?? document;
  const rows = [...root.querySelectorAll('tr')];
  // a clipboard that starts with <td> is parsed from inside its row (prosemirror-view wraps it)
  if (root instanceof Element && root.tagName === 'TR') rows.unshift(root as HTMLTableRowElement);
  for (const row of rows) {
    if (row.closest('[data-block]')) continue;
    const cells = [...row.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
    if (cells.some(hasBlocks)) {
      for (const cell of cells)
        if (!hasBlocks(cell) && !isEmpty(cell)) cell.replaceChildren(cellParagraph(doc, [cell]));
      continue;
    }
    const filled = cells.filter((c) => !isEmpty(c));
    const replacement = filled.length > 0 ? [cellParagraph(doc, filled)] : [];
    if (row === root) row.replaceChildren(...replacement);
    else row.replaceWith(...replacement);
  }
}

/**
 * ProseMirror's DOM parser for the schema, with pasted tables first turned into paragraphs
 * ({@link flattenTables}). The editor uses it for the clipboard and for `setContent(html)`.
 */
export function htmlParser(schema: Schema): DOMParser {
  return new TableFlatteningParser(schema, DOMParser.fromSchema(schema).rules);
}

class TableFlatteningParser extends DOMParser {
  override parse(dom: Node, options?: ParseOptions): PMNode {
    flattenTables(dom);
    return super.parse(dom, options);
  }

  override parseSlice(dom: Node, options?: ParseOptions): Slice {
    flattenTables(dom);
    return super.parseSlice(dom, options);
  }
}
