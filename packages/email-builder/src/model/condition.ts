/**
 * A block's display condition (its `showIf` attribute): a test on one variable of the data, or
 * an `all` / `any` of conditions. Plain JSON, checked here, written as template tags by the
 * renderers and evaluated by `renderTemplate` (see `variables/condition-syntax.ts`).
 *
 * - `exists`: the variable has a value (not missing, `null`, `false`, `""` or an empty list);
 * - `empty`: the opposite;
 * - `eq` / `ne`: equal / not equal to `value` (a number compares as a number, text as text);
 * - `gt`, `gte`, `lt`, `lte`: a number compared with the number `value`.
 *
 * @example
 * { all: [{ var: 'plan', op: 'eq', value: 'trial' }, { var: 'discount', op: 'gt', value: 0 }] }
 */

import { isVariableName } from '../primitives/merge-tags.js';
export type Condition = ConditionTest | { all: Condition[] } | { any: Condition[] };

/** One test of a {@link Condition}. */
export interface ConditionTest {
  var: string;
  op: ConditionOp;
  value?: string | number | boolean;
}

/** The operators of a {@link ConditionTest}. */
export const CONDITION_OPS = ['exists', 'empty', 'eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const;

/** One operator of a {@link ConditionTest}. */
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** Most conditions in one `all` or `any`, and how deep they may nest. */
export const MAX_CONDITION_ITEMS = 20;
export const MAX_CONDITION_DEPTH = 4;
/** Longest text value a condition compares with. */
export const MAX_CONDITION_TEXT = 200;

const NUMERIC_OPS = new Set(['gt', 'gte', 'lt', 'lte']);

/**
 * Why `value` is not a usable {@link Condition}, with the path of the faulty part
 * (`all[1].op: …`), or `null` when it is one. Never throws, whatever `value` holds.
 *
 * @example
 * conditionProblem({ var: 'plan', op: 'is' }) // 'op: must be one of exists, empty, eq, …'
 */
export function conditionProblem(value: unknown, depth = 0, path = ''): string | null {
  const at = (what: string) => (path ? `${path}.${what}` : what);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `${path || 'showIf'}: expected an object such as {"var": "plan", "op": "eq", "value": "trial"}`;
  const v = value as Record<string, unknown>;
  for (const key of ['all', 'any'] as const) {
    if (!Object.hasOwn(v, key)) continue;
    if (Object.keys(v).length !== 1) return `${at(key)}: an "${key}" holds nothing else`;
    const list = v[key];
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CONDITION_ITEMS)
      return `${at(key)}: expected a list of 1 to ${MAX_CONDITION_ITEMS} conditions`;
    if (depth >= MAX_CONDITION_DEPTH)
      return `${at(key)}: conditions nest at most ${MAX_CONDITION_DEPTH} deep`;
    for (let i = 0; i < list.length; i++) {
      const problem = conditionProblem(list[i], depth + 1, `${at(key)}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  const extra = Object.keys(v).find((k) => k !== 'var' && k !== 'op' && k !== 'value');
  if (extra) return `${at(extra)}: unknown key (use var, op and value, or all / any)`;
  if (!isVariableName(v.var)) return `${at('var')}: expected a variable name such as "plan" or "order.total"`;
  if (typeof v.op !== 'string' || !(CONDITION_OPS as readonly string[]).includes(v.op))
    return `${at('op')}: must be one of ${CONDITION_OPS.join(', ')}`;
  if (v.op === 'exists' || v.op === 'empty') {
    return v.value === undefined ? null : `${at('value')}: "${v.op}" takes no value`;
  }
  if (NUMERIC_OPS.has(v.op))
    return typeof v.value === 'number' && Number.isFinite(v.value)
      ? null
      : `${at('value')}: "${v.op}" compares with a number`;
  if (typeof v.value === 'number')
    return Number.isFinite(v.value) ? null : `${at('value')}: not a finite number`;
  if (typeof v.value === 'boolean') return null;
  if (typeof v.value !== 'string')
    return `${at('value')}: "${v.op}" compares with text, a number or true/false`;
  if (v.value.length > MAX_CONDITION_TEXT || /[{}\r\n]/.test(v.value))
    return `${at('value')}: at most ${MAX_CONDITION_TEXT} characters, without braces or line breaks`;
  return null;
}

/** True for a usable {@link Condition} (see {@link conditionProblem}). */
export function isCondition(value: unknown): value is Condition {
  return conditionProblem(value) === null;
}

/**
 * The document JSON without `showIf: null` (blocks without a condition), as stored before
 * conditions existed: the editor's schema gives every block the attribute, `getJSON()` leaves
 * the empty ones out. Returns a new tree; `json` is not changed.
 */
export function withoutEmptyConditions<T extends { attrs?: Record<string, unknown>; content?: T[] }>(
  json: T,
): T {
  const out = { ...json };
  if (out.attrs && Object.hasOwn(out.attrs, 'showIf') && out.attrs.showIf === null) {
    const { showIf: _none, ...rest } = out.attrs;
    out.attrs = rest;
  }
  if (out.content) out.content = out.content.map(withoutEmptyConditions);
  return out;
}
