import { declaredType, type VariableOption, type VariableType } from './shape.js';

/**
 * A variable as the editor's menus offer it at one place of the email: its whole path
 * (`customer.email`, `item.price` inside a repeat), what it holds, and how it is shown.
 */
export interface ScopedVariable {
  path: string;
  type: VariableType;
  label?: string;
  fallback?: string;
  /** Whether the `{{` menu lists it: a value to write, not an object or a list (see below). */
  writable: boolean;
  /** A list's items' fields (declared in `of`, or read from its sample items). */
  of?: readonly VariableOption[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** The type of a value, as a variable's: a sample read when the variable declares none. */
function typeOf(value: unknown): VariableType {
  if (Array.isArray(value)) return 'array';
  if (isObject(value)) return 'object';
  const t = typeof value;
  return t === 'number' || t === 'boolean' ? t : 'text';
}

/** The fields an object `sample` (or each of a list of them) shows, for a variable declaring none. */
function fieldsOf(sample: unknown): VariableOption[] {
  const merged = Object.assign({}, ...(Array.isArray(sample) ? sample : [sample]).filter(isObject));
  return Object.entries(merged)
    .filter(([name]) => /^[A-Za-z_]\w{0,63}$/.test(name))
    .map(([name, s]) => ({ name, sample: s as VariableOption['sample'] }));
}

/**
 * `v` at `path` and what it reaches: an object's fields at `path.field`, at most 4 deep (a
 * sample may refer to itself). An object or a list declared as such (`type`, `fields`, `of`) is
 * not written as a tag; a variable declaring nothing is listed as it always was (`top`),
 * whatever its sample.
 */
function describe(v: VariableOption, path: string, top: boolean, depth = 0): ScopedVariable[] {
  const declared = declaredType(v);
  const type = declared ?? typeOf(v.sample);
  const self: ScopedVariable = {
    path,
    type,
    label: v.label,
    fallback: v.fallback,
    writable: (type !== 'object' && type !== 'array') || (top && declared === undefined),
  };
  if (type === 'array') self.of = v.of ?? fieldsOf(v.sample);
  if (type !== 'object' || depth > 3) return [self];
  const fields = v.fields ?? fieldsOf(v.sample);
  return [self, ...fields.flatMap((f) => describe(f, `${path}.${f.name}`, false, depth + 1))];
}

/**
 * The variables at a place of the email: those of the `variables` option with their nested
 * paths (`customer.email`), and, inside repeats, the item of the innermost one (`item.price`).
 * `repeats` are the lists of the repeats around the place, outermost first (`['orders',
 * 'item.lines']`: an inner repeat's list may be a field of the outer item). The item comes
 * first; a repeat over a list nobody describes adds nothing, a list of plain values `item`.
 */
export function variablesInScope(
  variables: readonly VariableOption[],
  repeats: readonly string[] = [],
): ScopedVariable[] {
  const all = variables.flatMap((v) => describe(v, v.name, true));
  let item: ScopedVariable[] = [];
  for (const each of repeats) {
    const list = [...item, ...all].find((s) => s.path === each && s.type === 'array');
    const sample = list?.of?.length ? undefined : variables.find((v) => v.name === each)?.sample;
    item = !list
      ? []
      : list.of?.length
        ? list.of.flatMap((f) => describe(f, `item.${f.name}`, false))
        : [{ path: 'item', type: typeOf(Array.isArray(sample) ? sample[0] : ''), writable: true }];
  }
  return [...item, ...all];
}
