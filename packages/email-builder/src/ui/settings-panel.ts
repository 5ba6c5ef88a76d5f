import type { EditorView } from 'prosemirror-view';
import { h } from './dom.js';
import type { FieldHost } from './fields.js';
import { loadedUi, whenUiLoads } from './lazy-ui.js';

/**
 * The email settings: colours for the scheme being shown (light or dark), padding, corner
 * radius, content width and preview text. They are attributes of the document, so they undo,
 * travel with `getJSON()`, and show in `getHTML()`.
 * With only `background: true`, just the email background colour is offered. The form itself
 * (`email-settings.ts`) loads with the editing UI as the panel first opens.
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
    if (!loadedUi()) {
      whenUiLoads(() => {
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
    loadedUi()?.renderEmailSettings(this.el, this.view!, this.full, this.scheme() === 'dark', this.host);
  }
}
