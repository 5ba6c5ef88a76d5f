/**
 * Conditions and repeats in the editor's own template syntax, beside its merge tags
 * (`primitives/merge-tags.ts`):
 *
 * - `{{#if EXPR}}…{{/if}}`: shown when EXPR holds. EXPR is a variable (`plan`: it has a value),
 *   `!plan` (it has none), a comparison (`plan == "trial"`, `total >= 10`; `==`, `!=`, `>`,
 *   `>=`, `<`, `<=` with a JSON string, a number, `true` or `false`), joined with `&&` and `||`
 *   and grouped with parentheses;
 * - `{{#each items max=N}}…{{else}}…{{/each}}`: the part before `{{else}}` once per item of the
 *   list `items` (at most N), where `{{item.field}}` (or `{{item}}`) reads the item; the part
 *   after `{{else}}` when the list is empty or missing.
 *
 * The renderers write these from a block's `showIf` and from `repeat` blocks; `renderTemplate`
 * evaluates them; `export-syntax.ts` turns them into Handlebars, Liquid or Mustache.
 */
import { ServiceEditorError } from '../errors.js';
import {
  type Condition,
  type ConditionOp,
  type ConditionTest,
  conditionProblem,
  MAX_CONDITION_DEPTH,
  MAX_CONDITION_ITEMS,
  MAX_CONDITION_TEXT,
} from '../model/condition.js';
import { escapeHtml } from '../primitives/escape.js';

/** Most items a repeat shows when its tag gives no `max`, and the highest `max` there is. */
export const MAX_EACH = 1000;

/** The name by which a repeat's content reads its current item: `{{item.name}}`. */
export const ITEM = 'item';

/**
 * One control tag anywhere in a text: group 1 `#if` or `#each` with its argument in group 2,
 * group 3 `else`, group 4 `if` or `each` for a closing tag. Global: use with `exec` or `matchAll`.
 */
export const CONTROL_TAG = /\{\{\s*(?:(#if|#each)\s+([^{}]*?)|(else)|\/(if|each))\s*\}\}/g;

const SYMBOLS: Record<Exclude<ConditionOp, 'exists' | 'empty'>, string> = {
  eq: '==',
  ne: '!=',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};
const NUMERIC_OPS = new Set<ConditionOp>(['gt', 'gte', 'lt', 'lte']);
const OPS_BY_SYMBOL = new Map(Object.entries(SYMBOLS).map(([op, symbol]) => [symbol, op as ConditionOp]));

/** Writes a (checked) condition as an expression: `plan == "trial" && (total > 10 || !coupon)`. */
export function formatCondition(condition: Condition): string {
  if ('all' in condition) return condition.all.map((c) => group(c)).join(' && ');
  if ('any' in condition) return condition.any.map((c) => group(c)).join(' || ');
  const { var: name, op, value } = condition;
  if (op === 'exists') return name;
  if (op === 'empty') return `!${name}`;
  return `${name} ${SYMBOLS[op]} ${JSON.stringify(value)}`;
}

const group = (c: Condition) => ('var' in c ? formatCondition(c) : `(${formatCondition(c)})`);

const TOKEN =
  /\s*(?:(\(|\)|&&|\|\||==|!=|>=|<=|>|<|!)|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*))/y;

/**
 * Reads an expression of `{{#if …}}` back into a {@link Condition}, or `null` when it is not
 * one (then nothing it guards is shown). Never throws.
 */
export function parseCondition(source: string): Condition | null {
  const tokens: { kind: 'sym' | 'str' | 'num' | 'word'; text: string }[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null = TOKEN.exec(source);
  while (m) {
    const kind = m[1] ? 'sym' : m[2] ? 'str' : m[3] ? 'num' : 'word';
    tokens.push({ kind, text: (m[1] ?? m[2] ?? m[3] ?? m[4])! });
    if (TOKEN.lastIndex >= source.length) break;
    m = TOKEN.exec(source);
  }
  if (source.slice(TOKEN.lastIndex).trim() !== '' || (tokens.length === 0 && source.trim() !== ''))
    return null;
  let at = 0;
  let depth = 0;
  const peek = () => tokens[at]?.text;
  // the model's bounds, checked here without its messages (renderTemplate stays small): names of
  // 64 characters, texts of 200, 20 conditions in a list, 4 levels; deeper parentheses stop the
  // parser before they could exhaust the stack
  const name = (token: { kind: string; text: string } | undefined) =>
    token?.kind === 'word' && token.text.length <= 64 ? token.text : null;
  const list = (sep: '&&' | '||', next: () => Condition | null, key: 'all' | 'any'): Condition | null => {
    const items: Condition[] = [];
    for (;;) {
      const c = next();
      if (!c) return null;
      // `(a && b) && c` is one `all` of three: the same condition, as the renderers write it
      if (key in c) items.push(...(c as Record<string, Condition[]>)[key]!);
      else items.push(c);
      if (peek() !== sep) break;
      at++;
    }
    if (items.length > MAX_CONDITION_ITEMS) return null;
    return items.length === 1 ? items[0]! : ({ [key]: items } as Condition);
  };
  const or = (): Condition | null => list('||', and, 'any');
  const and = (): Condition | null => list('&&', unary, 'all');
  const unary = (): Condition | null => {
    const token = tokens[at++];
    if (!token) return null;
    if (token.text === '(') {
      if (++depth > MAX_CONDITION_DEPTH) return null;
      const inner = or();
      depth--;
      return tokens[at++]?.text === ')' ? inner : null;
    }
    if (token.text === '!') {
      const empty = name(tokens[at++]);
      return empty ? { var: empty, op: 'empty' } : null;
    }
    const variable = name(token);
    if (!variable) return null;
    const op = OPS_BY_SYMBOL.get(peek() ?? '');
    if (!op) return { var: variable, op: 'exists' };
    at++;
    const literal = tokens[at++];
    if (!literal) return null;
    let value: string | number | boolean;
    if (literal.kind === 'num') value = Number(literal.text);
    else if (NUMERIC_OPS.has(op)) return null;
    else if (literal.kind === 'str') {
      try {
        value = JSON.parse(literal.text) as string;
      } catch {
        return null;
      }
      if (value.length > MAX_CONDITION_TEXT || /[\r\n]/.test(value)) return null;
    } else if (literal.text === 'true' || literal.text === 'false') value = literal.text === 'true';
    else return null;
    return Number.isFinite(value) || typeof value !== 'number' ? { var: variable, op, value } : null;
  };
  const condition = or();
  return condition && at === tokens.length ? condition : null;
}

/** Whether a value counts as empty: missing, `null`, `false`, `""` or an empty list. */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === false ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** A number, or a string that is one (`"15"`), else `undefined`. */
function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** One test against its variable's value: like compares with like (a number with a number). */
export function testValue(test: Pick<ConditionTest, 'op' | 'value'>, value: unknown): boolean {
  switch (test.op) {
    case 'exists':
      return !isEmptyValue(value);
    case 'empty':
      return isEmptyValue(value);
    case 'eq':
      return value === test.value;
    case 'ne':
      return value !== test.value;
    default: {
      const n = asNumber(value);
      const limit = test.value as number;
      if (n === undefined) return false;
      if (test.op === 'gt') return n > limit;
      if (test.op === 'gte') return n >= limit;
      if (test.op === 'lt') return n < limit;
      return n <= limit;
    }
  }
}

/** Evaluates a condition, reading each variable with `get` (a name to its raw value). */
export function testCondition(condition: Condition, get: (name: string) => unknown): boolean {
  if ('all' in condition) return condition.all.every((c) => testCondition(c, get));
  if ('any' in condition) return condition.any.some((c) => testCondition(c, get));
  return testValue(condition, get(condition.var));
}

/**
 * The checked `showIf` of a stored block, or `undefined` when it has none. Throws
 * `SEB_ERR_BAD_CONDITION` for one that is not a condition: a block meant for some readers only
 * is never shown to all of them by mistake.
 */
export function blockCondition(
  attrs: Record<string, unknown> | undefined,
  block: string,
): Condition | undefined {
  const showIf = attrs?.showIf;
  if (showIf === undefined || showIf === null) return undefined;
  const problem = conditionProblem(showIf);
  if (problem) throw new ServiceEditorError('SEB_ERR_BAD_CONDITION', { block, reason: problem });
  return showIf as Condition;
}

/** `html` guarded by the block's `showIf` in the editor's syntax (tags escaped for HTML), if it has one. */
export function guardHtml(attrs: Record<string, unknown> | undefined, block: string, html: string): string {
  const condition = blockCondition(attrs, block);
  return condition ? `${escapeHtml(`{{#if ${formatCondition(condition)}}}`)}${html}{{/if}}` : html;
}

/** {@link guardHtml} for the plain-text part: the tags on lines of their own. */
export function guardText(attrs: Record<string, unknown> | undefined, block: string, text: string): string {
  const condition = blockCondition(attrs, block);
  return condition ? `{{#if ${formatCondition(condition)}}}\n${text}\n{{/if}}` : text;
}
