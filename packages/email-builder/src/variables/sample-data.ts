import type { VariableOption } from './shape.js';

/**
 * The sample of one variable: its own `sample`, else one made of its fields' samples (an
 * object's `fields`; a list of one item of its `of` fields), else `undefined`.
 */
export function sampleOf(v: VariableOption): unknown {
  if (v.sample !== undefined || !(v.fields ?? v.of)) return v.sample;
  const made: Record<string, unknown> = {};
  for (const f of (v.fields ?? v.of)!) {
    const s = sampleOf(f);
    if (s != null) made[f.name] = s;
  }
  if (Object.keys(made).length === 0) return undefined;
  return v.fields ? made : [made];
}

/**
 * The data the editor's preview fills the email with: each variable's sample (see
 * {@link sampleOf}), at its dotted path (`order.total` → `{ order: { total } }`), lists
 * included, so a repeat shows sample items and a condition follows the samples.
 */
export function sampleData(variables: readonly VariableOption[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const v of variables) {
    const sample = sampleOf(v);
    if (sample === undefined || sample === null) continue;
    const keys = v.name.split('.');
    let at = data;
    for (const key of keys.slice(0, -1)) {
      const next = Object.hasOwn(at, key) ? at[key] : undefined;
      const inner = next && typeof next === 'object' && !Array.isArray(next) ? next : {};
      at[key] = inner;
      at = inner as Record<string, unknown>;
    }
    at[keys[keys.length - 1]!] = sample;
  }
  return data;
}
