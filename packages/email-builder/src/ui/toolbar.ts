import { ICONS } from '../icons/chrome.js';
import { h, iconButton } from './dom.js';

/** What the toolbar's buttons do, and which optional ones it shows. */
export interface ToolbarActions {
  undo(): void;
  redo(): void;
  /** Shown unless `null`: the "Templates" button. */
  templates: (() => void) | null;
  /** Shown unless `null`: the preview button. */
  preview: (() => void) | null;
  /** The colour scheme control (see `scheme-menu.ts`). */
  schemeButton: HTMLButtonElement;
  /** Shown unless `null`: the email settings (or background) button, with its label. */
  settings: { label: string; toggle(): void } | null;
}

/**
 * The editor's toolbar: undo and redo, then templates, preview, colour scheme and settings, then
 * `.sv-toolbar-host`, an empty element where a host puts its own commands so that its page has
 * one toolbar rather than its own stacked over the editor's (see the README's "Toolbar").
 * On a narrow toolbar "Templates" keeps only its icon (its name stays for screen readers).
 */
export function createToolbar(actions: ToolbarActions): HTMLElement {
  const { templates, preview, settings, schemeButton } = actions;
  return h(
    'div',
    { class: 'sv-toolbar', role: 'toolbar', 'aria-label': 'Editor' },
    iconButton(ICONS.undo, 'Undo', () => actions.undo()),
    iconButton(ICONS.redo, 'Redo', () => actions.redo()),
    h('span', { class: 'sv-grow' }),
    templates &&
      h(
        'button',
        { type: 'button', class: 'sv-btn sv-tpl-btn', title: 'Templates', onclick: () => templates() },
        h('span', { html: ICONS.templates }),
        h('span', { class: 'sv-tpl-label' }, 'Templates'),
      ),
    preview && iconButton(ICONS.eye, 'Preview', () => preview(), { class: 'sv-icon-btn sv-preview-btn' }),
    schemeButton,
    settings &&
      iconButton(ICONS.settings, settings.label, () => settings.toggle(), {
        class: 'sv-icon-btn sv-settings-btn',
      }),
    h('div', { class: 'sv-toolbar-host' }),
  );
}
