/**
 * The data the editor's preview fills the email with: each variable's `sample`, at its dotted
 * path (`order.total` → `{ order: { total } }`), lists included, so a repeat shows sample items.
 */
export function sampleData(
  variables: readonly { name: string; sample?: unknown }[],
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const { name, sample } of variables) {
    if (sample === undefined || sample === null) continue;
    const keys = name.split('.');
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
