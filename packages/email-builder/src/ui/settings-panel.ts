import type { EditorView } from 'prosemirror-view';
import { type AttrSpec, cleanValue } from '../model/attrs.js';
import { DOC_ATTRS } from '../model/doc.js';
import { h } from './dom.js';
import type { FieldHost } from './fields.js';
import { loadedFields, whenFieldsLoad } from './lazy-fields.js';

type DocKey = keyof typeof DOC_ATTRS;

/**
 * The email settings: colours for the scheme being shown (light or dark), padding, corner
 * radius, content width and preview text. They are attributes of the document, so they undo,
 * travel with `getJSON()`, and show in `getHTML()`.
 * With only `background: true`, just the email background colour is offered.
 */
export class SettingsPanel {
  readonly el: HTMLElement;
  private view: EditorView | null = null;

  constructor(
    container: HTMLElement,
    private readonly full: boolean,
    private readonly scheme: () => 'light' | 'dark',
    private readonly host: FieldHost,
  ) {
    this.el = h('div', {
      class: 'sv-popover sv-settings',
      role: 'dialog',
      'aria-label': 'Email settings',
      hidden: true,
    });
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.hide();
    });
    container.append(this.el);
  }

  /** Binds the panel to the editor view. */
  attach(view: EditorView): void {
    this.view = view;
  }

  /** Opens or closes the panel. */
  toggle(): void {
    if (this.el.hidden) this.show();
    else this.hide();
  }

  show(): void {
    if (!loadedFields()) {
      whenFieldsLoad(() => {
        if (this.view && !this.view.isDestroyed) this.show();
      });
      return;
    }
    this.render();
    this.el.hidden = false;
    (this.el.querySelector('input, select') as HTMLElement | null)?.focus();
  }

  hide(): void {
    this.el.hidden = true;
  }

  /** Re-renders if open (after undo, setContent or a theme switch). */
  refresh(): void {
    if (!this.el.hidden && !this.el.contains(document.activeElement)) this.render();
  }

  private render(): void {
    const view = this.view!;
    const { field } = loadedFields()!;
    const attrs = view.state.doc.attrs as Record<DocKey, unknown>;
    const dark = this.scheme() === 'dark';
    const colorKeys: DocKey[] = this.full
      ? dark
        ? ['darkBackdrop', 'darkCanvas', 'darkBorder']
        : ['backdrop', 'canvas', 'border']
      : [dark ? 'darkCanvas' : 'canvas'];
    const keys: DocKey[] = this.full ? [...colorKeys, 'padding', 'radius', 'width', 'preheader'] : colorKeys;
    const set = (key: DocKey, value: unknown) => {
      view.dispatch(view.state.tr.setDocAttribute(key, cleanValue(DOC_ATTRS[key] as AttrSpec, value)));
    };
    this.el.replaceChildren(
      h(
        'div',
        { class: 'sv-inspector-head' },
        h('strong', {}, this.full ? 'Email settings' : 'Background'),
        h('span', { class: 'sv-hint' }, dark ? 'Dark mode colours' : 'Light mode colours'),
      ),
      h(
        'div',
        { class: 'sv-inspector-body' },
        ...keys.map((key) =>
          field(key, DOC_ATTRS[key] as AttrSpec, attrs[key], (v) => set(key, v), this.host),
        ),
      ),
    );
  }
}
