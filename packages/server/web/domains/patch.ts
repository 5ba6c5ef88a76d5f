/**
 * Writing to the dashboard's DOM only where something changed. Rebuilding a node, or even
 * setting the same text again, drops keyboard focus and a text selection inside it; the page
 * refreshes every few seconds, so every refresh goes through these.
 */
import { copyToClipboard, el } from '../lib/dom.js';

/**
 * Sets `node`'s text when it differs. A lone text node is edited in place, so a selection
 * elsewhere in the element's parent survives.
 */
export function setText(node: HTMLElement, text: string): void {
  if (node.textContent === text) return;
  const only = node.firstChild;
  if (only instanceof Text && only === node.lastChild) only.data = text;
  else node.textContent = text;
}

/** Makes `node` a status badge (`verified`, `pending`), changing only what differs. */
export function setBadge(node: HTMLElement, status: string): void {
  const className = `badge ${status}`;
  if (node.className !== className) node.className = className;
  setText(node, status);
}

/**
 * A small icon button that copies what `text()` returns when clicked (read then, so a refreshed
 * value is the one copied). The icon is drawn by CSS (`.copy-icon`), leaving the button's text
 * free for `copyToClipboard`'s "Copied" feedback; `label` is its accessible name.
 */
export function copyIconButton(text: () => string, label: string): HTMLButtonElement {
  const button = el('button', { type: 'button', className: 'copy-icon', title: 'Copy' });
  button.setAttribute('aria-label', label);
  button.addEventListener('click', () => void copyToClipboard(text(), button));
  return button;
}

/**
 * Runs `change` (which may open or close panels above `anchor`) and scrolls by however far
 * `anchor` moved, so the control the user just pressed stays under the pointer.
 */
export function keepInPlace(anchor: Element | undefined, change: () => void): void {
  const before = anchor?.getBoundingClientRect().top;
  change();
  if (anchor === undefined || before === undefined || !anchor.isConnected) return;
  const moved = anchor.getBoundingClientRect().top - before;
  if (moved !== 0) window.scrollBy(0, moved);
}

/**
 * Makes `parent`'s children exactly `nodes`, in order. Children no longer wanted go first, so
 * the ones kept are never moved (moving a node takes the focus out of it): only new nodes are
 * inserted.
 */
export function placeInOrder(parent: Element, nodes: Element[]): void {
  const wanted = new Set(nodes);
  for (const child of [...parent.children]) if (!wanted.has(child)) child.remove();
  let anchor = parent.firstElementChild;
  for (const node of nodes) {
    if (node === anchor) anchor = anchor.nextElementSibling;
    else parent.insertBefore(node, anchor);
  }
}

/**
 * Runs `change` (a list's render) and, when it removed the element that had the focus from
 * inside `within` (a row a refresh dropped: filtered out, cancelled, removed elsewhere), puts the
 * focus on `fallback` rather than leaving it on `<body>`, where the next Tab starts again from
 * the page's top.
 */
export function keepFocusIn(within: Element, fallback: HTMLElement, change: () => void): void {
  const had = within.contains(document.activeElement);
  change();
  if (had && !within.contains(document.activeElement)) fallback.focus();
}
