import {
  DOMParser,
  type ParseOptions,
  type ParseRule,
  type Node as PMNode,
  type Schema,
  type Slice,
  type TagParseRule,
} from 'prosemirror-model';
import { isCondition } from '../model/condition.js';
import { CONTROL_TAG, parseCondition } from '../variables/condition-syntax.js';

/** Elements whose text holds blocks' template tags (never a paragraph's own words). */
const FLOW = new Set(['DIV', 'TD', 'TH', 'BODY', 'BLOCKQUOTE', 'UL', 'OL', 'CENTER']);
const ONLY_TAGS = /^\s*(?:\{\{\s*(?:#if|#each|else|\/if|\/each)\b[^{}]*\}\}\s*)+$/;
const TAGS = new RegExp(CONTROL_TAG.source, 'g');
/** Blocks whose element is their own tag rather than a `data-block` marker. */
const PLAIN_BLOCKS = new Set(['P', 'H1', 'H2', 'H3', 'UL', 'OL', 'LI', 'BLOCKQUOTE']);

/**
 * Reads the editor's own template tags back out of its email (`setContent(getHTML())`): a
 * `{{#if …}}` before a block becomes that block's `data-show-if` (read by the parse rules as
 * its `showIf`); at the start of a column's cell, the column's. The repeat's tags and its empty
 * state (after `{{else}}`, rebuilt from its attributes) go, leaving its blocks. Text in a
 * paragraph is never touched: those are a person's words.
 */
function readTemplateTags(root: Node): void {
  const doc = root.ownerDocument ?? (root as Document);
  if (!doc?.createTreeWalker) return;
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const found: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if ((!parent || FLOW.has(parent.tagName)) && ONLY_TAGS.test(n.nodeValue ?? '')) found.push(n as Text);
  }
  for (const text of found) {
    if (!text.parentNode) continue; // removed with an empty state
    for (const m of (text.nodeValue ?? '').matchAll(TAGS)) {
      if (m[1] === '#if') {
        const condition = parseCondition(m[2] ?? '');
        const target = conditionTarget(text);
        if (condition && target) target.setAttribute('data-show-if', JSON.stringify(condition));
      } else if (m[3]) {
        // the empty state: everything up to the repeat's closing tag
        for (let next = text.nextSibling; next && !/\{\{\s*\/each/.test(next.textContent ?? ''); ) {
          const after = next.nextSibling;
          next.parentNode?.removeChild(next);
          next = after;
        }
      }
    }
    text.parentNode?.removeChild(text);
  }
}

/** The element a `{{#if}}` text guards: the column whose cell it opens, or the block after it. */
function conditionTarget(text: Text): Element | null {
  const parent = text.parentElement;
  let prev = text.previousSibling;
  while (prev && prev.nodeType === 3 && !prev.nodeValue?.trim()) prev = prev.previousSibling;
  if (!prev && parent?.getAttribute('data-block') === 'column') return parent;
  let next = text.nextSibling;
  while (next && next.nodeType !== 1) next = next.nextSibling;
  const el = next as Element | null;
  if (!el || el.hasAttribute('data-block') || PLAIN_BLOCKS.has(el.tagName)) return el;
  return el.querySelector('[data-block]');
}

/**
 * The schema's parse rules, each block's also reading `data-show-if` (see
 * {@link readTemplateTags}) into its `showIf`, checked again.
 */
function conditionRules(schema: Schema): ParseRule[] {
  return DOMParser.fromSchema(schema).rules.map((rule): ParseRule => {
    const tagRule = rule as TagParseRule;
    if (!tagRule.tag || !tagRule.node || !schema.nodes[tagRule.node]?.spec.attrs?.showIf) return rule;
    return {
      ...tagRule,
      getAttrs: (dom: HTMLElement) => {
        const base = tagRule.getAttrs ? tagRule.getAttrs(dom) : (tagRule.attrs ?? null);
        const raw = dom.getAttribute?.('data-show-if');
        if (base === false || !raw) return base;
        let showIf: unknown = null;
        try {
          showIf = JSON.parse(raw);
        } catch {}
        return isCondition(showIf) ? { ...base, showIf } : base;
      },
    };
  });
}

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
  return new TableFlatteningParser(schema, conditionRules(schema));
}

class TableFlatteningParser extends DOMParser {
  override parse(dom: Node, options?: ParseOptions): PMNode {
    readTemplateTags(dom);
    flattenTables(dom);
    return super.parse(dom, options);
  }

  override parseSlice(dom: Node, options?: ParseOptions): Slice {
    readTemplateTags(dom);
    flattenTables(dom);
    return super.parseSlice(dom, options);
  }
}
