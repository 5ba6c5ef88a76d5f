import { isHexColor } from '../primitives/color.js';
import { safeImageUrl, safeLinkUrl } from '../primitives/url.js';

/**
 * An attribute of a block or mark: its default, how a stored value is checked, and how the
 * block's settings form shows it. Declared once per block; the ProseMirror spec, the parser, the
 * renderer and the settings form all read from it.
 */
export type AttrSpec =
  | {
      kind: 'text';
      default: string;
      label?: string;
      max?: number;
      multiline?: boolean;
      /** It names a list variable: the settings form offers the `variables` option's lists. */
      list?: boolean;
    }
  | { kind: 'link'; default: string; label?: string }
  | { kind: 'image'; default: string; label?: string; upload?: boolean }
  | { kind: 'color'; default: string; label?: string; optional?: boolean }
  | {
      kind: 'number';
      default: number;
      label?: string;
      min: number;
      max: number;
      step?: number;
      unit?: string;
    }
  | {
      kind: 'choice';
      default: string;
      label?: string;
      options: readonly string[];
      labels?: readonly string[];
    }
  | { kind: 'bool'; default: boolean; label?: string }
  | {
      kind: 'list';
      default: readonly Record<string, string>[];
      label?: string;
      item: Record<string, AttrSpec>;
    };

/** The attribute table of one block or mark. */
export type AttrTable = Record<string, AttrSpec>;

/** The spec of one kind of attribute. */
type SpecOf<K extends AttrSpec['kind']> = Extract<AttrSpec, { kind: K }>;

/** The checked value an attribute of a spec holds. */
export type AttrValue<S extends AttrSpec> = S extends { kind: 'number' }
  ? number
  : S extends { kind: 'bool' }
    ? boolean
    : S extends { kind: 'list' }
      ? Record<string, string>[]
      : string;

/**
 * The checked attributes of a table, typed: what a block's renderers receive. Every key is
 * present (missing or unfit values took their defaults).
 */
export type AttrValues<T extends AttrTable> = { [K in keyof T]: AttrValue<T[K]> };

/** Builders that keep attribute tables short and typed. */
export const a = {
  text: (def: string, label?: string, max = 500): SpecOf<'text'> => ({
    kind: 'text',
    default: def,
    label,
    max,
  }),
  longText: (def: string, label?: string): SpecOf<'text'> => ({
    kind: 'text',
    default: def,
    label,
    max: 2000,
    multiline: true,
  }),
  link: (label = 'Link'): SpecOf<'link'> => ({ kind: 'link', default: '', label }),
  image: (label: string, upload = true): SpecOf<'image'> => ({ kind: 'image', default: '', label, upload }),
  color: (def: string, label?: string): SpecOf<'color'> => ({
    kind: 'color',
    default: def,
    label,
    optional: def === '',
  }),
  number: (
    def: number,
    min: number,
    max: number,
    label?: string,
    unit = 'px',
    step = 1,
  ): SpecOf<'number'> => ({
    kind: 'number',
    default: def,
    min,
    max,
    label,
    unit,
    step,
  }),
  choice: (
    def: string,
    options: readonly string[],
    label?: string,
    labels?: readonly string[],
  ): SpecOf<'choice'> => ({
    kind: 'choice',
    default: def,
    options,
    label,
    labels,
  }),
  bool: (def: boolean, label?: string): SpecOf<'bool'> => ({ kind: 'bool', default: def, label }),
  list: (item: Record<string, AttrSpec>, label?: string): SpecOf<'list'> => ({
    kind: 'list',
    default: [],
    label,
    item,
  }),
  align: (def = 'left'): SpecOf<'choice'> => ({
    kind: 'choice',
    default: def,
    options: ['left', 'center', 'right'],
    label: 'Alignment',
    labels: ['Left', 'Center', 'Right'],
  }),
};

/** The defaults of an attribute table, as ProseMirror's `attrs` spec wants them. */
export function pmAttrs(table: AttrTable): Record<string, { default: unknown }> {
  const out: Record<string, { default: unknown }> = {};
  for (const [key, spec] of Object.entries(table)) out[key] = { default: spec.default };
  return out;
}

/** Checks one value against its spec; returns the spec's default when the value does not fit. */
export function cleanValue(spec: AttrSpec, value: unknown): unknown {
  switch (spec.kind) {
    case 'text':
      return typeof value === 'string'
        ? value.slice(0, spec.max ?? 500)
        : typeof value === 'number'
          ? String(value)
          : spec.default;
    case 'link':
      return safeLinkUrl(value);
    case 'image':
      return safeImageUrl(value);
    case 'color':
      if (value === '' && spec.optional) return '';
      return isHexColor(value) ? value.toLowerCase() : spec.default;
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) return spec.default;
      return Math.min(spec.max, Math.max(spec.min, Math.round(n / (spec.step ?? 1)) * (spec.step ?? 1)));
    }
    case 'choice':
      return typeof value === 'string' && spec.options.includes(value) ? value : spec.default;
    case 'bool':
      return typeof value === 'boolean'
        ? value
        : value === 'true'
          ? true
          : value === 'false'
            ? false
            : spec.default;
    case 'list': {
      if (!Array.isArray(value)) return spec.default;
      return value.slice(0, 20).flatMap((item) => {
        if (item === null || typeof item !== 'object') return [];
        return [cleanAttrs(spec.item, item as Record<string, unknown>) as Record<string, string>];
      });
    }
  }
}

/**
 * Checks every attribute of a stored node or mark against its table: unknown keys are dropped,
 * missing or unfit values take their defaults, URLs and colours that fail their check are emptied.
 */
export function cleanAttrs<T extends AttrTable>(
  table: T,
  raw: Record<string, unknown> | null | undefined,
): AttrValues<T> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    out[key] = raw && Object.hasOwn(raw, key) ? cleanValue(spec, raw[key]) : spec.default;
  }
  return out as AttrValues<T>;
}

/** The attributes that differ from their defaults, for compact `data-attrs` round-trip markers. */
export function changedAttrs(
  table: AttrTable,
  attrs: Record<string, unknown>,
): Record<string, unknown> | null {
  let out: Record<string, unknown> | null = null;
  for (const [key, spec] of Object.entries(table)) {
    const value = attrs[key];
    if (value === undefined || JSON.stringify(value) === JSON.stringify(spec.default)) continue;
    out ??= {};
    out[key] = value;
  }
  return out;
}

/** Reads a `data-attrs` JSON marker back into checked attributes (never trusts it). */
export function readAttrsMarker(table: AttrTable, marker: string | null): Record<string, unknown> {
  let raw: Record<string, unknown> = {};
  if (marker) {
    try {
      const parsed: unknown = JSON.parse(marker);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        raw = parsed as Record<string, unknown>;
    } catch {}
  }
  return cleanAttrs(table, raw);
}
