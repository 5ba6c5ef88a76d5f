/** A hex colour: `#rgb` or `#rrggbb`. */
export const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** True for `#rgb` and `#rrggbb` strings. */
export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

/**
 * Reads a CSS colour written as hex or `rgb()`/`rgba()` (what browsers put in pasted HTML) and
 * returns `#rrggbb`, or `''` when it is anything else (named colours, `var()`, expressions).
 */
export function toHexColor(value: string | null | undefined): string {
  if (!value) return '';
  const v = value.trim().toLowerCase();
  if (HEX_COLOR.test(v)) return v.length === 4 ? `#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}` : v;
  const m = /^rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})\s*(?:[,/]\s*([\d.]+%?))?\s*\)$/.exec(v);
  if (!m) return '';
  if (m[4] !== undefined && Number.parseFloat(m[4]) === 0) return '';
  const hex = [m[1], m[2], m[3]].map((n) => Math.min(255, Number(n)).toString(16).padStart(2, '0'));
  return `#${hex.join('')}`;
}
