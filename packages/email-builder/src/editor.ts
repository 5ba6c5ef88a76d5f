import { baseKeymap, chainCommands, setBlockType, toggleMark } from 'prosemirror-commands';
import { dropCursor } from 'prosemirror-dropcursor';
import { gapCursor } from 'prosemirror-gapcursor';
import { closeHistory, history, redo, undo } from 'prosemirror-history';
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import type { DOMParser as PMDOMParser, Node as PMNode, Schema } from 'prosemirror-model';
import { Slice } from 'prosemirror-model';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import { EditorState, Plugin, Selection, type Transaction } from 'prosemirror-state';
import { Decoration, DecorationSet, EditorView, type NodeViewConstructor } from 'prosemirror-view';
import { applyBranding, brandAttrs, rebrandAttrs } from './branding/apply.js';
import { type Brand, type BrandingProblem, checkBranding } from './branding/check.js';
import { ServiceEditorError } from './errors.js';
import { darkTextPlugin } from './marks/dark-text.js';
import { readAttrsMarker } from './model/attrs.js';
import { DOC_ATTRS, docSettings } from './model/doc.js';
import { htmlParser } from './model/html-parser.js';
import { findProblems } from './model/problems.js';
import type { JSONNode } from './model/types.js';
import { cleanDocument } from './model/validate.js';
import type { EditorHost, UploadState } from './nodes/define.js';
import { BLOCKS, BLOCKS_BY_NAME } from './nodes/registry.js';
import {
  chipVariables,
  DEFAULT_VARIABLES,
  VARIABLE_TRIGGER,
  type VariableOption,
  variableItems,
} from './nodes/variable/index.js';
import {
  type BrandSettings,
  type ColorScheme,
  type ResolvedOptions,
  resolveOptions,
  type ServiceEditorOptions,
  type UploadFunction,
} from './options.js';
import { MailPreview } from './preview/mail-preview.js';
import type { ContentProblem } from './problems.js';
import { renderEmail, renderText } from './render/email.js';
import { createSchema } from './schema.js';
import type { TemplateTab } from './templates/picker.js';
import type { GalleryTemplate, SavedTemplate, TemplateStore } from './templates/types.js';
import { BlockHandle } from './ui/block-handle.js';
import { BubbleMenu } from './ui/bubble-menu.js';
import { h, iconButton } from './ui/dom.js';
import { ICONS } from './ui/icons.js';
import { Inspector } from './ui/inspector.js';
import { SettingsPanel } from './ui/settings-panel.js';
import { SlashMenu } from './ui/slash-menu.js';
import {
  addPlaceholder,
  findPlaceholder,
  placeholderPlugin,
  removePlaceholder,
} from './upload/placeholder.js';
import { ACCEPTED_TYPES, type UploadEvent } from './upload/types.js';
import { cleanFallback, isVariableName, VARIABLE_NAME } from './variables/syntax.js';

/** Events of {@link ServiceEditor.on} and what their listeners receive. */
export interface EditorEvents {
  /** The document changed (typing, formatting, settings, undo, setContent). */
  change: { editor: ServiceEditor };
  /** Focus entered the editor (its text or its own popovers). */
  focus: { editor: ServiceEditor };
  /** Focus left the editor and its popovers. */
  blur: { editor: ServiceEditor };
  /** An image upload started, progressed, finished or failed. */
  upload: UploadEvent;
  /** The colour scheme shown changed (`light` or `dark`). */
  theme: { scheme: 'light' | 'dark' };
}

let sharedSchema: Schema | null = null;

function isBrowser(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof document !== 'undefined' &&
    typeof document.createElement === 'function'
  );
}

/**
 * The email editor. Renders into the empty element `#elementId`; `getHTML()` gives the email.
 *
 * @example
 * import { ServiceEditor } from '@service/email-builder';
 * import '@service/email-builder/dist/service.css';
 * const editor = new ServiceEditor({ elementId: 'editor', settingsControl: true });
 * editor.on('change', () => save(editor.getJSON()));
 * send(editor.getHTML(), editor.getText());
 */
export class ServiceEditor {
  /** The options as given. */
  readonly options: ServiceEditorOptions;
  private readonly resolved: ResolvedOptions;
  private readonly schema: Schema;
  /** Parses pasted HTML and `setContent(html)` (pasted tables become paragraphs). */
  private readonly parser: PMDOMParser;
  private readonly root: HTMLElement;
  private readonly canvas: HTMLElement;
  private readonly view: EditorView;
  private readonly listeners = new Map<keyof EditorEvents, Set<(payload: never) => void>>();
  private readonly cleanups: (() => void)[] = [];
  /** The uploader: the host's `upload`, else the ImageKit protocol, built with the first upload. */
  private uploader: UploadFunction | null | undefined;
  private readonly slash: SlashMenu;
  private readonly variableMenu: SlashMenu;
  private brand: Brand;
  private problems: BrandingProblem[] = [];
  private readonly variables: VariableOption[];
  private store: Promise<TemplateStore> | null = null;
  private picker: { close(): void } | null = null;
  private previewDialog: MailPreview | null = null;
  private readonly bubble: BubbleMenu;
  private readonly settings: SettingsPanel | null;
  private readonly themeButton: HTMLButtonElement;
  private scheme: ColorScheme;
  private destroyed = false;
  private focused = false;
  private uploadCount = 0;
  private closeNext = false;

  constructor(options: ServiceEditorOptions) {
    if (!isBrowser()) throw new ServiceEditorError('SEB_ERR_NOT_BROWSER');
    this.resolved = resolveOptions(options, document);
    this.options = this.resolved.options;
    this.scheme = this.resolved.colorScheme;
    this.schema = sharedSchema ??= createSchema();
    this.parser = htmlParser(this.schema);
    const o = this.options;
    this.brand = this.takeBranding(o.branding);
    this.variables = (o.variables ?? DEFAULT_VARIABLES).flatMap((v) => {
      const option = typeof v === 'string' ? { name: v } : v;
      if (isVariableName(option?.name)) return [{ ...option, fallback: cleanFallback(option.fallback) }];
      console.warn(
        new ServiceEditorError('SEB_ERR_OPTIONS', {
          name: 'variables',
          reason: `"${String(option?.name)}" is not a variable name`,
        }).message,
      );
      return [];
    });

    this.canvas = h('div', { class: 'sv-canvas' });
    const stage = h('div', { class: 'sv-stage' }, this.canvas);
    this.themeButton = iconButton(ICONS.auto, 'Colour scheme', () => this.cycleScheme(), {
      class: 'sv-icon-btn sv-theme-btn',
    });
    const toolbar = h(
      'div',
      { class: 'sv-toolbar', role: 'toolbar', 'aria-label': 'Editor' },
      iconButton(ICONS.undo, 'Undo', () => this.undo()),
      iconButton(ICONS.redo, 'Redo', () => this.redo()),
      h('span', { class: 'sv-grow' }),
      o.templates === false
        ? null
        : h(
            'button',
            { type: 'button', class: 'sv-btn sv-tpl-btn', onclick: () => void this.openTemplates() },
            h('span', { html: ICONS.templates }),
            'Templates',
          ),
      o.preview === false
        ? null
        : iconButton(ICONS.eye, 'Preview', () => this.preview(), { class: 'sv-icon-btn sv-preview-btn' }),
      this.themeButton,
    );
    this.root = h('div', { class: 'sv-root' }, toolbar, stage);
    const fieldHost = {
      pickAndUpload: (done: (url: string) => void, state?: (s: UploadState) => void) =>
        this.pickAndUpload(done, state),
    };
    this.settings =
      o.settingsControl || o.background
        ? new SettingsPanel(this.root, !!o.settingsControl, () => this.effectiveScheme(), fieldHost)
        : null;
    if (this.settings) {
      const settings = this.settings;
      toolbar.append(
        iconButton(
          ICONS.settings,
          o.settingsControl ? 'Email settings' : 'Email background',
          () => settings.toggle(),
          { class: 'sv-icon-btn sv-settings-btn' },
        ),
      );
    }
    this.slash = new SlashMenu(
      this.root,
      BLOCKS.flatMap((b) => b.slash ?? []),
      () => this.host,
      { header: toolbar },
    );
    this.variableMenu = new SlashMenu(
      this.root,
      (q) => variableItems(this.variables, q),
      () => this.host,
      {
        pattern: VARIABLE_TRIGGER,
        label: 'Insert variable',
        noun: 'variables',
        header: toolbar,
      },
    );
    this.bubble = new BubbleMenu(this.root, toolbar);
    const handle = new BlockHandle(this.root, (node) => !!BLOCKS_BY_NAME.get(node.type.name)?.inspect);
    const inspector = new Inspector(this.root, BLOCKS_BY_NAME, fieldHost);

    const nodeViews: Record<string, NodeViewConstructor> = {};
    for (const block of BLOCKS) {
      const make = block.view;
      if (make) nodeViews[block.name] = (node, view, getPos) => make(node, view, getPos, this.host);
    }
    const doc = o.content !== undefined ? this.parseContent(o.content) : this.emptyDoc();
    const state = EditorState.create({
      doc,
      // as setContent does: the cursor starts in the first text, so a leading logo or image is
      // not selected with its settings open
      selection: Selection.findFrom(doc.resolve(0), 1, true) ?? undefined,
      plugins: [
        this.slash.plugin(),
        this.variableMenu.plugin(),
        ...this.keymaps(),
        inputRules({ rules: this.inputRules() }),
        history(),
        dropCursor({ color: '#6366f1', width: 2 }),
        gapCursor(),
        placeholderPlugin(),
        darkTextPlugin(),
        placeholderText(o.placeholder ?? "Write, or press '/' for blocks…"),
        this.bubble.plugin(),
        handle.plugin(),
        inspector.plugin(),
      ],
    });
    this.view = new EditorView(this.canvas, {
      state,
      nodeViews,
      editable: () => !this.destroyed && this.editable,
      // the document's language and direction, as the email's content cell has them: a
      // right-to-left document is edited right to left, and spell-checked in its language
      attributes: (state) => {
        const { lang, dir } = docSettings(state.doc.attrs);
        return {
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': 'Email content',
          class: 'sv-content',
          spellcheck: 'true',
          lang,
          dir,
        };
      },
      dispatchTransaction: (tr) => this.dispatch(tr),
      handlePaste: (_view, event) => this.pasteFiles(event),
      clipboardParser: this.parser,
      handleDrop: (view, event, _slice, moved) => !moved && this.dropFiles(view, event),
      transformPastedHTML: (html) =>
        html.replace(/<(script|style|iframe|object|embed|template)[\s\S]*?<\/\1\s*>/gi, ''),
      transformPasted: (slice) => {
        const content = chipVariables(slice.content, this.schema);
        return content === slice.content ? slice : new Slice(content, slice.openStart, slice.openEnd);
      },
    });
    this.editable = o.editable !== false;
    this.view.setProps({});
    this.settings?.attach(this.view);
    this.root.addEventListener('focusin', () => this.setFocused(true));
    this.root.addEventListener('focusout', (e) => {
      if (!this.root.contains(e.relatedTarget as Node | null)) this.setFocused(false);
    });
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    if (media) {
      const onScheme = () => this.applyTheme();
      media.addEventListener('change', onScheme);
      this.cleanups.push(() => media.removeEventListener('change', onScheme));
    }
    this.applyTheme();
    this.resolved.element.append(this.root);
  }

  private editable = true;

  private get host(): EditorHost {
    return {
      view: this.view,
      pickAndUpload: (done, state) => this.pickAndUpload(done, state),
      branded: (type) => brandAttrs(type, this.brand),
      variables: this.variables,
    };
  }

  /** The email as a complete HTML document, safe for email clients. Synchronous. */
  getHTML(): string {
    this.alive();
    return renderEmail(this.view.state.doc.toJSON() as JSONNode);
  }

  /** The plain-text alternative of the email (for the `text/plain` part). */
  getText(): string {
    this.alive();
    return renderText(this.view.state.doc.toJSON() as JSONNode);
  }

  /**
   * What the email lacks that readers or the law expect, block by block: a footer without a
   * postal address or unsubscribe link, a signature without a name, a button without a link.
   * The email never fills these in with made-up text; check this before sending. The editor
   * shows the same on the blocks themselves.
   */
  getProblems(): ContentProblem[] {
    this.alive();
    return findProblems(this.view.state.doc.toJSON() as JSONNode);
  }

  /** The document as JSON: store it, and give it back to `setContent` to edit again. */
  getJSON(): JSONNode {
    this.alive();
    return this.view.state.doc.toJSON() as JSONNode;
  }

  /**
   * Replaces the content with HTML (any HTML, normalised to the editor's blocks; `getHTML()`
   * output comes back exactly) or with the JSON of `getJSON()`. Undoable. Throws
   * `SEB_ERR_UNKNOWN_NODE`, `SEB_ERR_UNKNOWN_MARK` or `SEB_ERR_BAD_CONTENT` on invalid JSON.
   */
  setContent(content: string | object): void {
    this.alive();
    const doc = this.parseContent(content);
    const { state } = this.view;
    let tr = state.tr.replaceWith(0, state.doc.content.size, doc.content);
    for (const [key, value] of Object.entries(doc.attrs)) tr = tr.setDocAttribute(key, value);
    // the cursor goes to the first text, so a leading logo or image is not selected (with its settings open)
    tr.setSelection(Selection.findFrom(tr.doc.resolve(0), 1, true) ?? Selection.atStart(tr.doc));
    // Its own undo step: neither merged into the edits before it nor with the ones after.
    this.view.dispatch(closeHistory(tr));
    this.closeNext = true;
  }

  /** Turns editing on or off (the content stays selectable and `getHTML()` keeps working). */
  setEditable(editable: boolean): void {
    this.alive();
    this.editable = editable;
    this.view.setProps({});
    this.root.classList.toggle('sv-readonly', !editable);
    this.view.dispatch(this.view.state.tr.setMeta('editable', editable));
  }

  /** Forces `light` or `dark`, or follows the system with `auto`. */
  setColorScheme(scheme: ColorScheme): void {
    this.alive();
    if (!['auto', 'light', 'dark'].includes(scheme))
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'colorScheme',
        reason: 'expected "auto", "light" or "dark"',
      });
    this.scheme = scheme;
    this.applyTheme();
  }

  /** Undoes the last change; false when there is nothing to undo. */
  undo(): boolean {
    this.alive();
    return undo(this.view.state, this.view.dispatch);
  }

  /** Redoes the last undone change. */
  redo(): boolean {
    this.alive();
    return redo(this.view.state, this.view.dispatch);
  }

  /** Moves focus into the text. */
  focus(): void {
    this.alive();
    this.view.focus();
  }

  /**
   * Changes the branding live: later slash commands and templates use it, and blocks that still
   * show the previous branding (logo, social links, brand-coloured buttons and accents, footer,
   * signature) follow it, in one undoable step; values people changed by hand stay. Returns the
   * problems found: bad values are reported (and logged) and ignored, never rendered.
   */
  setBranding(branding: BrandSettings | null): BrandingProblem[] {
    this.alive();
    const previous = this.brand;
    this.brand = this.takeBranding(branding);
    const { state } = this.view;
    const tr = state.tr;
    state.doc.descendants((node, pos) => {
      const attrs = rebrandAttrs(node.type.name, node.attrs, this.brand, previous);
      if (attrs) tr.setNodeMarkup(pos, undefined, attrs);
      for (const mark of node.marks) {
        const markAttrs = rebrandAttrs(mark.type.name, mark.attrs, this.brand, previous);
        if (markAttrs && node.isText) {
          tr.removeMark(pos, pos + node.nodeSize, mark);
          tr.addMark(pos, pos + node.nodeSize, mark.type.create(markAttrs));
        }
      }
    });
    if (tr.docChanged) this.view.dispatch(tr);
    return this.brandingProblems;
  }

  /** The branding in use, checked: every leaf present, `null` where not given. */
  getBranding(): Brand {
    return structuredClone(this.brand);
  }

  /** The branding values that were ignored, and why (also logged with `console.warn`). */
  get brandingProblems(): BrandingProblem[] {
    return this.problems.map((p) => ({ ...p }));
  }

  /**
   * Loads a template (a saved or gallery template, or a document) with the branding applied:
   * logo, colours, social links, footer and signature. Replaces the content as one undo step.
   */
  loadTemplate(template: JSONNode | SavedTemplate | GalleryTemplate): void {
    this.alive();
    const document = 'document' in template ? template.document : template;
    this.setContent(applyBranding(document as JSONNode, this.brand));
  }

  /**
   * The "My Templates" store: the `templates.store` option, the service's API for `{ url, token }`,
   * or browser storage. Loaded on first use (it lives in the templates chunk).
   */
  getTemplateStore(): Promise<TemplateStore> {
    this.store ??= (async () => {
      const given = this.options.templates ? this.options.templates.store : undefined;
      if (given && typeof (given as TemplateStore).list === 'function') return given as TemplateStore;
      const { LocalTemplateStore, HttpTemplateStore } = await import('./templates/stores.js');
      return given
        ? new HttpTemplateStore(given as { url: string; token: string })
        : new LocalTemplateStore();
    })();
    return this.store;
  }

  /** Saves the current email to "My Templates" under `name`; resolves to the saved template. */
  async saveTemplate(name: string): Promise<SavedTemplate> {
    this.alive();
    const store = await this.getTemplateStore();
    return store.create(name, this.getJSON());
  }

  /** Opens the template picker ("My Templates" or "Purchased Templates"), loading it on first use. */
  async openTemplates(tab: TemplateTab = 'mine'): Promise<void> {
    this.alive();
    if (tab !== 'mine' && tab !== 'purchased')
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'tab',
        reason: 'expected "mine" or "purchased"',
      });
    const [{ openTemplatePicker }, store] = await Promise.all([
      import('./templates/picker.js'),
      this.getTemplateStore(),
    ]);
    if (this.destroyed) return;
    this.picker?.close();
    const templates = this.options.templates || {};
    this.picker = openTemplatePicker(
      {
        store,
        source: templates.purchased,
        current: () => this.getJSON(),
        load: (doc) => {
          this.loadTemplate(doc);
          this.view.focus();
        },
        render: (doc) => renderEmail(applyBranding(doc, this.brand)),
        theme: this.effectiveScheme(),
        onClose: () => (this.picker = null),
      },
      tab,
    );
  }

  /** Opens the preview dialog (desktop and mobile) on the current email. */
  preview(): MailPreview {
    this.alive();
    this.previewDialog ??= new MailPreview({ closeOnOverlayClick: true });
    this.previewDialog.setContent(this.getHTML());
    this.previewDialog.show();
    return this.previewDialog;
  }

  /** Listens to an event; returns a function that stops listening. */
  on<E extends keyof EditorEvents>(event: E, listener: (payload: EditorEvents[E]) => void): () => void {
    this.alive();
    if (!['change', 'focus', 'blur', 'upload', 'theme'].includes(event)) {
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'event',
        reason: `unknown event "${String(event)}"`,
      });
    }
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => this.off(event, listener);
  }

  /** Stops a listener added with {@link ServiceEditor.on}. */
  off<E extends keyof EditorEvents>(event: E, listener: (payload: EditorEvents[E]) => void): void {
    this.listeners.get(event)?.delete(listener as (payload: never) => void);
  }

  /** Removes every element, listener and popover the editor made; the host element is empty again. */
  destroy(): void {
    if (this.destroyed) return;
    this.picker?.close();
    this.previewDialog?.destroy();
    this.view.destroy();
    this.destroyed = true;
    for (const cleanup of this.cleanups) cleanup();
    this.listeners.clear();
    this.root.remove();
  }

  private takeBranding(branding: unknown): Brand {
    const { brand, problems } = checkBranding(branding);
    this.problems = problems;
    for (const p of problems) console.warn(new ServiceEditorError('SEB_ERR_BRANDING', { ...p }).message);
    return brand;
  }

  private alive(): void {
    if (this.destroyed) throw new ServiceEditorError('SEB_ERR_DESTROYED');
  }

  private emit<E extends keyof EditorEvents>(event: E, payload: EditorEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (p: EditorEvents[E]) => void)(payload);
      } catch (error) {
        // a host listener's bug must not break editing
        console.error(error);
      }
    }
  }

  private dispatch(tr: Transaction): void {
    if (this.destroyed) return;
    if (this.closeNext && tr.docChanged) {
      this.closeNext = false;
      closeHistory(tr);
    }
    const before = this.view.state;
    this.view.updateState(before.apply(tr));
    if (tr.docChanged || before.doc.attrs !== this.view.state.doc.attrs) {
      if (before.doc.attrs !== this.view.state.doc.attrs) {
        this.applyCanvas();
        this.settings?.refresh();
      }
      this.emit('change', { editor: this });
    }
  }

  private setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    this.emit(focused ? 'focus' : 'blur', { editor: this });
  }

  private emptyDoc(): PMNode {
    return this.schema.nodes.doc!.create(this.docDefaults(), this.schema.nodes.paragraph!.create());
  }

  private docDefaults(): Record<string, unknown> {
    return { ...docSettings({}), ...this.resolved.defaults };
  }

  private parseContent(content: string | object): PMNode {
    if (typeof content === 'string') {
      const dom = new window.DOMParser().parseFromString(content, 'text/html');
      const marker = dom.querySelector('[data-block="doc"]');
      for (const el of dom.querySelectorAll('[data-sv-preheader], script, style, template')) el.remove();
      const attrs = marker
        ? readAttrsMarker(DOC_ATTRS, marker.getAttribute('data-attrs'))
        : this.docDefaults();
      const parsed = this.parser.parse(dom.body);
      return this.schema.nodes.doc!.create(attrs, chipVariables(parsed.content, this.schema));
    }
    const raw = content as JSONNode;
    const cleaned = cleanDocument({ ...raw, attrs: { ...this.docDefaults(), ...(raw?.attrs ?? {}) } });
    if (!cleaned.content?.length) cleaned.content = [{ type: 'paragraph' }];
    try {
      const node = this.schema.nodeFromJSON(cleaned);
      node.check();
      return node;
    } catch (error) {
      throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', {
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private effectiveScheme(): 'light' | 'dark' {
    if (this.scheme !== 'auto') return this.scheme;
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  private cycleScheme(): void {
    this.setColorScheme(this.scheme === 'auto' ? 'light' : this.scheme === 'light' ? 'dark' : 'auto');
  }

  private applyTheme(): void {
    const scheme = this.effectiveScheme();
    const changed = this.root.dataset.theme !== scheme;
    this.root.dataset.theme = scheme;
    this.root.dataset.scheme = this.scheme;
    this.themeButton.innerHTML =
      this.scheme === 'auto' ? ICONS.auto : this.scheme === 'light' ? ICONS.sun : ICONS.moon;
    const label = `Colour scheme: ${this.scheme === 'auto' ? `automatic (${scheme})` : scheme}`;
    this.themeButton.setAttribute('aria-label', label);
    this.themeButton.title = label;
    this.applyCanvas();
    this.settings?.refresh();
    if (changed) this.emit('theme', { scheme });
  }

  private applyCanvas(): void {
    const s = docSettings(this.view?.state.doc.attrs ?? this.docDefaults());
    const dark = this.effectiveScheme() === 'dark';
    const style = this.root.style;
    style.setProperty('--sv-backdrop', dark ? s.darkBackdrop : s.backdrop);
    style.setProperty('--sv-canvas', dark ? s.darkCanvas : s.canvas);
    style.setProperty('--sv-border', dark ? s.darkBorder : s.border);
    style.setProperty('--sv-radius', `${s.radius}px`);
    style.setProperty('--sv-pad', `${s.padding}px`);
    style.setProperty('--sv-width', `${s.width}px`);
  }

  private keymaps(): Plugin[] {
    const s = this.schema;
    const n = s.nodes;
    const m = s.marks;
    const hardBreak = chainCommands((state, dispatch) => {
      dispatch?.(state.tr.replaceSelectionWith(n.hardBreak!.create()).scrollIntoView());
      return true;
    });
    return [
      keymap({
        'Mod-z': undo,
        'Mod-y': redo,
        'Shift-Mod-z': redo,
        'Mod-b': toggleMark(m.bold!),
        'Mod-i': toggleMark(m.italic!),
        'Mod-u': toggleMark(m.underline!),
        'Mod-Shift-s': toggleMark(m.strike!),
        'Mod-Shift-x': toggleMark(m.strike!),
        'Mod-k': () => this.bubble.openLink(),
        'Shift-Enter': hardBreak,
        'Mod-Enter': hardBreak,
        Enter: splitListItem(n.listItem!),
        Tab: sinkListItem(n.listItem!),
        'Shift-Tab': liftListItem(n.listItem!),
        'Mod-Alt-0': setBlockType(n.paragraph!),
        'Mod-Alt-1': setBlockType(n.heading!, { level: 1 }),
        'Mod-Alt-2': setBlockType(n.heading!, { level: 2 }),
        'Mod-Alt-3': setBlockType(n.heading!, { level: 3 }),
      }),
      keymap(baseKeymap),
    ];
  }

  private inputRules(): InputRule[] {
    const n = this.schema.nodes;
    return [
      textblockTypeInputRule(/^(#{1,3})\s$/, n.heading!, (match) => ({ level: match[1]!.length })),
      wrappingInputRule(/^\s*([-*])\s$/, n.bulletList!),
      wrappingInputRule(
        /^(\d+)\.\s$/,
        n.orderedList!,
        (match) => ({ start: Number(match[1]) }),
        (match, node) => node.childCount + node.attrs.start === Number(match[1]),
      ),
      wrappingInputRule(/^\s*>\s$/, n.blockquote!),
      // "{{name}}" or "{{name|fallback}}" typed in full becomes a variable chip
      new InputRule(
        new RegExp(`\\{\\{\\s*(${VARIABLE_NAME.source.slice(1, -1)})\\s*(?:\\|([^{}]*?))?\\s*\\}\\}$`),
        (state, match, start, end) =>
          match[1]!.length > 64
            ? null
            : state.tr.replaceWith(
                start,
                end,
                n.variable!.create(
                  { name: match[1], fallback: cleanFallback(match[2]) },
                  null,
                  state.storedMarks ?? state.doc.resolve(start).marks(),
                ),
              ),
      ),
    ];
  }

  private pickAndUpload(done: (url: string) => void, onState?: (s: UploadState) => void): void {
    const input = h('input', { type: 'file', accept: ACCEPTED_TYPES.join(','), hidden: true });
    this.root.append(input);
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      input.remove();
      if (file) this.uploadFile(file, done, onState);
    });
    input.click();
  }

  private uploadFile(file: File, done: (url: string) => void, onState?: (s: UploadState) => void): void {
    onState?.({ phase: 'uploading', loaded: 0, total: file.size });
    const failed = (message: string) => {
      if (!this.destroyed) onState?.({ phase: 'error', message });
    };
    // The upload code comes with the first upload: most editing sessions never upload.
    import('./upload/upload-code.js').then(
      ({ runUpload, friendlyMessage, imageKitUploader }) => {
        const o = this.options;
        this.uploader ??=
          o.upload ?? (o.imageServiceUrl ? imageKitUploader(o.imageServiceUrl, o.uploadFolder) : null);
        return runUpload(
          this.uploader,
          file,
          { types: ACCEPTED_TYPES, maxSize: this.resolved.maxImageSize },
          (e) => this.emit('upload', e),
          (loaded, total) => onState?.({ phase: 'uploading', loaded, total }),
        ).then(
          (url) => {
            if (this.destroyed) return;
            onState?.({ phase: 'done', url });
            done(url);
          },
          (error) => failed(friendlyMessage(error)),
        );
      },
      () => failed('The upload could not start: the editor’s upload code did not load.'),
    );
  }

  private imageFiles(list: FileList | undefined | null): File[] {
    return [...(list ?? [])].filter((f) => f.type.startsWith('image/'));
  }

  private pasteFiles(event: ClipboardEvent): boolean {
    const files = this.imageFiles(event.clipboardData?.files);
    if (files.length === 0 || event.clipboardData?.getData('text/html')) return false;
    const pos = this.view.state.selection.from;
    for (const file of files) this.uploadAt(file, pos);
    return true;
  }

  private dropFiles(view: EditorView, event: DragEvent): boolean {
    const files = this.imageFiles(event.dataTransfer?.files);
    if (files.length === 0) return false;
    const pos =
      view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? view.state.doc.content.size;
    event.preventDefault();
    for (const file of files) this.uploadAt(file, pos);
    return true;
  }

  /** Uploads a pasted or dropped image behind a placeholder, then inserts it where the placeholder went. */
  private uploadAt(file: File, pos: number): void {
    const id = `upload-${++this.uploadCount}`;
    const label = h('span', {}, `Uploading ${file.name}…`);
    const bar = h(
      'span',
      {
        class: 'sv-progress',
        role: 'progressbar',
        'aria-label': `Uploading ${file.name}`,
        'aria-valuemin': '0',
        'aria-valuemax': '100',
        'aria-valuenow': '0',
      },
      h('span', {}),
    );
    const dom = h('span', { class: 'sv-upload', contenteditable: 'false' }, label, bar);
    addPlaceholder(this.view, id, pos, dom);
    this.uploadFile(
      file,
      (url) => {
        const at = findPlaceholder(this.view, id) ?? this.view.state.doc.content.size;
        removePlaceholder(this.view, id);
        const image = this.schema.nodes.image!.create({
          src: url,
          alt: file.name.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' '),
        });
        this.view.dispatch(this.view.state.tr.replaceRangeWith(at, at, image));
      },
      (state) => {
        if (state.phase === 'uploading') {
          const pct = state.total ? Math.round((state.loaded / state.total) * 100) : 0;
          bar.setAttribute('aria-valuenow', String(pct));
          (bar.firstChild as HTMLElement).style.width = `${pct}%`;
        } else if (state.phase === 'error') {
          dom.className = 'sv-upload sv-upload-error';
          dom.setAttribute('role', 'alert');
          dom.replaceChildren(
            h('span', {}, state.message),
            iconButton(ICONS.close, 'Dismiss', () => removePlaceholder(this.view, id)),
          );
        }
      },
    );
  }
}

/** Shows a hint in the empty paragraph that has the cursor. */
function placeholderText(text: string): Plugin {
  return new Plugin({
    props: {
      decorations: (state) => {
        const { $from, empty } = state.selection;
        const parent = $from.parent;
        if (!empty || parent.type.name !== 'paragraph' || parent.content.size > 0) return null;
        const pos = $from.before();
        return DecorationSet.create(state.doc, [
          Decoration.node(pos, pos + parent.nodeSize, { class: 'sv-empty', 'data-placeholder': text }),
        ]);
      },
    },
  });
}
