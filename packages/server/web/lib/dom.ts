/**
 * The little DOM vocabulary both pages share: build an element in one expression, and copy text
 * to the clipboard with feedback on the button that asked for it.
 */

/** Props of {@link el}: any writable property of the element, plus `dataset` entries. */
export type ElementProps<K extends keyof HTMLElementTagNameMap> = Partial<HTMLElementTagNameMap[K]> & {
  dataset?: Record<string, string>;
};

/**
 * Creates an element with properties and children. Text is always set as text (`textContent`,
 * string children), never parsed as HTML.
 *
 * @example
 * el('button', { type: 'button', className: 'small' }, 'Copy')
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: ElementProps<K> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props;
  Object.assign(node, rest);
  if (dataset) Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}

/** Finds an element the page's HTML must contain; a missing one is a bug in that HTML. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no element #${id}`);
  return node as T;
}

/**
 * Writes `text` to the clipboard and says so on `button` for a moment ("Copied", or "Copy
 * failed" when the browser refuses, e.g. an insecure origin); resolves to whether it worked.
 */
export async function copyToClipboard(text: string, button: HTMLButtonElement): Promise<boolean> {
  const label = button.dataset.label ?? button.textContent ?? '';
  button.dataset.label = label;
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {}
  button.textContent = copied ? 'Copied' : 'Copy failed';
  window.setTimeout(() => {
    button.textContent = label;
  }, 1200);
  return copied;
}
