import { toHexColor } from './color.js';

/** WCAG 2.2 success criterion 1.4.3 (contrast, minimum): 4.5:1 for body text. */
export const MIN_CONTRAST = 4.5;

/** Channels of a hex colour, 0–255. */
export function rgb(hex: string): [number, number, number] {
  const h = toHexColor(hex) || '#000000';
  return [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

const toHex = (c: number[]) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** Relative luminance (WCAG 2.2, "relative luminance"). */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours, 1–21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `a` mixed with `b`; `amount` 0 gives `a`, 1 gives `b`. */
export function mix(a: string, b: string, amount: number): string {
  const [x, y] = [rgb(a), rgb(b)];
  return toHex(x.map((v, i) => v + (y[i]! - v) * amount));
}

/** White or near-black, whichever reads better on `background` (button labels on a brand colour). */
export function textOn(background: string): string {
  return contrast('#ffffff', background) >= contrast('#18181b', background) ? '#ffffff' : '#18181b';
}

/**
 * `color`, darkened or lightened just enough to reach a contrast of 4.5 against `background`
 * (WCAG AA for body text), so a pale brand colour still gives readable text.
 */
export function readable(color: string, background = '#ffffff'): string {
  const toward = luminance(background) > 0.4 ? '#000000' : '#ffffff';
  for (let step = 0; step <= 10; step++) {
    const candidate = mix(color, toward, step / 10);
    if (contrast(candidate, background) >= MIN_CONTRAST) return candidate;
  }
  return toward;
}
