/**
 * The languages of the editor's own words and their catalogues, loaded on demand: the first
 * load carries none of this (English is the keys themselves, see `translate.ts`), and a German
 * editor fetches only German.
 */
import { ServiceEditorError } from '../errors.js';
import { localize } from './localize.js';
import type { MessageTexts } from './translate.js';

/** The languages the editor ships, as BCP 47 tags; `en` is the default. */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'ar'] as const;

/** A language the editor ships. */
export type Locale = (typeof LOCALES)[number];

/** The languages written right to left: the editor's chrome mirrors in them. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar']);

/**
 * The shipped language for a BCP 47 tag, or `null`: the tag itself when shipped (any case,
 * `pt-br`), else the shipped one of the same language (`de-AT` → `de`, `pt` and `pt-PT` →
 * `pt-BR`, `ar-EG` → `ar`, `en-GB` → `en`). A malformed tag matches nothing.
 */
export function matchLocale(tag: string): Locale | null {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] ?? '';
  } catch {
    return null;
  }
  const lower = canonical.toLowerCase();
  const language = lower.split('-')[0];
  return (
    LOCALES.find((l) => l.toLowerCase() === lower) ??
    LOCALES.find((l) => l.toLowerCase().split('-')[0] === language) ??
    null
  );
}

/** Whether `locale` is written right to left. */
export function isRightToLeft(locale: string): boolean {
  return RIGHT_TO_LEFT.has(locale.split('-')[0]!.toLowerCase());
}

/** The catalogue of a shipped language (English has none: its texts are the keys). */
export function loadTexts(locale: Locale): Promise<MessageTexts> {
  // one literal import() per language, so that a bundler makes each its own chunk
  switch (locale) {
    case 'de':
      return import('./locales/de.js').then((m) => m.default);
    case 'fr':
      return import('./locales/fr.js').then((m) => m.default);
    case 'es':
      return import('./locales/es.js').then((m) => m.default);
    case 'pt-BR':
      return import('./locales/pt-BR.js').then((m) => m.default);
    case 'ja':
      return import('./locales/ja.js').then((m) => m.default);
    case 'ar':
      return import('./locales/ar.js').then((m) => m.default);
    default:
      return Promise.resolve({});
  }
}

/** What {@link resolveLocale} found for the `locale` and `messages` options. */
export interface ResolvedLocale {
  /** The shipped language (its BCP 47 tag), `en` when none matched. */
  locale: Locale;
  dir: 'ltr' | 'rtl';
  /** The catalogue with the host's `messages` over it. */
  texts: MessageTexts;
}

/** The warnings given: once each, though an editor and its preview both resolve its locale. */
const warned = new Set<string>();

function warn(name: string, reason: string): void {
  const message = new ServiceEditorError('SEB_ERR_OPTIONS', { name, reason }).message;
  if (!warned.has(message)) console.warn(message);
  warned.add(message);
}

/**
 * The language, direction and words for the `locale` and `messages` options. A tag no shipped
 * language matches gives English, with a console warning (`SEB_ERR_OPTIONS`) that says so: the
 * editor still works, in English, rather than failing for a language it lacks. `messages` that
 * are not an object of strings are left out, with a warning too.
 */
export async function resolveLocale(tag: unknown, messages?: unknown): Promise<ResolvedLocale> {
  const locale = typeof tag === 'string' ? matchLocale(tag) : null;
  if (!locale)
    warn(
      'locale',
      `no catalogue for ${JSON.stringify(tag)}, the editor shows English (shipped: ${LOCALES.join(', ')})`,
    );
  let own: MessageTexts = {};
  if (messages !== undefined) {
    if (
      messages &&
      typeof messages === 'object' &&
      Object.values(messages).every((v) => typeof v === 'string')
    )
      own = messages as MessageTexts;
    else warn('messages', 'expected an object of strings by English text; left out');
  }
  const found = locale ?? 'en';
  return {
    locale: found,
    dir: isRightToLeft(found) ? 'rtl' : 'ltr',
    // no prototype: a text such as "constructor" is no key
    texts: Object.assign(Object.create(null) as Record<string, string>, await loadTexts(found), own),
  };
}

/** The message of the repeat's badge, which `service.css` writes in English by default. */
const REPEAT_BADGE = 'Repeat for each of {list}';

/**
 * Gives an editor's `root` the words of its `locale` and `messages` options: its `lang` and
 * `dir`, its chrome in that language from now on (see {@link localize}), and the repeat badge's
 * words (drawn by CSS). Resolves to the texts, for what the editor draws itself (see `editor.ts`),
 * or `null` when the editor was destroyed meanwhile.
 */
export async function useLocale(
  root: HTMLElement,
  tag: unknown,
  messages: unknown,
): Promise<MessageTexts | null> {
  const { locale, dir, texts } = await resolveLocale(tag ?? 'en', messages);
  // a destroyed editor's root is out of the page
  if (!root.isConnected) return null;
  root.lang = locale;
  root.dir = dir;
  const [before, after = ''] = (texts[REPEAT_BADGE] ?? REPEAT_BADGE).split('{list}');
  root.style.setProperty('--sv-repeat-before', JSON.stringify(before));
  root.style.setProperty('--sv-repeat-after', JSON.stringify(after));
  localize(root, { locale, texts });
  return texts;
}
