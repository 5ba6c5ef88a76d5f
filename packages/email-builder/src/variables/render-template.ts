import type { Condition } from '../model/condition.js';
import { escapeHtml, unescapeHtml } from '../primitives/escape.js';
import { VARIABLE_TAG } from '../primitives/merge-tags.js';
import { safeImageUrl, safeLinkUrl } from '../primitives/url.js';
import { CONTROL_TAG, ITEM, MAX_EACH, parseCondition, testCondition } from './condition-syntax.js';

/** Options of {@link renderTemplate}. */
export interface RenderTemplateOptions {
  /**
   * `html` escapes every value for HTML (and URL-encodes values inside `href`/`src`); `text`
   * inserts values as they are. Default: `html` when the source starts with a tag or doctype.
   */
  format?: 'html' | 'text';
}

/**
 * The catalogue of what {@link renderTemplate} bounded or could not read: the email is still
 * rendered, with the part named left out or cut short.
 */
export const TEMPLATE_PROBLEMS = {
  SEB_TEMPLATE_BAD_TAG: 'A tag could not be read and was left out: {detail}',
  SEB_TEMPLATE_NOT_A_LIST: '"{name}" is repeated but is not a list: shown as an empty list',
  SEB_TEMPLATE_TOO_MANY_ITEMS: '"{name}" has {count} items: only the first {shown} are shown',
  SEB_TEMPLATE_TOO_DEEP: 'Conditions and repeats nest deeper than {limit}: the deeper part is left out',
  SEB_TEMPLATE_TOO_LARGE: 'The output would pass {limit} characters: the rest is left out',
} as const;

/** A code of {@link TEMPLATE_PROBLEMS}. */
export type TemplateProblemCode = keyof typeof TEMPLATE_PROBLEMS;

/** One thing {@link renderTemplate} bounded or could not read. */
export interface TemplateProblem {
  code: TemplateProblemCode;
  message: string;
  /** The variable concerned, when there is one. */
  name?: string;
}

/** What {@link renderTemplate} returns. */
export interface RenderTemplateResult {
  /** The source with every variable filled, every condition and repeat applied. */
  output: string;
  /** Names found in the source, once each, in order of first use. */
  used: string[];
  /** Names with no value in the data and no fallback: rendered as empty text. */
  missing: string[];
  /** Names with no value in the data that showed their fallback instead. */
  defaulted: string[];
  /** Names whose value was refused where a whole link or image URL was expected (not http(s), mailto, tel). */
  unsafe: string[];
  /** What was bounded (a runaway list, deep nesting, a huge output) or could not be read. */
  problems: TemplateProblem[];
}

/** A problem of the catalogue, its message filled from `values` (`name` also named apart). */
function templateProblem(
  code: TemplateProblemCode,
  values: Record<string, string | number>,
): TemplateProblem {
  const message = TEMPLATE_PROBLEMS[code].replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));
  return values.name === undefined ? { code, message } : { code, message, name: String(values.name) };
}

/** How deep conditions and repeats may nest in a source. */
export const MAX_TEMPLATE_DEPTH = 8;
/** Most repeated items in one render, all repeats together. */
export const MAX_TEMPLATE_ITEMS = 10_000;
/** Longest output, in characters. */
export const MAX_TEMPLATE_OUTPUT = 10_000_000;

const HTML_START = /^\s*(<!doctype|<[a-z!])/i;

/** Walks `a.b.c` from `from`, own properties only (no `__proto__` or `constructor` tricks). */
function walk(from: unknown, keys: readonly string[]): unknown {
  let value = from;
  for (const key of keys) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A value as text, or `undefined` for one that is not text, a number or a boolean. */
function scalar(value: unknown): string | undefined {
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

/** How one merge tag is filled, decided once from where it sits. */
type Fill = 'keep' | 'raw' | 'text' | 'href' | 'src' | 'part';

/** A merge tag of the source, with its place. */
interface VarRef {
  tag: string;
  name: string;
  keys: string[];
  fallback: string | undefined;
  fill: Fill;
}

type Piece = string | VarRef;

/** The source read as a tree: text with merge tags, conditions, repeats. */
type TNode =
  | { kind: 'text'; pieces: Piece[] }
  | { kind: 'if'; condition: Condition | null; body: TNode[] }
  | { kind: 'each'; name: string; keys: string[]; max: number; body: TNode[]; otherwise: TNode[] }
  | { kind: 'cut' };

/** Splits a stretch of the source into literal text and merge tags, deciding each tag's fill. */
function compileText(source: string, from: number, to: number, html: boolean): TNode {
  const pieces: Piece[] = [];
  const re = new RegExp(VARIABLE_TAG.source, 'g');
  re.lastIndex = from;
  let last = from;
  for (let m = re.exec(source); m && m.index + m[0].length <= to; m = re.exec(source)) {
    const [tag, name, fallback] = m as unknown as [string, string, string | undefined];
    if (m.index > last) pieces.push(source.slice(last, m.index));
    last = m.index + tag.length;
    let fill: Fill = html ? 'text' : 'raw';
    const attr = html ? attributeAt(source, m.index) : null;
    // The editor's round-trip markers describe the template, not one recipient's email: the
    // tags there stay, so a filled email given back to setContent() is the template again.
    if (attr?.name === 'data-attrs') fill = 'keep';
    else if (attr && (attr.name === 'href' || attr.name === 'src')) {
      const whole = attr.whole && /^\s*["']/.test(source.slice(last, last + 64));
      fill = whole ? (attr.name === 'src' ? 'src' : 'href') : 'part';
    }
    pieces.push({ tag, name, keys: name.split('.'), fallback, fill });
  }
  if (to > last) pieces.push(source.slice(last, to));
  return { kind: 'text', pieces };
}

const EACH_ARG = /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\s+max=(\d{1,7}))?$/;

interface Open {
  node: Extract<TNode, { kind: 'if' | 'each' }> | null;
  into: TNode[];
  type: 'if' | 'each';
  inElse: boolean;
}

/** Reads the source into a tree of text, conditions and repeats, naming what it cannot read. */
function compile(source: string, html: boolean, problem: (p: TemplateProblem) => void): TNode[] {
  const root: TNode[] = [];
  const stack: Open[] = [];
  let into = root;
  let last = 0;
  const re = new RegExp(CONTROL_TAG.source, 'g');
  const bad = (detail: string) =>
    problem(templateProblem('SEB_TEMPLATE_BAD_TAG', { detail: detail.slice(0, 200) }));
  let tooDeep = false;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const [tag, open, arg, otherwise, close] = m as unknown as [string, string?, string?, string?, string?];
    // a tag written inside an attribute is text there, never structure
    if (html && attributeAt(source, m.index)) continue;
    if (otherwise && !stack.length) continue; // `{{else}}` outside any block: a merge tag, as before
    if (m.index > last) into.push(compileText(source, last, m.index, html));
    last = m.index + tag.length;
    if (open) {
      const argument = html ? unescapeHtml(arg!) : arg!;
      let node: Extract<TNode, { kind: 'if' | 'each' }>;
      if (open === '#if') {
        const condition = parseCondition(argument);
        if (!condition) bad(`${tag}: unreadable condition`);
        node = { kind: 'if', condition, body: [] };
      } else {
        const each = EACH_ARG.exec(argument.trim());
        if (!each) bad(`${tag}: expected {{#each list max=N}}`);
        const name = each?.[1] ?? '';
        node = {
          kind: 'each',
          name,
          keys: name.split('.'),
          max: Math.min(MAX_EACH, Number(each?.[2] ?? MAX_EACH)),
          body: [],
          otherwise: [],
        };
      }
      const deep = stack.length >= MAX_TEMPLATE_DEPTH || stack.some((s) => s.node === null);
      if (deep && !tooDeep) {
        tooDeep = true;
        problem(templateProblem('SEB_TEMPLATE_TOO_DEEP', { limit: MAX_TEMPLATE_DEPTH }));
      }
      if (!deep) into.push(node);
      stack.push({ node: deep ? null : node, into, type: open === '#if' ? 'if' : 'each', inElse: false });
      into = deep ? [] : node.body;
    } else if (otherwise) {
      const top = stack[stack.length - 1]!;
      if (top.inElse) bad(`${tag}: a second else`);
      top.inElse = true;
      if (top.type === 'if') bad(`${tag}: {{#if}} has no else`);
      into = top.node?.kind === 'each' ? top.node.otherwise : [];
    } else {
      const top = stack[stack.length - 1];
      if (!top || top.type !== close) {
        bad(`${tag}: nothing to close`);
        continue;
      }
      stack.pop();
      into = top.into;
    }
  }
  if (source.length > last) into.push(compileText(source, last, source.length, html));
  if (stack.length) bad(`{{#${stack[stack.length - 1]!.type}}}: not closed`);
  return root;
}

/** The item a repeat is at, for `{{item.x}}`: innermost first. */
interface Scope {
  item: unknown;
}

/**
 * Fills the merge variables of a rendered email (`getHTML()` or `getText()` output, or any
 * text using the `{{name}}` / `{{name|fallback}}` syntax) from `data`, and applies its
 * conditions (`{{#if …}}…{{/if}}`) and repeats (`{{#each list}}…{{else}}…{{/each}}`, see
 * `variables/condition-syntax.ts`). Pure; runs in Node and in browsers.
 *
 * In HTML every value is escaped, so data can never add markup. Inside `href` and `src` a value
 * that is part of a URL is URL-encoded, and a value that is the whole URL must be an http(s),
 * mailto or tel link (http(s) for `src`), else it is dropped and named in `unsafe`. Fallbacks
 * are part of the template and are kept as written. Missing values are reported, never guessed.
 * A missing list repeats nothing (its `{{else}}` part shows); a runaway one (more than
 * {@link MAX_TEMPLATE_ITEMS} items in all, or nesting past {@link MAX_TEMPLATE_DEPTH}) is cut
 * short and named in `problems`, never an error.
 *
 * @example
 * const { output, missing } = renderTemplate(editor.getHTML(), { first_name: 'Ada', items: [{ name: 'Tea' }] });
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
  const problems: TemplateProblem[] = [];
  const seen = new Set<string>();
  const problem = (p: TemplateProblem) => {
    const key = `${p.code} ${p.name ?? p.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push(p);
  };
  const controlled = source.includes('{{') && new RegExp(CONTROL_TAG.source).test(source);
  const tree = controlled ? compile(source, html, problem) : [compileText(source, 0, source.length, html)];
  const scopes: Scope[] = [];
  let items = 0;
  let out = '';
  let full = false;

  const get = (keys: readonly string[]): unknown => {
    const scope = scopes[scopes.length - 1];
    if (scope && keys[0] === ITEM) return walk(scope.item, keys.slice(1));
    return walk(data, keys);
  };
  const fill = (ref: VarRef): string => {
    if (ref.fill === 'keep') return ref.tag;
    used.add(ref.name);
    const value = scalar(get(ref.keys));
    if (value === undefined) {
      if (ref.fallback?.trim()) {
        defaulted.add(ref.name);
        return ref.fallback.trim();
      }
      missing.add(ref.name);
      return '';
    }
    if (ref.fill === 'raw') return value;
    if (ref.fill === 'text') return escapeHtml(value);
    if (ref.fill === 'part') return escapeHtml(encodeURIComponent(value));
    const url = ref.fill === 'src' ? safeImageUrl(value) : safeLinkUrl(value);
    if (!url) unsafe.add(ref.name);
    return escapeHtml(url);
  };
  const emit = (text: string) => {
    if (full) return;
    if (out.length + text.length > MAX_TEMPLATE_OUTPUT) {
      full = true;
      problem(templateProblem('SEB_TEMPLATE_TOO_LARGE', { limit: MAX_TEMPLATE_OUTPUT }));
      return;
    }
    out += text;
  };
  const run = (nodes: readonly TNode[]): void => {
    for (const node of nodes) {
      if (full) return;
      if (node.kind === 'text') {
        for (const piece of node.pieces) emit(typeof piece === 'string' ? piece : fill(piece));
      } else if (node.kind === 'if') {
        if (node.condition && testCondition(node.condition, (name) => get(name.split('.')))) run(node.body);
      } else if (node.kind === 'each') {
        used.add(node.name);
        const list = node.name ? get(node.keys) : undefined;
        if (list !== undefined && list !== null && !Array.isArray(list))
          problem(templateProblem('SEB_TEMPLATE_NOT_A_LIST', { name: node.name }));
        const array = Array.isArray(list) ? list : [];
        if (array.length === 0) {
          run(node.otherwise);
          continue;
        }
        const room = Math.max(0, MAX_TEMPLATE_ITEMS - items);
        const shown = Math.min(array.length, node.max, room);
        if (shown < Math.min(array.length, node.max) || array.length > MAX_EACH)
          problem(
            templateProblem('SEB_TEMPLATE_TOO_MANY_ITEMS', { name: node.name, count: array.length, shown }),
          );
        items += shown;
        for (let i = 0; i < shown && !full; i++) {
          scopes.push({ item: array[i] });
          run(node.body);
          scopes.pop();
        }
      }
    }
  };
  run(tree);
  // Hidden blocks of the plain-text part leave their separators: one blank line between blocks.
  let output = out;
  if (controlled && !html) {
    output = output.replace(/\n{3,}/g, '\n\n');
    if (!source.startsWith('\n')) output = output.replace(/^\n+/, '');
    if (source.endsWith('\n')) output = output.replace(/\n\n$/, '\n');
  }
  return {
    output,
    used: [...used],
    missing: [...missing],
    defaulted: [...defaulted],
    unsafe: [...unsafe],
    problems,
  };
}
