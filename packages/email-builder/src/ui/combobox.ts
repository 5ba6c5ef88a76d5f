/** The editable's own role and aria-multiline, kept while it stands in as a combobox. */
const own = new WeakMap<HTMLElement, { role: string | null; multiline: string | null }>();

/**
 * Makes the editor's editable the combobox of the listbox `listId`, as the ARIA 1.2 combobox
 * pattern has it: focus stays in the editable, which says that it controls a listbox
 * (`aria-haspopup`, `aria-controls`), whether that is shown (`aria-expanded`), that typing filters
 * it (`aria-autocomplete="list"`) and which option is active (`aria-activedescendant`).
 *
 * The role becomes `combobox` meanwhile: `aria-expanded` and `aria-haspopup` are not allowed on a
 * `textbox` (axe: aria-allowed-attr), and `aria-multiline` is not allowed on a combobox, so it is
 * removed. {@link collapseCombobox} puts both back. ProseMirror ignores attribute changes on its
 * root and rewrites only attributes its `attributes` prop changes, so editing is unaffected.
 */
export function expandCombobox(
  editable: HTMLElement,
  listId: string,
  expanded: boolean,
  active: string | null,
): void {
  if (!own.has(editable))
    own.set(editable, {
      role: editable.getAttribute('role'),
      multiline: editable.getAttribute('aria-multiline'),
    });
  editable.setAttribute('role', 'combobox');
  editable.removeAttribute('aria-multiline');
  editable.setAttribute('aria-haspopup', 'listbox');
  editable.setAttribute('aria-autocomplete', 'list');
  editable.setAttribute('aria-controls', listId);
  editable.setAttribute('aria-expanded', String(expanded));
  if (expanded && active) editable.setAttribute('aria-activedescendant', active);
  else editable.removeAttribute('aria-activedescendant');
}

/**
 * Gives the editable back its own role once the listbox `listId` closes, unless another popup has
 * taken the combobox over since (the "/" and "{{" menus share the editable).
 */
export function collapseCombobox(editable: HTMLElement, listId: string): void {
  if (editable.getAttribute('aria-controls') !== listId) return;
  for (const name of [
    'aria-haspopup',
    'aria-autocomplete',
    'aria-controls',
    'aria-expanded',
    'aria-activedescendant',
  ])
    editable.removeAttribute(name);
  const saved = own.get(editable);
  own.delete(editable);
  if (!saved) return;
  if (saved.role === null) editable.removeAttribute('role');
  else editable.setAttribute('role', saved.role);
  if (saved.multiline !== null) editable.setAttribute('aria-multiline', saved.multiline);
}
