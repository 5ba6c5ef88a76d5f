/**
 * The playground (`/`): `@service/email-builder` with every option toggleable live, the preview,
 * Copy HTML and Copy text, the template picker, and uploads and "My Templates" on this server
 * once the tab holds a key of scope `templates,images`. The page's own commands sit in the
 * editor's toolbar, so there is one toolbar (in a "More" menu where it is narrow).
 *
 * Options a running editor takes through a method (colour scheme, branding) are applied with it;
 * the others are read at construction, so the editor is re-created with the email kept. Nothing
 * here is exposed globally: the page is driven, and checked, through its UI.
 */
import { applyBranding, type JSONNode, ServiceEditor, type UploadEvent } from '@service/email-builder';
import { byId, copyToClipboard, el } from './lib/dom.js';
import { BRAND_PRESETS, brandPreset } from './playground/brands.js';
import { checkScopedKey, SCOPED_KEY_COMMAND, savedKey, saveKey } from './playground/connect.js';
import {
  editorOptions,
  INITIAL_SETTINGS,
  LIVE_SETTINGS,
  loadSettings,
  optionsCode,
  type PlaygroundSettings,
  readSetting,
  saveSettings,
  withSetting,
} from './playground/settings.js';
import { StatusLine, type Tone } from './playground/status.js';
import { toolbarCommands } from './playground/toolbar-commands.js';

const DRAFT = 'service.playground.draft';
/** Gmail clips messages whose HTML is larger than this and hides the rest behind a link. */
const GMAIL_CLIP_BYTES = 102 * 1024;
const origin = window.location.origin;

let settings: PlaygroundSettings = loadSettings();
let key: string | null = savedKey();
let editor: ServiceEditor | null = null;
let draftTimer: number | undefined;
const status = new StatusLine(byId('status'));
/** The page's commands, moved into each new editor's toolbar by {@link mount}. */
const commands = toolbarCommands([
  {
    label: 'New email',
    title: 'editor.setContent(…): undo brings the email back',
    run: () => newEmail(),
  },
  { label: 'Copy text', title: 'editor.getText()', run: (control) => void copyOut('text', control) },
  {
    label: 'Copy HTML',
    title: 'editor.getHTML()',
    primary: true,
    run: (control) => void copyOut('HTML', control),
  },
]);

const connection = () => (key ? { origin, key } : null);

function say(message: string, tone: Tone = 'info', lasting?: boolean): void {
  status.say(message, tone, lasting);
}

function kilobytes(text: string): string {
  return `${(new Blob([text]).size / 1024).toFixed(1)} KB`;
}

/* ------------------------------------------------------------------ the editor */

/**
 * The document settings (`doc` attributes) the editor derives from `theme`, `preheader`, `lang`
 * and `dir`, read from a throwaway editor so the playground never re-implements that mapping.
 */
function documentDefaults(from: PlaygroundSettings): Record<string, unknown> {
  const host = el('div', { id: 'playground-probe', hidden: true });
  document.body.append(host);
  try {
    const probe = new ServiceEditor({
      ...editorOptions(from, origin, null),
      elementId: host.id,
      branding: null,
      templates: false,
      preview: false,
    });
    const attrs = probe.getJSON().attrs ?? {};
    probe.destroy();
    return attrs;
  } finally {
    host.remove();
  }
}

/** Creates the editor with the current settings; false (with the reason shown) if it refused them. */
function mount(content: JSONNode | undefined): boolean {
  editor?.destroy();
  editor = null;
  const banner = byId('editor-error');
  try {
    editor = new ServiceEditor({
      ...editorOptions(settings, origin, connection()),
      ...(content !== undefined && { content }),
    });
  } catch (error) {
    banner.textContent = `The editor could not start: ${(error as Error).message}`;
    banner.hidden = false;
    return false;
  }
  banner.hidden = true;
  editor.on('change', scheduleDraft);
  editor.on('upload', onUpload);
  // the editor's toolbar chooses the colour scheme too: the panel shows whatever was chosen last
  editor.on('theme', ({ colorScheme }) => update('colorScheme', colorScheme));
  byId('editor').querySelector('.sv-toolbar-host')?.append(commands);
  updateSize();
  return true;
}

/**
 * Re-creates the editor after a construction-time option changed, keeping the email. The
 * document settings that option seeds (e.g. `theme.light.emailBackground` → the email
 * background) take the new value; the others keep what the settings panel made of them.
 */
function rebuild(previous: PlaygroundSettings): void {
  if (!editor) {
    mount(readDraft());
    return;
  }
  const json = editor.getJSON();
  const before = documentDefaults(previous);
  const after = documentDefaults(settings);
  const attrs = { ...json.attrs };
  for (const [name, value] of Object.entries(after)) if (before[name] !== value) attrs[name] = value;
  mount({ ...json, attrs });
}

function readDraft(): JSONNode | undefined {
  try {
    const draft = JSON.parse(localStorage.getItem(DRAFT) ?? 'null');
    return draft && typeof draft === 'object' ? (draft as JSONNode) : undefined;
  } catch {
    return undefined;
  }
}

function saveDraft(): void {
  clearTimeout(draftTimer);
  if (editor) localStorage.setItem(DRAFT, JSON.stringify(editor.getJSON()));
}

/** Keeps the email (and its size shown) a moment after each change, and when the tab goes. */
function scheduleDraft(): void {
  clearTimeout(draftTimer);
  draftTimer = window.setTimeout(() => {
    saveDraft();
    updateSize();
  }, 300);
}

function updateSize(): void {
  if (!editor) return;
  const bytes = new Blob([editor.getHTML()]).size;
  const size = byId('size');
  size.textContent = `HTML ${(bytes / 1024).toFixed(1)} KB · Gmail clips at ${GMAIL_CLIP_BYTES / 1024} KB`;
  size.classList.toggle('warn', bytes > GMAIL_CLIP_BYTES * 0.8);
}

function onUpload(event: UploadEvent): void {
  const name = event.file.name;
  if (event.phase === 'start') say(`Uploading ${name}…`, 'info', true);
  else if (event.phase === 'progress' && event.total)
    say(`Uploading ${name}… ${Math.round(((event.loaded ?? 0) / event.total) * 100)} %`, 'info', true);
  else if (event.phase === 'done') say(`Uploaded ${name} to this server`, 'ok');
  else if (event.error?.code === 'SEB_ERR_UPLOAD_NOT_CONFIGURED') {
    say('Uploads need a scoped key: connect one under “Uploads and My Templates”.', 'error');
    const card = byId('connect-card');
    card.classList.add('attention');
    card.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  } else say(`Upload of ${name} failed: ${event.error?.message.replace(/^SEB_ERR_\w+: /, '')}`, 'error');
}

/* ------------------------------------------------------------------ commands */

function newEmail(): void {
  if (!editor) return;
  editor.setContent({ type: 'doc', content: [{ type: 'paragraph' }] });
  editor.focus();
  say('New email. Undo brings the previous one back.');
}

async function copyOut(kind: 'HTML' | 'text', button: HTMLButtonElement): Promise<void> {
  if (!editor) return;
  const content = kind === 'HTML' ? editor.getHTML() : editor.getText();
  if (await copyToClipboard(content, button)) say(`Copied ${kilobytes(content)} of ${kind}`, 'ok');
  else say('The browser refused the clipboard: allow it for this site, or use a secure origin.', 'error');
}

/** The panel's buttons, and the status line giving way to the next edit. */
function bindButtons(): void {
  const on = (id: string, action: (button: HTMLButtonElement) => void) =>
    byId<HTMLButtonElement>(id).addEventListener('click', (e) =>
      action(e.currentTarget as HTMLButtonElement),
    );
  // Typing, deleting or pasting in the email: a message about what came before is done with.
  byId('editor').addEventListener('beforeinput', () => status.clear());
  on('copy-code', (button) => void copyToClipboard(byId('code').textContent ?? '', button));
  on('reset', () => {
    const previous = settings;
    settings = structuredClone(INITIAL_SETTINGS) as PlaygroundSettings;
    saveSettings(settings);
    syncPanel();
    rebuild(previous);
    say('Options reset.');
  });
}

/* ------------------------------------------------------------------ side panel */

type SettingInput = HTMLInputElement | HTMLSelectElement;

function settingInputs(): SettingInput[] {
  return [...document.querySelectorAll<SettingInput>('[data-setting]')];
}

function inputValue(input: SettingInput): unknown {
  if (input instanceof HTMLInputElement && input.type === 'checkbox') return input.checked;
  if (input instanceof HTMLInputElement && input.type === 'range') return Number(input.value);
  return input.value.trim();
}

/** Shows the settings in the controls, and the code that makes this editor. */
function syncPanel(): void {
  for (const input of settingInputs()) {
    const value = readSetting(settings, input.dataset.setting!);
    if (input instanceof HTMLInputElement && input.type === 'checkbox') input.checked = value === true;
    else if (input instanceof HTMLInputElement && input.type === 'radio')
      input.checked = input.value === value;
    else input.value = String(value);
  }
  byId('radius-value').textContent = `${settings.borderRadius} px`;
  byId('code').textContent = optionsCode(settings, origin, key !== null);
}

function update(path: string, value: unknown): void {
  if (readSetting(settings, path) === value) return;
  const previous = settings;
  settings = withSetting(settings, path, value);
  saveSettings(settings);
  syncPanel();
  const name = path.split('.')[0]!;
  if (!editor || !LIVE_SETTINGS.has(name)) rebuild(previous);
  else if (name === 'colorScheme') editor.setColorScheme(settings.colorScheme);
  else if (name === 'brand') {
    const preset = brandPreset(settings.brand);
    const problems = editor.setBranding(preset.settings(origin));
    say(
      problems.length > 0
        ? `Branding applied; ignored: ${problems.map((p) => p.path).join(', ')}`
        : preset.id === 'none'
          ? 'Branding removed.'
          : `${preset.label} branding applied: try / Logo, Button, Footer or Signature.`,
    );
  }
}

function bindPanel(): void {
  byId('brands').append(
    ...BRAND_PRESETS.map((preset) => {
      const swatch = el('span', { className: preset.swatch ? 'swatch' : 'swatch none' });
      if (preset.swatch) swatch.style.background = preset.swatch;
      return el(
        'label',
        { className: 'brand-option' },
        el('input', { type: 'radio', name: 'brand', value: preset.id, dataset: { setting: 'brand' } }),
        swatch,
        preset.label,
      );
    }),
  );
  for (const input of settingInputs())
    input.addEventListener('change', () => update(input.dataset.setting!, inputValue(input)));
  const radius = byId<HTMLInputElement>('radius');
  radius.addEventListener('input', () => {
    byId('radius-value').textContent = `${radius.value} px`;
  });
}

/* ------------------------------------------------------------------ connection */

function syncConnection(): void {
  byId('connect-off').hidden = key !== null;
  byId('connect-on').hidden = key === null;
  byId('key-prefix').textContent = key ? `${key.slice(0, 11)}…` : '';
  const pill = byId('connection-pill');
  pill.textContent = key ? 'Connected' : 'Browser storage';
  pill.classList.toggle('ok', key !== null);
  pill.title = key
    ? 'Uploads and My Templates go to this server with a scoped key'
    : 'No key: uploads are off and My Templates stay in this browser';
  byId('connect-card').classList.remove('attention');
  byId('code').textContent = optionsCode(settings, origin, key !== null);
}

function bindConnection(): void {
  byId('key-command').textContent = SCOPED_KEY_COMMAND;
  const input = byId<HTMLInputElement>('key-input');
  const button = byId<HTMLButtonElement>('connect-button');
  const error = byId('connect-error');
  byId('connect-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const candidate = input.value.trim();
    if (!candidate) return;
    button.disabled = true;
    error.hidden = true;
    const check = await checkScopedKey(origin, candidate);
    button.disabled = false;
    if (!check.ok) {
      // Never leave a refused key (possibly a full one) sitting in the page.
      input.value = '';
      error.replaceChildren(check.message);
      if (check.message.endsWith(':')) error.append(el('pre', {}, el('code', {}, SCOPED_KEY_COMMAND)));
      error.hidden = false;
      input.focus();
      return;
    }
    input.value = '';
    key = candidate;
    saveKey(key);
    syncConnection();
    mount(editor?.getJSON() ?? readDraft());
    say('Connected: images upload to this server and My Templates are kept on it.', 'ok');
  });
  byId('disconnect').addEventListener('click', () => {
    key = null;
    saveKey(null);
    syncConnection();
    mount(editor?.getJSON() ?? readDraft());
    say('Disconnected: uploads are off and My Templates are kept in this browser.');
  });
}

/* ------------------------------------------------------------------ start */

async function firstContent(): Promise<JSONNode | undefined> {
  const draft = readDraft();
  if (draft) return draft;
  try {
    // The gallery is a chunk of its own: only a first visit (no draft) loads it up front.
    const { loadStarterTemplates } = await import('@service/email-builder/templates');
    const welcome = (await loadStarterTemplates()).find((t) => t.id === 'welcome');
    return welcome && applyBranding(welcome.document, brandPreset(settings.brand).settings(origin));
  } catch {
    return undefined;
  }
}

/** The skip link puts the keyboard in the email itself, past the header and the toolbar. */
function bindSkipLink(): void {
  document.querySelector('.skip-link')?.addEventListener('click', (event) => {
    event.preventDefault();
    editor?.focus();
  });
}

async function start(): Promise<void> {
  bindSkipLink();
  bindPanel();
  bindButtons();
  bindConnection();
  syncPanel();
  syncConnection();
  // A draft this version cannot read, or settings it refuses, must not lock people out.
  if (mount(await firstContent())) return;
  localStorage.removeItem(DRAFT);
  if (mount(undefined)) return;
  settings = structuredClone(INITIAL_SETTINGS) as PlaygroundSettings;
  saveSettings(settings);
  syncPanel();
  mount(undefined);
}

document.addEventListener('DOMContentLoaded', () => void start());
window.addEventListener('pagehide', saveDraft);
