/**
 * What the playground's side panel controls, how it is kept between visits, and how it becomes
 * the options of `new ServiceEditor(...)` (and the code shown to copy).
 */
import type { ColorScheme, ServiceEditorOptions, ThemeColors } from '@service/email-builder';
import { type BrandId, brandPreset } from './brands.js';

/** Every editor option the panel toggles. */
export interface PlaygroundSettings {
  colorScheme: ColorScheme;
  light: Required<ThemeColors>;
  dark: Required<ThemeColors>;
  borderRadius: number;
  padding: boolean;
  settingsControl: boolean;
  background: boolean;
  preview: boolean;
  /** The language of the editor's own words (`locale`), not the email's. */
  locale: string;
  brand: BrandId;
  preheader: string;
  lang: string;
  dir: 'ltr' | 'rtl';
}

/** The editor's own defaults, so the code shown lists only what differs from them. */
export const DEFAULT_SETTINGS: Readonly<PlaygroundSettings> = Object.freeze({
  colorScheme: 'auto',
  light: { editorBackground: '#f4f4f5', editorBorder: '#e4e4e7', emailBackground: '#ffffff' },
  dark: { editorBackground: '#18181b', editorBorder: '#3f3f46', emailBackground: '#27272a' },
  borderRadius: 8,
  padding: true,
  settingsControl: false,
  background: false,
  preview: true,
  locale: 'en',
  brand: 'none',
  preheader: '',
  lang: 'en',
  dir: 'ltr',
});

/** What the playground shows first: the settings panel on, everything else as the editor ships. */
export const INITIAL_SETTINGS: Readonly<PlaygroundSettings> = { ...DEFAULT_SETTINGS, settingsControl: true };

/**
 * Settings a running editor takes through a method (`setColorScheme`, `setBranding`); every
 * other option is read at construction, so changing it re-creates the editor.
 */
export const LIVE_SETTINGS: ReadonlySet<string> = new Set(['colorScheme', 'brand']);

/** The languages the editor's own words come in (`locale`). */
export const EDITOR_LOCALES: readonly string[] = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'ar'];

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const STORAGE = 'service.playground.settings';

/** A copy of `settings` with the value at a dotted path (`light.emailBackground`) replaced. */
export function withSetting(settings: PlaygroundSettings, path: string, value: unknown): PlaygroundSettings {
  const next = structuredClone(settings) as unknown as Record<string, Record<string, unknown>>;
  const [head, leaf] = path.split('.') as [string, string | undefined];
  if (leaf === undefined) (next as Record<string, unknown>)[head] = value;
  else next[head] = { ...next[head], [leaf]: value };
  return next as unknown as PlaygroundSettings;
}

/** The value at a dotted path. */
export function readSetting(settings: PlaygroundSettings, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], settings);
}

/**
 * Settings saved by an earlier visit, each value kept only if it has the right type (and colours
 * are hex): a stale or hand-edited entry falls back to the initial value instead of breaking
 * the editor.
 */
export function loadSettings(): PlaygroundSettings {
  let saved: unknown;
  try {
    saved = JSON.parse(localStorage.getItem(STORAGE) ?? 'null');
  } catch {}
  const result = structuredClone(INITIAL_SETTINGS) as PlaygroundSettings;
  if (!saved || typeof saved !== 'object') return result;
  const fits = (initial: unknown, value: unknown) =>
    typeof value === typeof initial &&
    (typeof value !== 'string' || !HEX.test(initial as string) || HEX.test(value));
  for (const [key, initial] of Object.entries(result)) {
    const value = (saved as Record<string, unknown>)[key];
    if (initial && typeof initial === 'object') {
      for (const leaf of Object.keys(initial)) {
        const v = (value as Record<string, unknown> | undefined)?.[leaf];
        if (fits((initial as Record<string, unknown>)[leaf], v))
          (initial as Record<string, unknown>)[leaf] = v;
      }
    } else if (fits(initial, value)) (result as unknown as Record<string, unknown>)[key] = value;
  }
  if (!['auto', 'light', 'dark'].includes(result.colorScheme)) result.colorScheme = 'auto';
  if (result.dir !== 'rtl') result.dir = 'ltr';
  if (!EDITOR_LOCALES.includes(result.locale)) result.locale = 'en';
  result.brand = brandPreset(result.brand).id;
  return result;
}

export function saveSettings(settings: PlaygroundSettings): void {
  localStorage.setItem(STORAGE, JSON.stringify(settings));
}

/** Where the editor sends uploads and "My Templates" once the page holds a scoped key. */
export interface ServerConnection {
  origin: string;
  key: string;
}

/** The options for `new ServiceEditor`, minus `content`. */
export function editorOptions(
  settings: PlaygroundSettings,
  origin: string,
  connection: ServerConnection | null,
): ServiceEditorOptions {
  return {
    elementId: 'editor',
    colorScheme: settings.colorScheme,
    theme: {
      borderRadius: String(settings.borderRadius),
      padding: settings.padding,
      light: { ...settings.light },
      dark: { ...settings.dark },
    },
    settingsControl: settings.settingsControl,
    background: settings.background,
    preview: settings.preview,
    locale: settings.locale,
    branding: brandPreset(settings.brand).settings(origin),
    preheader: settings.preheader,
    lang: settings.lang,
    dir: settings.dir,
    ...(connection && {
      imageServiceUrl: { url: `${connection.origin}/api/public/images`, token: connection.key },
      templates: { store: { url: `${connection.origin}/api/public/templates`, token: connection.key } },
    }),
  };
}

/** A value written as JavaScript source: single quotes, bare keys, two-space indents. */
function js(value: unknown, indent = ''): string {
  if (value && typeof value === 'object' && 'code' in value) return String((value as { code: string }).code);
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (value === null || typeof value !== 'object') return String(value);
  const inner = `${indent}  `;
  const entries = Object.entries(value).map(
    ([k, v]) => `${inner}${/^[a-z_$][\w$]*$/i.test(k) ? k : js(k)}: ${js(v, inner)},`,
  );
  return entries.length === 0 ? '{}' : `{\n${entries.join('\n')}\n${indent}}`;
}

/** Only the entries of `value` that differ from `base` (recursively); undefined when none do. */
function changed(
  value: Record<string, unknown>,
  base: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const b = base[k];
    if (v && typeof v === 'object') {
      const sub = changed(v as Record<string, unknown>, (b ?? {}) as Record<string, unknown>);
      if (sub) out[k] = sub;
    } else if (v !== b) out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The host code that makes this editor: the options that differ from the defaults, the brand
 * in full, and the upload and template endpoints with a placeholder for the scoped key (the
 * key itself is never printed).
 */
export function optionsCode(settings: PlaygroundSettings, origin: string, connected: boolean): string {
  const diff = changed(settings as unknown as Record<string, unknown>, DEFAULT_SETTINGS as never) ?? {};
  const options: Record<string, unknown> = { elementId: 'editor' };
  if (diff.colorScheme) options.colorScheme = diff.colorScheme;
  const theme: Record<string, unknown> = {};
  if ('borderRadius' in diff) theme.borderRadius = String(diff.borderRadius);
  if ('padding' in diff) theme.padding = diff.padding;
  if (diff.light) theme.light = diff.light;
  if (diff.dark) theme.dark = diff.dark;
  if (Object.keys(theme).length > 0) options.theme = theme;
  for (const key of [
    'locale',
    'settingsControl',
    'background',
    'preview',
    'preheader',
    'lang',
    'dir',
  ] as const)
    if (key in diff) options[key] = diff[key];
  const branding = brandPreset(settings.brand).settings(origin);
  if (branding) options.branding = branding;
  const key = { code: 'SCOPED_KEY' };
  if (connected) {
    options.imageServiceUrl = { url: `${origin}/api/public/images`, token: key };
    options.templates = { store: { url: `${origin}/api/public/templates`, token: key } };
  }
  return [
    "import { ServiceEditor } from '@service/email-builder';",
    "import '@service/email-builder/dist/service.css';",
    '',
    ...(connected
      ? ['// a key of scope templates,images: never the account’s full key', "const SCOPED_KEY = '…';"]
      : []),
    `const editor = new ServiceEditor(${js(options)});`,
    'const html = editor.getHTML();',
  ].join('\n');
}
