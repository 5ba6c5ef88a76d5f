import type { ConditionOp } from '../model/condition.js';
import { isEmptyValue, testValue } from './condition-syntax.js';

/** Handlebars passes its options object last: the helper's own arguments are the others. */
const args = (list: unknown[]) => list.slice(0, -1);
const test =
  (op: ConditionOp) =>
  (value: unknown, expected?: unknown): boolean =>
    testValue({ op, value: expected as string }, value);

/**
 * The helpers the Handlebars output of `getHTML({ syntax: 'handlebars' })` calls, each with the
 * meaning `renderTemplate` gives its condition or repeat: `exists`, `empty`, `eq`, `ne`, `gt`,
 * `gte`, `lt`, `lte`, `and`, `or`, and `limit` (the first N items of a list; `[]` for what is not
 * one). `Handlebars.registerHelper(handlebarsHelpers)` registers them all.
 */
export const HANDLEBARS_HELPERS: Readonly<Record<string, (...values: unknown[]) => unknown>> = {
  exists: (value) => !isEmptyValue(value),
  empty: (value) => isEmptyValue(value),
  eq: (value, expected) => test('eq')(value, expected),
  ne: (value, expected) => test('ne')(value, expected),
  gt: (value, expected) => test('gt')(value, expected),
  gte: (value, expected) => test('gte')(value, expected),
  lt: (value, expected) => test('lt')(value, expected),
  lte: (value, expected) => test('lte')(value, expected),
  and: (...values) => args(values).every(Boolean),
  or: (...values) => args(values).some(Boolean),
  limit: (list, max) => (Array.isArray(list) ? list.slice(0, Number(max)) : []),
};
