import { isHexColor, toHexColor } from './color.js';
import { contrast, MIN_CONTRAST, rgb } from './contrast.js';

type Hsl = [h: number, s: number, l: number];

/** Hue in degrees, saturation and lightness 0–1, of a `#rrggbb` colour. */
function toHsl(hex: string): Hsl {
  const [r, g, b] = rgb(hex).map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l];
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s, l];
}

/** `#rrggbb` of an HSL colour (CSS Color 4, "HSL to RGB"). */
function fromHsl([h, s, l]: Hsl): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/**
 * The dark-mode counterpart of an explicit text colour: the same hue and saturation, its
 * lightness raised just enough to reach {@link MIN_CONTRAST} against `background`, the dark
 * surface the text will sit on (see {@link darkSurface}). A colour that already reaches it is
 * returned as given; white is the limit when nothing lighter would do. Pure; `#rgb` and
 * `#rrggbb` in, the same or `#rrggbb` out. Throws a `RangeError` on anything but hex colours.
 *
 * @example
 * darkTextColor('#52525b', '#3f3f46') // muted grey on a darkened panel: '#adadb5' (4.5:1)
 * darkTextColor('#e4e4e7', '#27272a') // already light: '#e4e4e7'
 */
export function darkTextColor(color: string, background: string): string {
  if (!isHexColor(color) || !isHexColor(background))
    throw new RangeError(`darkTextColor takes hex colours, got ${color} on ${background}`);
  const [hex, bg] = [toHexColor(color), toHexColor(background)];
  if (contrast(hex, bg) >= MIN_CONTRAST) return color;
  return towardContrast(hex, bg, 1);
}

/**
 * `hex` (which fails {@link MIN_CONTRAST} on `bg`) with its HSL lightness moved towards `limit`
 * (1 lighter, 0 darker) just far enough to pass, hue and saturation kept; white or black when
 * nothing short of it passes.
 */
function towardContrast(hex: string, bg: string, limit: 0 | 1): string {
  const [h, s, l] = toHsl(hex);
  const passes = (lightness: number) => contrast(fromHsl([h, s, lightness]), bg) >= MIN_CONTRAST;
  if (!passes(limit)) return limit === 1 ? '#ffffff' : '#000000';
  // Luminance only grows with HSL lightness at a fixed hue and saturation (also after rounding
  // to whole channels), so the lightness nearest `l` that passes can be found by bisection.
  let [fails, pass] = [l, limit as number];
  while (Math.abs(pass - fails) > 1e-4) {
    const mid = (fails + pass) / 2;
    if (passes(mid)) pass = mid;
    else fails = mid;
  }
  return fromHsl([h, s, pass]);
}

/**
 * The dark-mode colour of text on a highlight. A highlight keeps its background in dark mode
 * (an inline background, which `prefers-color-scheme: dark` clients leave as written, as the
 * editor's dark theme does), while the text around it turns light: light text on a light
 * highlight is unreadable. So highlighted text keeps `ink`, its light-mode colour (its text
 * colour, a link's, or the body text colour), when that reaches {@link MIN_CONTRAST} on the
 * highlight, and is otherwise darkened (on a light highlight) or lightened (on a dark one), hue
 * kept, just enough to reach it. Throws a `RangeError` on anything but hex colours.
 *
 * @example
 * highlightTextColor('#27272a', '#fef08a') // body text on yellow reads as it is: '#27272a'
 * highlightTextColor('#27272a', '#1e3a8a') // on navy: lightened to 4.5:1
 */
export function highlightTextColor(ink: string, highlight: string): string {
  if (!isHexColor(ink) || !isHexColor(highlight))
    throw new RangeError(`highlightTextColor takes hex colours, got ${ink} on ${highlight}`);
  const [hex, bg] = [toHexColor(ink), toHexColor(highlight)];
  if (contrast(hex, bg) >= MIN_CONTRAST) return ink;
  // the side with more room: dark text on a light highlight, light text on a dark one
  return towardContrast(hex, bg, contrast('#000000', bg) >= contrast('#ffffff', bg) ? 0 : 1);
}

/**
 * The background text sits on in dark mode. A column panel with a background colour turns
 * `darkBorder` (a light tint would otherwise hold light text; the email's `.sv-colbg` rule and
 * the editor's dark theme both do this); everything else sits on the email's `darkCanvas`.
 */
export function darkSurface(settings: { darkCanvas: string; darkBorder: string }, panel: boolean): string {
  return panel ? settings.darkBorder : settings.darkCanvas;
}
