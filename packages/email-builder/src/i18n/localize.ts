import { type Catalogue, setCatalogue, t } from './translate.js';

/** The attributes of the chrome that hold words: names, tooltips, placeholders. */
const WORDED = ['aria-label', 'title', 'placeholder'];

/**
 * The chrome inside the email being edited: an empty image's form, an upload's placeholder, and
 * the hints a block shows about its problems (`problemHints`: footer, signature, social links,
 * all atoms). ProseMirror ignores changes inside them (an atom's or a view's `ignoreMutation`,
 * a widget's), so their words can change; the rest of `.sv-content` is the email, and
 * ProseMirror's to redraw.
 */
const ISLANDS = '.sv-image-empty,.sv-upload,.sv-hint[data-problem]';

/**
 * The merge tags' chips in the email (`.sv-variable`): their tooltip (their fallback) is chrome,
 * drawn by the node's `toDOM` in English; ProseMirror ignores changes to an atom's attributes.
 */
const CHIPS = '.sv-variable';

/** A chip's tooltip in the catalogue's language: its fallback, read from its marker. */
function chipTitle(chip: Element, catalogue: Catalogue): void {
  let fallback: unknown;
  try {
    fallback = JSON.parse(chip.getAttribute('data-attrs') ?? '{}').fallback;
  } catch {}
  chip.setAttribute(
    'title',
    fallback
      ? t(catalogue, 'Fallback: {fallback}', { fallback: String(fallback) })
      : t(catalogue, 'No fallback'),
  );
}

/**
 * Puts the chrome in `owner` (an editor's root, a dialog's overlay) in `catalogue`'s language,
 * and keeps it there: every element it has or gets later, outside the email being edited
 * (`.sv-content`, but for its {@link ISLANDS}) and the host's own toolbar commands
 * (`.sv-toolbar-host`), has each text and
 * each name, tooltip and placeholder that is a message key (its English text) replaced by the
 * message, as it is drawn (a `MutationObserver` runs before the page paints). So every piece of
 * chrome is translated where it is shown, whichever module drew it, a custom block's title and
 * field labels too; words with values in them (`Uploading {name}…`) are written with `t()`
 * where they are made. Returns the function that stops it.
 */
export function localize(owner: HTMLElement, catalogue: Catalogue): () => void {
  setCatalogue(owner, catalogue);
  const { texts } = catalogue;
  const skip = (node: Node) => {
    const el = node instanceof Element ? node : node.parentElement;
    // the email's own elements (not `.sv-content` itself: its name is chrome)
    return !el || !!el.closest('.sv-toolbar-host') || (!!el.closest('.sv-content *') && !el.closest(ISLANDS));
  };
  const visit = (node: Node) => {
    if (skip(node)) {
      if (node instanceof Element) {
        node.querySelectorAll(ISLANDS).forEach(visit);
        for (const chip of node.matches(CHIPS) ? [node] : node.querySelectorAll(CHIPS))
          chipTitle(chip, catalogue);
      }
      return;
    }
    if (node.nodeType === 3) {
      const text = texts[(node as Text).data];
      if (text !== undefined && text !== (node as Text).data) (node as Text).data = text;
      return;
    }
    if (!(node instanceof Element)) return;
    // chrome inside the email speaks the chrome's language, in its direction
    if (node.matches(ISLANDS)) {
      node.setAttribute('lang', owner.lang);
      node.setAttribute('dir', owner.dir);
    }
    for (const name of WORDED) {
      const value = node.getAttribute(name);
      const text = value === null ? undefined : texts[value];
      if (text !== undefined && text !== value) node.setAttribute(name, text);
    }
    for (const child of node.childNodes) visit(child);
  };
  visit(owner);
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'childList') r.addedNodes.forEach(visit);
      else if (r.type === 'characterData') visit(r.target);
      else if (r.target instanceof Element && !skip(r.target)) {
        const value = r.target.getAttribute(r.attributeName!);
        const text = value === null ? undefined : texts[value];
        if (text !== undefined && text !== value) r.target.setAttribute(r.attributeName!, text);
      }
    }
  });
  observer.observe(owner, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: WORDED,
  });
  return () => observer.disconnect();
}
