import { h, iconButton } from './dom.js';
import { ICONS } from './icons.js';

/** What the toolbar's buttons do, and which optional ones it shows. */
export interface ToolbarActions {
  undo(): void;
  redo(): void;
  /** Shown unless `null`: the "Templates" button. */
  templates: (() => void) | null;
  /** Shown unless `null`: the preview button. */
  preview: (() => void) | null;
  cycleScheme(): void;
  /** Shown unless `null`: the email settings (or background) button, with its label. */
  settings: { label: string; toggle(): void } | null;
}

/** The editor's toolbar: undo and redo, then templates, preview, colour scheme and settings. */
export function createToolbar(actions: ToolbarActions): {
  toolbar: HTMLElement;
  themeButton: HTMLButtonElement;
} {
  const themeButton = iconButton(ICONS.auto, 'Colour scheme', () => actions.cycleScheme(), {
    class: 'sv-icon-btn sv-theme-btn',
  });
  const { templates, preview, settings } = actions;
  const toolbar = h(
    'div',
    { class: 'sv-toolbar', role: 'toolbar', 'aria-label': 'Editor' },
    iconButton(ICONS.undo, 'Undo', () => actions.undo()),
    iconButton(ICONS.redo, 'Redo', () => actions.redo()),
    h('span', { class: 'sv-grow' }),
    templates &&
      h(
        'button',
        { type: 'button', class: 'sv-btn sv-tpl-btn', onclick: () => templates() },
        h('span', { html: ICONS.templates }),
        'Templates',
      ),
    preview && iconButton(ICONS.eye, 'Preview', () => preview(), { class: 'sv-icon-btn sv-preview-btn' }),
    themeButton,
    settings &&
      iconButton(ICONS.settings, settings.label, () => settings.toggle(), {
        class: 'sv-icon-btn sv-settings-btn',
      }),
  );
  return { toolbar, themeButton };
}
