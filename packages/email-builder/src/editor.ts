import { baseKeymap } from 'prosemirror-commands';
import { closeHistory, history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import type { DOMParser as PMDOMParser, Node as PMNode, Schema } from 'prosemirror-model';
import { Slice } from 'prosemirror-model';
import { EditorState, Selection, type Transaction } from 'prosemirror-state';
import { EditorView, type NodeViewConstructor } from 'prosemirror-view';
import { type Brand, type BrandingProblem, checkBranding } from './branding/check.js';
import { applyBranding, type Brandable, brandAttrs, rebrandAttrs } from './document/branding.js';
import { findProblems } from './document/problems.js';
import { cleanDocument } from './document/validate.js';
import { ServiceEditorError } from './errors.js';
import type { MessageTexts } from './i18n/translate.js';
import { blockAtomInput } from './input/block-atoms.js';
import { blockMoveKeys } from './input/block-moves.js';
import { htmlParser } from './input/html-parser.js';
import { blockInput } from './input/keymap.js';
import { darkTextPlugin } from './marks/dark-text.js';
import { readAttrsMarker } from './model/attrs.js';
import { withoutEmptyConditions } from './model/condition.js';
import { DOC_ATTRS, docSettings } from './model/doc.js';
import type { JSONNode } from './model/types.js';
import { type EditorHost, UPLOADS_OFF, type UploadState } from './nodes/define.js';
import {
  chipVariables,
  DEFAULT_VARIABLES,
  VARIABLE_TRIGGER,
  type VariableOption,
  variableItem,
  variableItems,
} from './nodes/variable/index.js';
import {
  type BrandSettings,
  type ColorScheme,
  type ResolvedOptions,
  resolveOptions,
  type ServiceEditorOptions,
} from './options.js';
import { MailPreview } from './preview/mail-preview.js';
import { cleanFallback, isVariableName } from './primitives/merge-tags.js';
import type { ContentProblem } from './problems.js';
import { type BlockSet, blockSet } from './registry/block-set.js';
import { renderEmail, renderText, type SyntaxOption } from './render/email.js';
import type { TemplateTab } from './templates/picker.js';
import type { GalleryTemplate, SavedTemplate, TemplateStore } from './templates/types.js';
import { BlockHandle } from './ui/block-handle.js';
import { BubbleMenu } from './ui/bubble-menu.js';
import { conditionBadges } from './ui/condition-badge.js';
import { cursors } from './ui/cursors.js';
import { h } from './ui/dom.js';
import { Inspector } from './ui/inspector.js';
import { LinkHover } from './ui/link-hover.js';
import { placeholderText } from './ui/placeholder-text.js';
import { SchemeMenu } from './ui/scheme-menu.js';
import { SettingsPanel } from './ui/settings-panel.js';
import { makeRoomBeside } from './ui/side-room.js';
import { filterItems, SlashMenu } from './ui/slash-menu.js';
import { createToolbar } from './ui/toolbar.js';
import { EditorUploads } from './upload/editor-uploads.js';
import { placeholderPlugin } from './upload/placeholder.js';
import type { UploadEvent } from './upload/types.js';
import { sampleData } from './variables/sample-data.js';

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
  /**
   * The colour scheme changed: `scheme` is the one shown (`light` or `dark`), `colorScheme` the
   * one chosen (`auto` follows the system), by `setColorScheme()` or the toolbar's menu.
   */
  theme: { scheme: 'light' | 'dark'; colorScheme: ColorScheme };
}

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
  /** The built-in blocks and the host's own (the `blocks` option). */
  private readonly set: BlockSet;
  private readonly schema: Schema;
  /** Parses pasted HTML and `setContent(html)` (pasted tables become paragraphs). */
  private readonly parser: PMDOMParser;
  private readonly root: HTMLElement;
  private readonly canvas: HTMLElement;
  private readonly view: EditorView;
  private readonly listeners = new Map<keyof EditorEvents, Set<(payload: never) => void>>();
  private readonly cleanups: (() => void)[] = [];
  private readonly uploads: EditorUploads;
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
  private readonly inspector: Inspector;
  private readonly schemeMenu: SchemeMenu;
  private scheme: ColorScheme;
  private destroyed = false;
  private focused = false;
  private closeNext = false;

  constructor(options: ServiceEditorOptions) {
    if (!isBrowser()) throw new ServiceEditorError('SEB_ERR_NOT_BROWSER', { what: 'ServiceEditor' });
    this.resolved = resolveOptions(options, document);
    this.options = this.resolved.options;
    this.scheme = this.resolved.colorScheme;
    this.set = blockSet(options.blocks);
    this.schema = this.set.schema();
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
    this.root = h('div', { class: 'sv-root' });
    this.schemeMenu = new SchemeMenu(this.root, (scheme) => this.setColorScheme(scheme));
    const toolbar = createToolbar({
      undo: () => this.undo(),
      redo: () => this.redo(),
      templates: o.templates === false ? null : () => void this.openTemplates(),
      preview: o.preview === false ? null : () => this.preview(),
      schemeButton: this.schemeMenu.button,
      settings:
        o.settingsControl || o.background
          ? {
              label: o.settingsControl ? 'Email settings' : 'Email background',
              // the email settings and a block's settings never show together
              toggle: () => {
                this.inspector.dismiss();
                this.settings?.toggle();
              },
            }
          : null,
    });
    this.root.prepend(toolbar, stage);
    this.uploads = new EditorUploads({
      view: () => this.view,
      root: this.root,
      options: o,
      maxImageSize: this.resolved.maxImageSize,
      alive: () => !this.destroyed,
      emit: (e) => this.emit('upload', e),
    });
    const fieldHost = {
      pickAndUpload: (done: (url: string) => void, state?: (s: UploadState) => void) =>
        this.uploads.pick(done, state),
      uploads: this.canUpload,
      offReason: UPLOADS_OFF,
    };
    this.settings =
      o.settingsControl || o.background
        ? new SettingsPanel(this.root, !!o.settingsControl, () => this.effectiveScheme(), fieldHost)
        : null;
    const blockItems = this.set.blocks.flatMap((b) => b.slash ?? []);
    // the host's variables join the blocks only when the query finds them ("/first" gives
    // First name), so they never crowd the list of blocks
    this.slash = new SlashMenu(
      this.root,
      // found by their title in the editor's language, and by their English one
      (q) =>
        filterItems(
          (q ? [...blockItems, ...this.variables.map(variableItem)] : blockItems).map((i) => ({
            ...i,
            keywords: [...i.keywords, this.words[i.title] ?? ''],
          })),
          q,
        ),
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
        header: toolbar,
      },
    );
    this.bubble = new BubbleMenu(this.root, toolbar);
    const linkHover = new LinkHover(this.root, toolbar, () => this.bubble.openLink());
    const handle = new BlockHandle(this.root, (node) => !!this.set.byName.get(node.type.name)?.inspect);
    this.inspector = new Inspector(this.root, this.set.byName, fieldHost, toolbar, () =>
      this.settings?.hide(),
    );

    const nodeViews: Record<string, NodeViewConstructor> = {};
    for (const block of this.set.blocks) {
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
        // before the blocks' keys: Tab in a link moves into its card, even in a list
        linkHover.plugin(),
        ...blockInput(this.set, this.schema),
        ...blockAtomInput(),
        blockMoveKeys(),
        keymap({
          'Mod-z': undo,
          'Mod-y': redo,
          'Shift-Mod-z': redo,
          'Mod-k': () => this.bubble.openLink(),
        }),
        keymap(baseKeymap),
        history(),
        cursors(),
        placeholderPlugin(),
        darkTextPlugin(),
        conditionBadges(),
        placeholderText(() => {
          const text = o.placeholder ?? "Write, or press '/' for blocks…";
          return this.words[text] ?? text;
        }),
        this.bubble.plugin(),
        handle.plugin(),
        this.inspector.plugin(),
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
      handlePaste: (_view, event) => this.uploads.paste(event),
      clipboardParser: this.parser,
      handleDrop: (view, event, _slice, moved) => !moved && this.uploads.drop(view, event),
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
    // The chrome's words, when not English (or the host has its own): they load on demand,
    // English meanwhile, then what was drawn in English is drawn again (see i18n/locales.ts)
    if (o.locale || o.messages)
      import('./i18n/locales.js')
        .then(({ useLocale }) => useLocale(this.root, o.locale, o.messages))
        .then((texts) => {
          if (!texts) return;
          this.words = texts;
          // the placeholder again, in the editor's language
          this.view.setProps({});
        }, console.error);
    this.applyTheme();
    this.resolved.element.append(this.root);
    // the email moves left of centre where that gives a block's settings room beside it
    if (typeof ResizeObserver === 'function') {
      const room = new ResizeObserver(() => makeRoomBeside(this.canvas, this.root));
      room.observe(stage);
      room.observe(this.canvas);
      this.cleanups.push(() => room.disconnect());
    }
  }

  private editable = true;
  /**
   * The chrome's words in the `locale` option's language, once loaded (see `i18n/`): the first
   * load reads the few it draws itself (the placeholder, the slash search); the rest use `t`.
   */
  private words: MessageTexts = {};

  /** Whether the host configured uploads (`upload` or `imageServiceUrl`). */
  private get canUpload(): boolean {
    return !!(this.options.upload || this.options.imageServiceUrl);
  }

  private get host(): EditorHost {
    return {
      view: this.view,
      pickAndUpload: (done, state) => this.uploads.pick(done, state),
      uploads: this.canUpload,
      branded: (type) => brandAttrs(this.set, type, this.brand),
      variables: this.variables,
    };
  }

  /**
   * The email as a complete HTML document, safe for email clients. Synchronous. With `syntax`
   * (`handlebars`, `liquid`, `mustache`), its merge tags, conditions and repeats are written
   * for that engine.
   */
  getHTML(options: SyntaxOption = {}): string {
    this.alive();
    const json = this.view.state.doc.toJSON() as JSONNode;
    return renderEmail(json, { blocks: this.options.blocks, syntax: options.syntax });
  }

  /** The plain-text alternative of the email (for the `text/plain` part); `syntax` as for `getHTML`. */
  getText(options: SyntaxOption = {}): string {
    this.alive();
    const json = this.view.state.doc.toJSON() as JSONNode;
    return renderText(json, { blocks: this.options.blocks, syntax: options.syntax });
  }

  /**
   * What the email lacks that readers or the law expect, block by block: a footer without a
   * postal address or unsubscribe link, a signature without a name, a button without a link.
   * The email never fills these in with made-up text; check this before sending. The editor
   * shows the same on the blocks themselves.
   */
  getProblems(): ContentProblem[] {
    this.alive();
    return findProblems(this.view.state.doc.toJSON() as JSONNode, { blocks: this.options.blocks });
  }

  /** The document as JSON: store it, and give it back to `setContent` to edit again. */
  getJSON(): JSONNode {
    this.alive();
    return withoutEmptyConditions(this.view.state.doc.toJSON() as JSONNode);
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

  /** The colour scheme chosen: `auto` (following the system), `light` or `dark`. */
  getColorScheme(): ColorScheme {
    return this.scheme;
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
      const attrs = rebrandAttrs(
        this.set.byName.get(node.type.name) as Brandable | undefined,
        node.attrs,
        this.brand,
        previous,
      );
      if (attrs) tr.setNodeMarkup(pos, undefined, attrs);
      for (const mark of node.marks) {
        const markAttrs = rebrandAttrs(
          this.set.marksByName.get(mark.type.name) as Brandable | undefined,
          mark.attrs,
          this.brand,
          previous,
        );
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
    this.setContent(
      applyBranding(document as JSONNode, this.brand, undefined, { blocks: this.options.blocks }),
    );
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
        render: (doc) =>
          renderEmail(applyBranding(doc, this.brand, undefined, { blocks: this.options.blocks }), {
            blocks: this.options.blocks,
          }),
        theme: this.effectiveScheme(),
        onClose: () => (this.picker = null),
        where: this.root,
      },
      tab,
    );
  }

  /** Opens the preview dialog (desktop and mobile) on the current email. */
  preview(): MailPreview {
    this.alive();
    // merge tags show the host's sample values (lists for repeats), else their fallbacks (the dialog can show them raw)
    // in the editor's language: MailPreview takes the editor's `locale` and `messages` options
    // (and ignores the rest)
    this.previewDialog ??= new MailPreview({
      ...this.options,
      closeOnOverlayClick: true,
      variables: sampleData(this.variables),
    });
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
    const cleaned = cleanDocument(
      { ...raw, attrs: { ...this.docDefaults(), ...(raw?.attrs ?? {}) } },
      { blocks: this.options.blocks },
    );
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

  private applyTheme(): void {
    const scheme = this.effectiveScheme();
    const changed = this.root.dataset.theme !== scheme || this.root.dataset.scheme !== this.scheme;
    this.root.dataset.theme = scheme;
    this.root.dataset.scheme = this.scheme;
    this.schemeMenu.show(this.scheme, scheme);
    this.applyCanvas();
    this.settings?.refresh();
    if (changed) this.emit('theme', { scheme, colorScheme: this.scheme });
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
}
