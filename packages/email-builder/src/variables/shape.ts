/** What a variable holds (`text` for a string). */
export type VariableType = 'text' | 'number' | 'boolean' | 'object' | 'array';

/**
 * A variable the host offers (option `variables`): a name alone, or a shape the menus and the
 * preview read. An object lists its `fields`, a list (`array`) its items' fields in `of`, each
 * field a `VariableOption` whose `name` is one key (`price`), so `{{customer.email}}` and, inside
 * a repeat over `items`, `{{item.price}}` are offered.
 *
 * @example
 * { name: 'items', type: 'array', of: [{ name: 'name', sample: 'Socks' }, { name: 'price', type: 'number', sample: 12.5 }] }
 */
export interface VariableOption {
  name: string;
  /** What the menu shows (default: the name). */
  label?: string;
  /** Fallback filled in when the variable is inserted. */
  fallback?: string;
  /**
   * What it holds. Without it: `object` when it has `fields`, `array` when it has `of`, else what
   * its sample is (text when it has none).
   */
  type?: VariableType;
  /** An object's fields. */
  fields?: readonly VariableOption[];
  /** A list's items' fields (items that are objects); without it, a list of plain values. */
  of?: readonly VariableOption[];
  /**
   * A made-up value the editor's preview shows for it ("Ada"), never part of `getHTML()`: text, a
   * number, `true`/`false`, a list of items for a repeat (`[{ name: 'Tea' }]`) or an object.
   * Without it, an object's or a list's sample is made of its fields' samples (a list of one item).
   */
  sample?: string | number | boolean | readonly unknown[] | Readonly<Record<string, unknown>>;
}

/** The type `v` declares (`type`) or implies (`fields`, `of`); `undefined` when it says none. */
export function declaredType(v: VariableOption): VariableType | undefined {
  return v.type ?? (v.fields ? 'object' : v.of ? 'array' : undefined);
}
