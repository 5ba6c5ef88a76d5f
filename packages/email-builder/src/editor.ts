import { closeHistory, redo, undo } from 'prosemirror-history';
import type { DOMParser as PMDOMParser, Node as PMNode, Schema } from 'prosemirror-model';
import { EditorState, Selection, type Transaction } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { Brand, BrandingProblem } from './branding/check.js';
import { applyBranding, brandAttrs } from './document/branding.js';
import { findProblems } from './document/problems.js';
import { EditorBranding } from './editor/branding.js';
import { EditorChrome } from './editor/chrome.js';
import { emptyDocument, parseContent } from './editor/content.js';
import { contentView } from './editor/content-view.js';
import { Emitter } from './editor/events.js';
import { editorPlugins } from './editor/plugins.js';
import { rebrand } from './editor/rebrand.js';
import { TemplatesLoader } from './editor/templates-loader.js';
import { EditorTheme } from './editor/theme.js';
import { ServiceEditorError } from './errors.js';
import { htmlParser } from './input/html-parser.js';
import { withoutEmptyConditions } from './model/condition.js';
import { docSettings } from './model/doc.js';
import type { JSONNode } from './model/types.js';
import { type EditorHost, UPLOADS_OFF, type UploadState } from './nodes/define.js';
import type { VariableOption } from './nodes/variable/index.js';
import {
  type BrandSettings,
  type ColorScheme,
  type ResolvedOptions,
  resolveOptions,
  type ServiceEditorOptions,
} from './options.js';
import { MailPreview } from './preview/mail-preview.js';
import type { ContentProblem } from './problems.js';
import { type BlockSet, blockSet } from './registry/block-set.js';
import { renderEmail, renderText, type SyntaxOption } from './render/email.js';
import type { TemplateTab } from './templates/picker.js';
import type { GalleryTemplate, SavedTemplate, TemplateStore } from './templates/types.js';
import { h } from './ui/dom.js';
import { keepRoomBeside } from './ui/side-room.js';
import { EditorUploads } from './upload/editor-uploads.js';
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
  private readonly events = new Emitter<EditorEvents>(['change', 'focus', 'blur', 'upload', 'theme']);
  private readonly cleanups: (() => void)[] = [];
  private readonly uploads: EditorUploads;
  private readonly chrome: EditorChrome;
  private readonly theme: EditorTheme;
  private readonly templates: TemplatesLoader;
  private readonly branding: EditorBranding;
  private readonly variables: VariableOption[];
  private previewDialog: MailPreview | null = null;
  private destroyed = false;
  private focused = false;
  private closeNext = false;
  private editable = true;

  constructor(options: ServiceEditorOptions) {
    if (!isBrowser()) throw new ServiceEditorError('SEB_ERR_NOT_BROWSER', { what: 'ServiceEditor' });
    this.resolved = resolveOptions(options, document);
    this.options = this.resolved.options;
    this.variables = this.resolved.variables;
    this.set = blockSet(options.blocks);
    this.schema = this.set.schema();
    this.parser = htmlParser(this.schema);
    const o = this.options;
    this.branding = new EditorBranding(o.branding);

    this.canvas = h('div', { class: 'sv-canvas' });
    const stage = h('div', { class: 'sv-stage' }, this.canvas);
    this.root = h('div', { class: 'sv-root' });
    this.uploads = new EditorUploads({
      view: () => this.view,
      root: this.root,
      options: o,
      maxImageSize: this.resolved.maxImageSize,
      alive: () => !this.destroyed,
      emit: (e) => this.events.emit('upload', e),
    });
    const fieldHost = {
      pickAndUpload: (done: (url: string) => void, state?: (s: UploadState) => void) =>
        this.uploads.pick(done, state),
      uploads: this.canUpload,
      offReason: UPLOADS_OFF,
      variables: this.variables,
    };
    this.chrome = new EditorChrome(this.root, o, this.set, this.variables, fieldHost, {
      undo: () => this.undo(),
      redo: () => this.redo(),
      openTemplates: () => void this.openTemplates(),
      preview: () => this.preview(),
      chooseScheme: (scheme) => this.setColorScheme(scheme),
      shownScheme: () => this.theme.shown(),
      host: () => this.host,
    });
    this.root.prepend(this.chrome.toolbar, stage);
    this.theme = new EditorTheme(
      this.root,
      this.resolved.colorScheme,
      this.chrome.schemeMenu,
      () => this.view?.state.doc.attrs ?? this.docDefaults(),
      (scheme, colorScheme, changed) => {
        this.chrome.settings?.refresh();
        if (changed) this.events.emit('theme', { scheme, colorScheme });
      },
    );
    this.cleanups.push(() => this.theme.destroy());
    this.templates = new TemplatesLoader(o.templates, {
      current: () => this.getJSON(),
      load: (doc) => {
        this.loadTemplate(doc);
        this.view.focus();
      },
      render: (doc) =>
        renderEmail(applyBranding(doc, this.branding.current, undefined, { blocks: o.blocks }), {
          blocks: o.blocks,
        }),
      theme: () => this.theme.shown(),
      destroyed: () => this.destroyed,
      where: this.root,
    });

    const doc =
      o.content !== undefined ? this.parseContent(o.content) : emptyDocument(this.schema, this.docDefaults());
    const state = EditorState.create({
      doc,
      // as setContent does: the cursor starts in the first text, so a leading logo or image is
      // not selected with its settings open
      selection: Selection.findFrom(doc.resolve(0), 1, true) ?? undefined,
      plugins: editorPlugins(this.chrome, this.set, this.schema, () => {
        const text = o.placeholder ?? "Write, or press '/' for blocks…";
        return this.chrome.words[text] ?? text;
      }),
    });
    this.view = contentView(this.canvas, {
      state,
      set: this.set,
      parser: this.parser,
      uploads: this.uploads,
      host: () => this.host,
      editable: () => !this.destroyed && this.editable,
      dispatch: (tr) => this.dispatch(tr),
    });
    this.editable = o.editable !== false;
    this.view.setProps({});
    this.chrome.settings?.attach(this.view);
    this.root.addEventListener('focusin', () => this.setFocused(true));
    this.root.addEventListener('focusout', (e) => {
      if (!this.root.contains(e.relatedTarget as Node | null)) this.setFocused(false);
    });
    // the placeholder again, in the editor's language
    this.chrome.loadWords(this.root, o.locale, o.messages, () => this.view.setProps({}));
    this.theme.apply();
    this.resolved.element.append(this.root);
    // the email moves left of centre where that gives a block's settings room beside it
    this.cleanups.push(keepRoomBeside(this.canvas, this.root, stage));
  }

  /** Whether the host configured uploads (`upload` or `imageServiceUrl`). */
  private get canUpload(): boolean {
    return !!(this.options.upload || this.options.imageServiceUrl);
  }

  private get host(): EditorHost {
    return {
      view: this.view,
      pickAndUpload: (done, state) => this.uploads.pick(done, state),
      uploads: this.canUpload,
      branded: (type) => brandAttrs(this.set, type, this.branding.current),
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
    return this.theme.chosen;
  }

  /** Forces `light` or `dark`, or follows the system with `auto`. */
  setColorScheme(scheme: ColorScheme): void {
    this.alive();
    if (!['auto', 'light', 'dark'].includes(scheme))
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'colorScheme',
        reason: 'expected "auto", "light" or "dark"',
      });
    this.theme.choose(scheme);
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
    const previous = this.branding.replace(branding);
    const tr = rebrand(this.view.state, this.set, this.branding.current, previous);
    if (tr) this.view.dispatch(tr);
    return this.brandingProblems;
  }

  /** The branding in use, checked: every leaf present, `null` where not given. */
  getBranding(): Brand {
    return structuredClone(this.branding.current);
  }

  /** The branding values that were ignored, and why (also logged with `console.warn`). */
  get brandingProblems(): BrandingProblem[] {
    return this.branding.ignored;
  }

  /**
   * Loads a template (a saved or gallery template, or a document) with the branding applied:
   * logo, colours, social links, footer and signature. Replaces the content as one undo step.
   */
  loadTemplate(template: JSONNode | SavedTemplate | GalleryTemplate): void {
    this.alive();
    const document = 'document' in template ? template.document : template;
    this.setContent(
      applyBranding(document as JSONNode, this.branding.current, undefined, { blocks: this.options.blocks }),
    );
  }

  /**
   * The "My Templates" store: the `templates.store` option, the service's API for `{ url, token }`,
   * or browser storage. Loaded on first use (it lives in the templates chunk).
   */
  getTemplateStore(): Promise<TemplateStore> {
    return this.templates.get().then((templates) => templates.getStore());
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
    return (await this.templates.get()).open(tab);
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
    return this.events.on(event, listener);
  }

  /** Stops a listener added with {@link ServiceEditor.on}. */
  off<E extends keyof EditorEvents>(event: E, listener: (payload: EditorEvents[E]) => void): void {
    this.events.off(event, listener);
  }

  /** Removes every element, listener and popover the editor made; the host element is empty again. */
  destroy(): void {
    if (this.destroyed) return;
    this.templates.close();
    this.previewDialog?.destroy();
    this.view.destroy();
    this.destroyed = true;
    for (const cleanup of this.cleanups) cleanup();
    this.events.clear();
    this.root.remove();
  }

  private alive(): void {
    if (this.destroyed) throw new ServiceEditorError('SEB_ERR_DESTROYED');
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
        this.theme.applyCanvas();
        this.chrome.settings?.refresh();
      }
      this.events.emit('change', { editor: this });
    }
  }

  private setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    this.events.emit(focused ? 'focus' : 'blur', { editor: this });
  }

  private docDefaults(): Record<string, unknown> {
    return { ...docSettings({}), ...this.resolved.defaults };
  }

  private parseContent(content: string | object): PMNode {
    const { schema, parser } = this;
    return parseContent(content, {
      schema,
      parser,
      defaults: this.docDefaults(),
      blocks: this.options.blocks,
    });
  }
}
