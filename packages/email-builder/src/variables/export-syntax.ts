/**
 * The editor's output for other template engines: its merge tags, conditions and repeats (see
 * `syntax.ts` and `condition-syntax.ts`) rewritten in Handlebars, Liquid or Mustache, so a
 * rendered email can be stored as an SES, SendGrid or Postmark template, or used with Liquid.
 * The README's "Other template engines" lists each mapping and what an engine cannot express.
 */
import { ServiceEditorError } from '../errors.js';
import type { Condition, ConditionTest } from '../model/condition.js';
import { unescapeHtml } from '../primitives/escape.js';
import { VARIABLE_TAG } from '../primitives/merge-tags.js';
import { CONTROL_TAG, ITEM, parseCondition } from './condition-syntax.js';

/** The template engines `getHTML({ syntax })`, `renderEmail` and `renderText` write for. */
export const TEMPLATE_SYNTAXES = ['handlebars', 'liquid', 'mustache'] as const;

/** One of {@link TEMPLATE_SYNTAXES}. */
export type TemplateSyntax = (typeof TEMPLATE_SYNTAXES)[number];

/** Braces as character references: text no engine reads as a tag, which HTML parsers read back as braces. */
const inert = (tag: string) => tag.replace(/\{/g, '&#123;').replace(/\}/g, '&#125;');

/** The name of the attribute a position of the HTML is in, or `null` in text (as `renderTemplate` decides). */
function attributeAt(html: string, index: number): { name: string; whole: boolean } | null {
  const open = html.lastIndexOf('<', index);
  if (open === -1 || html.lastIndexOf('>', index) > open) return null;
  const attr = /([^\s"'<>/=]+)\s*=\s*(["']?)([^"']*)$/.exec(html.slice(open, index));
  return attr ? { name: attr[1]!.toLowerCase(), whole: attr[3] === '' } : { name: '', whole: false };
}

/** A literal for an engine without escapes in strings: double quotes, or single when the text holds `"`. */
function literal(value: ConditionTest['value'], syntax: TemplateSyntax): string {
  if (typeof value !== 'string') return String(value);
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  throw new ServiceEditorError('SEB_ERR_SYNTAX', {
    syntax,
    reason: `the condition value ${JSON.stringify(value)} holds both kinds of quotes`,
  });
}

interface Open {
  kind: 'if' | 'each';
  /** What closes it in the engine. */
  close: string;
  /** For a Mustache repeat: its section name, for the `{{else}}` part. */
  section?: string;
}

/** A variable's path in the engine, at the current depth of repeats. */
type PathOf = (name: string) => string;

/**
 * Rewrites the editor's own template syntax in `source` (what `renderEmail` / `renderText`
 * write) for `syntax`. `format` says whether `source` is HTML (values escaped by the engine,
 * tags in the round-trip markers made inert) or plain text (values as they are). Throws
 * `SEB_ERR_SYNTAX` for what the engine cannot express (Mustache: comparisons and `any`).
 */
export function toSyntax(source: string, syntax: TemplateSyntax, format: 'html' | 'text'): string {
  const html = format === 'html';
  const re = new RegExp(`${CONTROL_TAG.source}|${VARIABLE_TAG.source}`, 'g');
  const stack: Open[] = [];
  /** How many repeats the current position is in. */
  const depth = () => stack.filter((s) => s.kind === 'each').length;
  const isItem = (name: string) => name === ITEM || name.startsWith(`${ITEM}.`);
  let flags = 0;
  const fail = (reason: string) => new ServiceEditorError('SEB_ERR_SYNTAX', { syntax, reason });

  // Handlebars: inside `{{#each list as |item|}}` names resolve against the item, so the data's
  // own names are read from `@root`. Liquid: one scope, names as they are. Mustache: the item is
  // the context, so `item.x` is `x` and `item` is `.`; other names are found up the stack.
  const path: PathOf = (name) => {
    if (syntax === 'handlebars') return depth() > 0 && !isItem(name) ? `@root.${name}` : name;
    if (syntax === 'mustache' && depth() > 0 && isItem(name))
      return name === ITEM ? '.' : name.slice(ITEM.length + 1);
    return name;
  };

  const variable = (name: string, fallback: string | undefined, where: 'text' | 'raw' | 'part'): string => {
    const p = path(name);
    const fb = fallback?.trim();
    if (syntax === 'handlebars') {
      const value = where === 'raw' ? `{{{${p}}}}` : `{{${p}}}`;
      return fb ? `{{#if ${p} includeZero=true}}${value}{{else}}${fb}{{/if}}` : value;
    }
    if (syntax === 'liquid') {
      const filters = where === 'raw' ? '' : where === 'part' ? ' | url_encode | escape' : ' | escape';
      const value = `{{ ${p}${filters} }}`;
      return fb ? `{% if ${p} != nil %}${value}{% else %}${fb}{% endif %}` : value;
    }
    const value = where === 'raw' ? `{{{${p}}}}` : `{{${p}}}`;
    return fb ? `{{#${p}}}${value}{{/${p}}}{{^${p}}}${fb}{{/${p}}}` : value;
  };

  const handlebarsTest = (c: Condition): string => {
    if ('all' in c) return `(and ${c.all.map(handlebarsTest).join(' ')})`;
    if ('any' in c) return `(or ${c.any.map(handlebarsTest).join(' ')})`;
    const value = c.op === 'exists' || c.op === 'empty' ? '' : ` ${literal(c.value, syntax)}`;
    return `(${c.op} ${path(c.var)}${value})`;
  };

  /** A Liquid test of one leaf: `if` or `unless` with an expression free of mixed and/or. */
  const liquidLeaf = (c: ConditionTest): { tag: 'if' | 'unless'; expr: string } => {
    const p = path(c.var);
    const symbols = { eq: '==', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
    if (c.op === 'exists') return { tag: 'if', expr: `${p} and ${p} != empty` };
    if (c.op === 'empty') return { tag: 'unless', expr: `${p} and ${p} != empty` };
    return { tag: 'if', expr: `${p} ${symbols[c.op]} ${literal(c.value, syntax)}` };
  };
  /**
   * Liquid has no parentheses (and/or bind right to left), so a condition that is not one test
   * or a plain `and` of tests is computed into a variable first: `sv_if1`, true when it holds.
   */
  const liquidFlag = (c: Condition, flag: string): string => {
    if ('var' in c) {
      const { tag, expr } = liquidLeaf(c);
      return `{% assign ${flag} = false %}{% ${tag} ${expr} %}{% assign ${flag} = true %}{% end${tag} %}`;
    }
    const all = 'all' in c;
    const parts = (all ? c.all : c.any).map((item) => {
      const inner = `sv_if${++flags}`;
      return `${liquidFlag(item, inner)}{% ${all ? 'unless' : 'if'} ${inner} %}{% assign ${flag} = ${!all} %}{% end${all ? 'unless' : 'if'} %}`;
    });
    return `{% assign ${flag} = ${all} %}${parts.join('')}`;
  };

  const openIf = (c: Condition): [string, Open] => {
    if (syntax === 'handlebars') {
      if ('var' in c && (c.op === 'exists' || c.op === 'empty')) {
        const tag = c.op === 'exists' ? 'if' : 'unless';
        return [`{{#${tag} ${path(c.var)} includeZero=true}}`, { kind: 'if', close: `{{/${tag}}}` }];
      }
      return [`{{#if ${handlebarsTest(c)}}}`, { kind: 'if', close: '{{/if}}' }];
    }
    if (syntax === 'liquid') {
      if ('var' in c) {
        const { tag, expr } = liquidLeaf(c);
        return [`{% ${tag} ${expr} %}`, { kind: 'if', close: `{% end${tag} %}` }];
      }
      if ('all' in c && c.all.every((x) => 'var' in x && x.op !== 'empty'))
        return [
          `{% if ${c.all.map((x) => liquidLeaf(x as ConditionTest).expr).join(' and ')} %}`,
          { kind: 'if', close: '{% endif %}' },
        ];
      const flag = `sv_if${++flags}`;
      return [`${liquidFlag(c, flag)}{% if ${flag} %}`, { kind: 'if', close: '{% endif %}' }];
    }
    // Mustache: sections test whether a value is there; nothing compares, nothing is "or".
    const sections = (x: Condition): [string, string][] => {
      if ('any' in x) throw fail('Mustache has no "or": a condition with "any" cannot be written');
      if ('all' in x) return x.all.flatMap(sections);
      if (x.op !== 'exists' && x.op !== 'empty')
        throw fail(
          `Mustache cannot compare values: "${x.var} ${x.op}" cannot be written (only exists and empty can)`,
        );
      const p = path(x.var);
      return [[`{{${x.op === 'exists' ? '#' : '^'}${p}}}`, `{{/${p}}}`]];
    };
    const list = sections(c);
    return [
      list.map(([open]) => open).join(''),
      {
        kind: 'if',
        close: list
          .map(([, close]) => close)
          .reverse()
          .join(''),
      },
    ];
  };

  const openEach = (name: string, max: number): [string, Open] => {
    const p = path(name);
    if (syntax === 'handlebars')
      return [`{{#each (limit ${p} ${max}) as |${ITEM}|}}`, { kind: 'each', close: '{{/each}}' }];
    if (syntax === 'liquid')
      return [`{% for ${ITEM} in ${p} limit: ${max} %}`, { kind: 'each', close: '{% endfor %}' }];
    return [`{{#${p}}}`, { kind: 'each', close: `{{/${p}}}`, section: p }];
  };

  let out = '';
  let last = 0;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const [tag, open, arg, otherwise, close, name, fallback] = m as unknown as (string | undefined)[];
    const attr = html ? attributeAt(source, m.index) : null;
    out += source.slice(last, m.index);
    last = m.index + tag!.length;
    // In an attribute (the round-trip markers, a link): a merge tag is filled there as
    // renderTemplate fills it; markers and control tags stay the editor's own, made inert.
    if (attr && (attr.name === 'data-attrs' || !name)) {
      out += inert(tag!);
      continue;
    }
    if (name !== undefined) {
      const where = !html
        ? 'raw'
        : attr && (attr.name === 'href' || attr.name === 'src') && !attr.whole
          ? 'part'
          : 'text';
      out += variable(name, fallback, where);
      continue;
    }
    if (open) {
      const argument = html ? unescapeHtml(arg!) : arg!;
      if (open === '#if') {
        const condition = parseCondition(argument);
        if (!condition) throw fail(`the condition ${tag} is not readable`);
        const [text, entry] = openIf(condition);
        out += text;
        stack.push(entry);
      } else {
        const each = /^([A-Za-z_][A-Za-z0-9_.]*)(?:\s+max=(\d+))?$/.exec(argument.trim());
        if (!each) throw fail(`the repeat ${tag} is not readable`);
        const [text, entry] = openEach(each[1]!, Number(each[2] ?? 1000));
        out += text;
        stack.push(entry);
      }
    } else if (otherwise) {
      const top = stack[stack.length - 1];
      if (!top) {
        out += variable('else', undefined, html ? 'text' : 'raw');
        continue;
      }
      if (top.kind !== 'each') throw fail('{{else}} belongs to a repeat');
      if (syntax === 'mustache') {
        // the empty state is an inverted section of the list, after it
        out += `${top.close}{{^${top.section}}}`;
        top.kind = 'if'; // what follows is outside the repeat: names are the data's again
      } else out += syntax === 'liquid' ? '{% else %}' : '{{else}}';
    } else if (close) {
      const top = stack.pop();
      if (!top) throw fail(`${tag} closes nothing`);
      out += top.close;
    }
  }
  if (stack.length) throw fail('a condition or repeat is not closed');
  return out + source.slice(last);
}

/**
 * The Handlebars helpers the Handlebars output calls, with `renderTemplate`'s meaning: `eq`,
 * `ne`, `gt`, `gte`, `lt`, `lte`, `exists`, `empty`, `and`, `or`, and `limit` (the first N items
 * of a list, `[]` for anything else). Register them once: `Handlebars.registerHelper(handlebarsHelpers)`.
 * Engines that take Handlebars templates with their own helper set (SES, SendGrid) need these
 * names there; see the README.
 */
export { HANDLEBARS_HELPERS as handlebarsHelpers } from './handlebars-helpers.js';
