/**
 * The editor's own words (its chrome: toolbar, menus, settings, dialogs, labels), in the
 * language of its `locale` option. A message's key is its English text (`'Insert block'`,
 * `'Uploading {name}…'`): English needs no catalogue, so the first load carries none (nor this
 * module: the chrome that needs it loads on demand), and a host's own strings (a custom block's
 * title and field labels) translate the same way, through `messages`. The other languages'
 * catalogues load on demand too (see `locales.ts`).
 */

/** Message texts by key (the English text); a key without one shows as written. */
export type MessageTexts = Readonly<Record<string, string>>;

/** The words of one editor or dialog: its language (a BCP 47 tag) and its texts. */
export interface Catalogue {
  locale: string;
  texts: MessageTexts;
}

/** Values for a message's `{name}` placeholders; numbers are written the locale's way (`Intl`). */
export type MessageParams = Readonly<Record<string, string | number>>;

/** The catalogue of each editor by its root element (`.sv-root`), of a dialog by its overlay. */
const catalogues = new WeakMap<Element, Catalogue>();

/** Gives `owner` (an editor's root, a dialog's overlay) and everything inside it these words. */
export function setCatalogue(owner: Element, catalogue: Catalogue): void {
  catalogues.set(owner, catalogue);
}

/** The catalogue that `where` (or the editor or dialog around it) uses, if any. */
export function catalogueOf(where: Element): Catalogue | undefined {
  const owner = where.closest('.sv-root,.sv-modal');
  return catalogues.get(where) ?? (owner ? catalogues.get(owner) : undefined);
}

/**
 * The text of message `key` in the language of `where` (an element of an editor or a dialog,
 * or a catalogue), its `{name}` placeholders filled from `params`.
 *
 * @example
 * t(root, 'Uploading {name}…', { name: file.name }) // "cat.png wird hochgeladen …" in German
 */
export function t(where: Element | Catalogue | undefined, key: string, params?: MessageParams): string {
  const c = where && 'texts' in where ? where : where ? catalogueOf(where) : undefined;
  return fill(c?.texts[key] ?? key, params, c?.locale);
}

/** `text` with its `{name}` placeholders filled from `params` (numbers formatted for `locale`). */
export function fill(text: string, params?: MessageParams, locale = 'en'): string {
  return params
    ? text.replace(/\{(\w+)\}/g, (m, name: string) => {
        const v = params[name];
        return v === undefined ? m : typeof v === 'number' ? new Intl.NumberFormat(locale).format(v) : v;
      })
    : text;
}
