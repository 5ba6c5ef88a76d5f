/**
 * A small vocabulary for writing the starter templates: each call returns plain JSON of the
 * editor's schema (what `getJSON()` gives), so a template reads like the email it makes.
 */
import { TEMPLATE_ACCENT, TEMPLATE_TINT } from '../../branding/accent.js';
import type { JSONMark, JSONNode } from '../../model/types.js';

export { TEMPLATE_ACCENT as ACCENT, TEMPLATE_TINT as TINT };

/**
 * Secondary text colour: zinc-600, 7.7:1 on white and above 6:1 on any brand tint (axe found
 * zinc-500 under 4.5:1 on the tinted panels).
 */
export const MUTED = '#52525b';

type Inline = JSONNode | string;

/** Marks. */
export const bold: JSONMark = { type: 'bold' };
export const color = (c: string): JSONMark => ({ type: 'textColor', attrs: { color: c } });
export const size = (px: number): JSONMark => ({ type: 'fontSize', attrs: { size: px } });
export const link = (href: string): JSONMark => ({ type: 'link', attrs: { href } });

/** Text with marks. */
export const t = (text: string, ...marks: JSONMark[]): JSONNode =>
  marks.length ? { type: 'text', text, marks } : { type: 'text', text };
/** A merge variable chip, with marks. */
export const v = (name: string, fallback = '', ...marks: JSONMark[]): JSONNode => ({
  type: 'variable',
  attrs: { name, fallback },
  ...(marks.length ? { marks } : {}),
});
/** An inline badge in the accent colours. */
export const badge = (text: string): JSONNode => ({
  type: 'badge',
  attrs: { text, textColor: TEMPLATE_ACCENT, backgroundColor: TEMPLATE_TINT },
});

const inline = (parts: Inline[]): JSONNode[] => parts.map((p) => (typeof p === 'string' ? t(p) : p));
const align = (a: string) => (a === 'left' ? {} : { textAlign: a });

/** A paragraph (`align` left by default). */
export const p = (parts: Inline[], a = 'left'): JSONNode => ({
  type: 'paragraph',
  ...(a === 'left' ? {} : { attrs: align(a) }),
  content: inline(parts),
});
/** Small grey text. */
export const small = (parts: Inline[], a = 'left'): JSONNode =>
  p(
    parts.map((x) =>
      typeof x === 'string'
        ? t(x, color(MUTED), size(14))
        : { ...x, marks: [...(x.marks ?? []), color(MUTED), size(14)] },
    ),
    a,
  );
/** A line break inside a paragraph. */
export const br: JSONNode = { type: 'hardBreak' };
/** A small grey caption over a value, in one paragraph: "DATE / Thursday, June 12". */
export const fact = (caption: string, ...value: Inline[]): JSONNode =>
  p([t(caption.toUpperCase(), bold, color(MUTED), size(12)), br, ...value]);

/** A heading of level 1–3. */
export const h = (level: number, parts: Inline[], a = 'left'): JSONNode => ({
  type: 'heading',
  attrs: { level, ...align(a) },
  content: inline(parts),
});
/** A bulleted list of paragraphs. */
export const ul = (...items: Inline[][]): JSONNode => ({
  type: 'bulletList',
  content: items.map((i) => ({ type: 'listItem', content: [p(i)] })),
});
export const quote = (...paras: JSONNode[]): JSONNode => ({ type: 'blockquote', content: paras });

/** A button in the accent colour (the brand's, once branding applies). */
export const button = (text: string, href: string, extra: Record<string, unknown> = {}): JSONNode => ({
  type: 'button',
  attrs: { text, href, backgroundColor: TEMPLATE_ACCENT, textColor: '#ffffff', borderRadius: 8, ...extra },
});
export const logo = (align = 'left'): JSONNode => ({ type: 'logo', attrs: { width: 132, align } });
export const divider = (spacing = 16, c = '#e4e4e7', thickness = 1): JSONNode => ({
  type: 'divider',
  attrs: { spacing, color: c, thickness },
});
export const spacer = (height: number): JSONNode => ({ type: 'spacer', attrs: { height } });

/** Columns: `layout` as the block has it (`'2'`, `'1-2'`, `'3'`…), each column a list of blocks. */
export const columns = (
  layout: string,
  cols: JSONNode[][],
  opts: { gap?: number; stack?: boolean; valign?: string; bg?: string; padding?: number } = {},
): JSONNode => ({
  type: 'columns',
  attrs: {
    layout,
    gap: opts.gap ?? 16,
    stackOnMobile: opts.stack ?? true,
    verticalAlign: opts.valign ?? 'top',
  },
  content: cols.map((content) => ({
    type: 'column',
    attrs: { backgroundColor: opts.bg ?? '', padding: opts.padding ?? 0 },
    content,
  })),
});
/** A boxed section on the accent's tint. */
export const section = (content: JSONNode[], padding = 24, bg = TEMPLATE_TINT): JSONNode =>
  columns('1', [content], { bg, padding });

/** Social links with every network empty: the brand's profiles fill them. */
export const social = (): JSONNode => ({
  type: 'socialLinks',
  attrs: {
    links: [
      { network: 'facebook', url: '' },
      { network: 'instagram', url: '' },
      { network: 'linkedin', url: '' },
    ],
  },
});
export const footer = (note: string): JSONNode => ({ type: 'footer', attrs: { note } });
export const signature = (closing = 'Best regards,'): JSONNode => ({ type: 'signature', attrs: { closing } });

/** The document, with its settings. */
export const doc = (preheader: string, title: string, ...content: JSONNode[]): JSONNode => ({
  type: 'doc',
  attrs: {
    backdrop: '#f4f4f5',
    canvas: '#ffffff',
    border: '#e4e4e7',
    padding: 40,
    radius: 12,
    width: 600,
    preheader,
    title,
  },
  content,
});
