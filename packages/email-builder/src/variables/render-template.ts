import { escapeHtml } from '../render/escape.js';
import { safeImageUrl, safeLinkUrl } from '../render/url.js';
import { VARIABLE_TAG } from './syntax.js';

/** Options of {@link renderTemplate}. */
export interface RenderTemplateOptions {
  /**
   * `html` escapes every value for HTML (and URL-encodes values inside `href`/`src`); `text`
   * inserts values as they are. Default: `html` when the source starts with a tag or doctype.
   */
  format?: 'html' | 'text';
}

/** What {@link renderTemplate} returns. */
export interface RenderTemplateResult {
  /** The source with every variable filled. */
  output: string;
  /** Names found in the source, once each, in order of first use. */
  used: string[];
  /** Names with no value in the data and no fallback: rendered as empty text. */
  missing: string[];
  /** Names with no value in the data that showed their fallback instead. */
  defaulted: string[];
  /** Names whose value was refused where a whole link or image URL was expected (not http(s), mailto, tel). */
  unsafe: string[];
}

const HTML_START = /^\s*(<!doctype|<[a-z!])/i;

/** Looks up `a.b.c` in the data, own properties only (no `__proto__` or `constructor` tricks). */
function lookup(data: unknown, name: string): string | undefined {
  let value: unknown = data;
  for (const key of name.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

/**
 * Where in the HTML a tag sits: in text, or in the value of an attribute (and which one).
 * A tag is inside a start tag when the last `<` before it comes after the last `>`.
 */
function attributeAt(html: string, index: number): { name: string; whole: boolean } | null {
  const open = html.lastIndexOf('<', index);
  if (open === -1 || html.lastIndexOf('>', index) > open) return null;
  const inTag = html.slice(open, index);
  const attr = /([^\s"'<>/=]+)\s*=\s*(["']?)([^"']*)$/.exec(inTag);
  if (!attr) return { name: '', whole: false };
  return { name: attr[1]!.toLowerCase(), whole: attr[3] === '' };
}

/**
 * Fills the merge variables of a rendered email (`getHTML()` or `getText()` output, or any
 * text using the `{{name}}` / `{{name|fallback}}` syntax) from `data`. Pure; runs in Node and
 * in browsers.
 *
 * In HTML every value is escaped, so data can never add markup. Inside `href` and `src` a value
 * that is part of a URL is URL-encoded, and a value that is the whole URL must be an http(s),
 * mailto or tel link (http(s) for `src`), else it is dropped and named in `unsafe`. Fallbacks
 * are part of the template and are kept as written. Missing values are reported, never guessed.
 *
 * @example
 * const { output, missing } = renderTemplate(editor.getHTML(), { first_name: 'Ada' });
 */
export function renderTemplate(
  source: string,
  data: Record<string, unknown> = {},
  options: RenderTemplateOptions = {},
): RenderTemplateResult {
  const html = (options.format ?? (HTML_START.test(source) ? 'html' : 'text')) === 'html';
  const used = new Set<string>();
  const missing = new Set<string>();
  const defaulted = new Set<string>();
  const unsafe = new Set<string>();
  const output = source.replace(
    VARIABLE_TAG,
    (tag, name: string, fallback: string | undefined, at: number) => {
      const attr = html ? attributeAt(source, at) : null;
      // The editor's round-trip markers describe the template, not one recipient's email: the
      // tags there stay, so a filled email given back to setContent() is the template again.
      if (attr?.name === 'data-attrs') return tag;
      used.add(name);
      const value = lookup(data, name);
      if (value === undefined) {
        if (fallback?.trim()) {
          defaulted.add(name);
          return fallback.trim();
        }
        missing.add(name);
        return '';
      }
      if (!html) return value;
      if (attr && (attr.name === 'href' || attr.name === 'src')) {
        const whole = attr.whole && source.slice(at + tag.length).match(/^\s*["']/);
        if (whole) {
          const url = attr.name === 'src' ? safeImageUrl(value) : safeLinkUrl(value);
          if (!url) unsafe.add(name);
          return escapeHtml(url);
        }
        return escapeHtml(encodeURIComponent(value));
      }
      return escapeHtml(value);
    },
  );
  return { output, used: [...used], missing: [...missing], defaulted: [...defaulted], unsafe: [...unsafe] };
}
