import { type AttrTable, a, cleanAttrs } from './attrs.js';

/**
 * The document's settings, stored as attributes of its `doc` node so they travel with
 * `getJSON()`, undo, and `setContent()`. The settings panel edits them; the renderer reads them.
 */
export const DOC_ATTRS = {
  backdrop: a.color('#f4f4f5', 'Editor background'),
  canvas: a.color('#ffffff', 'Email background'),
  border: a.color('#e4e4e7', 'Border colour'),
  darkBackdrop: a.color('#18181b', 'Editor background'),
  darkCanvas: a.color('#27272a', 'Email background'),
  darkBorder: a.color('#3f3f46', 'Border colour'),
  padding: a.number(32, 0, 64, 'Padding'),
  radius: a.number(8, 0, 32, 'Border radius'),
  width: a.number(600, 480, 720, 'Content width', 'px', 10),
  preheader: a.text('', 'Preview text', 200),
  lang: a.text('en', 'Language', 35),
  dir: a.choice('ltr', ['ltr', 'rtl'], 'Direction'),
  title: a.text('', 'Title', 200),
} satisfies AttrTable;

/** Checked document settings. */
export interface DocSettings {
  backdrop: string;
  canvas: string;
  border: string;
  darkBackdrop: string;
  darkCanvas: string;
  darkBorder: string;
  padding: number;
  radius: number;
  width: number;
  preheader: string;
  lang: string;
  dir: 'ltr' | 'rtl';
  title: string;
}

/** Checks raw `doc` attributes; a `lang` that is not a BCP 47 tag falls back to `en`. */
export function docSettings(raw: Record<string, unknown> | undefined): DocSettings {
  const s = cleanAttrs(DOC_ATTRS, raw) as unknown as DocSettings;
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(s.lang)) s.lang = 'en';
  return s;
}
