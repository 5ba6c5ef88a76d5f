import type { BrandSettings } from './branding/check.js';
import { ServiceEditorError } from './errors.js';
import type { DocSettings } from './model/doc.js';
import type { BlockDefinition } from './nodes/define.js';
import { DEFAULT_VARIABLES } from './nodes/variable/index.js';
import { isHexColor } from './primitives/color.js';
import { cleanFallback, isVariableName } from './primitives/merge-tags.js';
import type { TemplateSource, TemplateStore } from './templates/types.js';
import type { ColorScheme } from './ui/scheme-menu.js';
import { declaredType, type VariableOption } from './variables/shape.js';

export type { BrandSettings, ColorScheme };

/** Colours of one colour scheme of the editor (the spec's ThemeSettingProps.light / .dark). */
export interface ThemeColors {
  /** The area around the email (its outer background in the sent email too). */
  editorBackground?: string;
  /** The border of the email card. */
  editorBorder?: string;
  /** The email's own background (the card). */
  emailBackground?: string;
}

/** The spec's ThemeSettingProps. */
export interface ThemeSettingProps {
  /** Corner radius of the email card, a number written as a string ("8"). */
  borderRadius?: string;
  /** Whether the email card has inner padding (32 px) or none. */
  padding?: boolean;
  light?: ThemeColors;
  dark?: ThemeColors;
}

/** The ImageKit-compatible upload endpoint and its token (never a private API key). */
export interface ImageServiceConfig {
  url: string;
  token: string;
}

/** A custom image store: gets the file, reports progress if it can, resolves to its public URL. */
export type UploadFunction = (
  file: File,
  onProgress?: (loaded: number, total: number) => void,
) => Promise<{ url: string }>;

/** The options of `new ServiceEditor(options)`: the spec's fields, plus a few optional extras. */
export interface ServiceEditorOptions {
  /** Id of the empty element the editor renders into. Required. */
  elementId: string;
  /** Image uploads through ImageKit's upload protocol. */
  imageServiceUrl?: ImageServiceConfig | null;
  theme?: ThemeSettingProps | null;
  /** Shows the settings panel (backgrounds, border, padding, radius, width, preview text). */
  settingsControl?: boolean;
  /** Offers the email background colour (without the full settings panel). */
  background?: boolean;
  /** Brand details for the slash commands and templates; `setBranding()` changes them live. */
  branding?: BrandSettings | null;
  /**
   * Extra: "My Templates" and "Purchased Templates". `store`: a {@link TemplateStore}, or
   * `{ url, token }` for the service's templates API (browser storage by default); `purchased`: the
   * gallery's source (the starter templates by default). `false` hides the Templates button.
   */
  templates?: TemplateOptions | false;
  /**
   * Extra: merge variables offered by the `{{` menu and the "Variable" command, with what they
   * hold (`type`; an object's `fields`, a list's items' fields in `of`) and the preview's samples.
   */
  variables?: readonly (string | VariableOption)[];
  /** Extra: shows a Preview button (desktop and mobile) in the toolbar (default true). */
  preview?: boolean;
  /** Extra: a custom uploader used instead of (or without) `imageServiceUrl`. */
  upload?: UploadFunction;
  /** Extra: largest image accepted, in bytes (default 10 MB). */
  maxImageSize?: number;
  /** Extra: folder for ImageKit uploads (default "/email-builder"). */
  uploadFolder?: string;
  /** Extra: `light`, `dark`, or `auto` (default: follow `prefers-color-scheme`). */
  colorScheme?: ColorScheme;
  /** Extra: the hidden inbox preview text (preheader). */
  preheader?: string;
  /** Extra: language and direction of the email (default "en", "ltr"). */
  lang?: string;
  dir?: 'ltr' | 'rtl';
  /** Extra: initial content, HTML or the JSON of `getJSON()`. */
  content?: string | object;
  /** Extra: placeholder of an empty paragraph. */
  placeholder?: string;
  /** Extra: whether the content can be edited at first (default true). */
  editable?: boolean;
  /**
   * Extra: the host's own blocks, made with `defineBlock` (see docs/custom-blocks.md). They join
   * the built-in ones in the schema, the slash menu, the settings form, `getHTML()`, `getText()`,
   * `getProblems()` and branding. Pass the same array to `renderEmail`, `renderText`,
   * `checkDocument` and `renderTemplate` wherever the documents are rendered or checked.
   */
  blocks?: readonly BlockDefinition[];
  /**
   * Extra: the language of the editor's own words (toolbar, menus, settings, dialogs, preview),
   * a BCP 47 tag: `en` (default), `de`, `fr`, `es`, `pt-BR`, `ja`, `ar` (right to left: the
   * chrome mirrors). `de-AT` gives German, `pt` Brazilian Portuguese; a tag with no catalogue
   * gives English and a console warning (`SEB_ERR_OPTIONS`). The catalogue loads on demand.
   * The email's own language and direction are the `lang` and `dir` options (the document's).
   */
  locale?: string;
  /**
   * Extra: the host's words over the catalogue's, by key, the English text:
   * `{ 'Insert block': 'Add a block' }`; keep the `{placeholders}`. The README lists the keys.
   */
  messages?: Readonly<Record<string, string>>;
}

/** The `templates` option. */
export interface TemplateOptions {
  store?: TemplateStore | { url: string; token: string };
  purchased?: TemplateSource | null;
}

/** Options after checking, with the element found. */
export interface ResolvedOptions {
  element: HTMLElement;
  options: ServiceEditorOptions;
  /** The document settings the theme implies, used where a document does not set its own. */
  defaults: Partial<DocSettings>;
  colorScheme: ColorScheme;
  maxImageSize: number;
  /** The merge variables offered (the `variables` option, or the default ones), each checked. */
  variables: VariableOption[];
}

function fail(name: string, reason: string): never {
  throw new ServiceEditorError('SEB_ERR_OPTIONS', { name, reason });
}

function checkColor(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isHexColor(value))
    throw new ServiceEditorError('SEB_ERR_BAD_COLOR', { name, value: JSON.stringify(value) });
  return value.toLowerCase();
}

/**
 * Checks the options and finds the host element. Throws a {@link ServiceEditorError} naming the
 * exact option at fault: a missing or non-empty element, a colour that is not hex, a bad URL.
 */
export function resolveOptions(options: unknown, doc: Document): ResolvedOptions {
  if (!options || typeof options !== 'object')
    fail('options', 'pass an object such as { elementId: "editor" }');
  const o = options as ServiceEditorOptions;
  if (typeof o.elementId !== 'string' || o.elementId.trim() === '')
    fail('elementId', 'a non-empty string is required');
  const element = doc.getElementById(o.elementId);
  if (!element) throw new ServiceEditorError('SEB_ERR_ELEMENT_NOT_FOUND', { id: o.elementId });
  const hasContent = [...element.childNodes].some(
    (n) => n.nodeType !== 3 || (n.textContent ?? '').trim() !== '',
  );
  if (hasContent) throw new ServiceEditorError('SEB_ERR_ELEMENT_NOT_EMPTY', { id: o.elementId });

  if (o.imageServiceUrl != null) {
    const svc = o.imageServiceUrl;
    if (typeof svc !== 'object') fail('imageServiceUrl', 'expected { url, token }');
    let parsed: URL | null = null;
    try {
      parsed = new URL(svc.url, doc.baseURI);
    } catch {}
    if (typeof svc.url !== 'string' || !parsed || !/^https?:$/.test(parsed.protocol))
      fail('imageServiceUrl.url', 'an http(s) URL is required');
    if (typeof svc.token !== 'string' || svc.token === '')
      fail('imageServiceUrl.token', 'a non-empty string is required');
  }
  if (o.upload !== undefined && typeof o.upload !== 'function')
    fail('upload', 'expected a function (file) => Promise<{ url }>');
  for (const key of ['settingsControl', 'background', 'editable'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean') fail(key, 'expected a boolean');
  }
  if (o.colorScheme !== undefined && !['auto', 'light', 'dark'].includes(o.colorScheme))
    fail('colorScheme', 'expected "auto", "light" or "dark"');
  if (o.dir !== undefined && o.dir !== 'ltr' && o.dir !== 'rtl') fail('dir', 'expected "ltr" or "rtl"');
  if (o.maxImageSize !== undefined && !(Number.isFinite(o.maxImageSize) && o.maxImageSize > 0))
    fail('maxImageSize', 'expected a positive number of bytes');
  if (o.branding != null && typeof o.branding !== 'object') fail('branding', 'expected an object or null');
  if (
    o.templates !== undefined &&
    o.templates !== false &&
    (o.templates === null || typeof o.templates !== 'object')
  )
    fail('templates', 'expected { store?, purchased? } or false');
  if (o.variables !== undefined && !Array.isArray(o.variables))
    fail(
      'variables',
      'expected an array of names or { name, label?, fallback?, type?, fields?, of?, sample? }',
    );
  if (o.preview !== undefined && typeof o.preview !== 'boolean') fail('preview', 'expected a boolean');

  const defaults: Partial<DocSettings> = {};
  const theme = o.theme ?? {};
  if (typeof theme !== 'object') fail('theme', 'expected an object');
  if (theme.borderRadius !== undefined) {
    const r = Number(theme.borderRadius);
    if (String(theme.borderRadius).trim() === '' || !Number.isFinite(r) || r < 0 || r > 32)
      fail('theme.borderRadius', 'a number from 0 to 32, written as a string ("8")');
    defaults.radius = r;
  }
  if (theme.padding !== undefined) {
    if (typeof theme.padding !== 'boolean') fail('theme.padding', 'expected a boolean');
    defaults.padding = theme.padding ? 32 : 0;
  }
  const pairs = [
    ['light', '', theme.light],
    ['dark', 'dark', theme.dark],
  ] as const;
  for (const [scheme, prefix, colors] of pairs) {
    if (colors == null) continue;
    const name = (k: string) =>
      (prefix ? `${prefix}${k[0]!.toUpperCase()}${k.slice(1)}` : k) as keyof DocSettings;
    const set = (k: string, v: string | undefined) => {
      if (v) (defaults as Record<string, unknown>)[name(k)] = v;
    };
    set('backdrop', checkColor(`theme.${scheme}.editorBackground`, colors.editorBackground));
    set('border', checkColor(`theme.${scheme}.editorBorder`, colors.editorBorder));
    set('canvas', checkColor(`theme.${scheme}.emailBackground`, colors.emailBackground));
  }
  if (o.preheader !== undefined) defaults.preheader = String(o.preheader);
  if (o.lang !== undefined) defaults.lang = String(o.lang);
  if (o.dir !== undefined) defaults.dir = o.dir;
  return {
    element,
    options: o,
    defaults,
    colorScheme: o.colorScheme ?? 'auto',
    maxImageSize: o.maxImageSize ?? 10 * 1024 * 1024,
    variables: checkVariables(o.variables ?? DEFAULT_VARIABLES),
  };
}

/**
 * The variables option's entries as options (a name alone is `{ name }`), their fallbacks made
 * safe; an entry whose name is no variable name is left out with a warning, not thrown: the
 * editor still opens. A malformed shape (`type`, `fields`, `of`, a sample unlike its type) throws
 * `SEB_ERR_OPTIONS` naming it (`variables[1].of[0].type`).
 */
export function checkVariables(list: readonly (string | VariableOption)[]): VariableOption[] {
  return list.flatMap((v, i) => {
    const option = typeof v === 'string' ? { name: v } : v;
    if (isVariableName(option?.name)) {
      checkShape(option, `variables[${i}]`, 0);
      return [{ ...option, fallback: cleanFallback(option.fallback) }];
    }
    console.warn(
      new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'variables',
        reason: `"${String(option?.name)}" is not a variable name`,
      }).message,
    );
    return [];
  });
}

const TYPES = 'text, number, boolean, object, array';

/**
 * Checks the shape of the variable `v`, named `at` in messages (`variables[1]`): its `type`, its
 * `fields` (an object's) and `of` (a list's items'), each field's name (one key: letters, digits
 * and `_`) and shape, nested at most 4 deep, and a sample of the type declared. Throws
 * `SEB_ERR_OPTIONS` naming the exact place (`variables[1].of[0].type`) and what was expected.
 * A variable declaring no type, `fields` or `of` is not checked here: its sample stays free.
 */
function checkShape(v: VariableOption, at: string, depth: number): void {
  const type = declaredType(v);
  if (type && !TYPES.split(', ').includes(type)) fail(`${at}.type`, `expected one of ${TYPES}`);
  for (const key of ['fields', 'of'] as const) {
    const list = v[key];
    const owner = key === 'of' ? 'array' : 'object';
    if (list === undefined) continue;
    if (!Array.isArray(list) || type !== owner || depth > 3)
      fail(`${at}.${key}`, `expected fields ({ name, … }) of a variable of type "${owner}", 4 deep at most`);
    list.forEach((f: VariableOption, i) => {
      const name = `${at}.${key}[${i}]`;
      if (!isVariableName(f?.name) || f.name.includes('.'))
        fail(`${name}.name`, 'expected a field name (letters, digits and _)');
      checkShape(f, name, depth + 1);
    });
  }
  // a sample's type, as a variable's ("text" for a string)
  const sample = v.sample;
  const its = Array.isArray(sample) ? 'array' : typeof sample === 'string' ? 'text' : typeof sample;
  if (type && sample != null && its !== type) fail(`${at}.sample`, `expected a sample of type "${type}"`);
}
