import { ICONS } from '../icons/chrome.js';
import { h } from './dom.js';
import { whenUiLoads } from './lazy-ui.js';
import type { SchemeChoices } from './scheme-choices.js';

/** How the editor picks light or dark: `auto` follows the system. */
export type ColorScheme = 'auto' | 'light' | 'dark';

const ICON: Record<ColorScheme, string> = { auto: ICONS.auto, light: ICONS.sun, dark: ICONS.moon };

/**
 * The toolbar's colour scheme control: a button showing the current choice that opens a menu of
 * the three, Auto, Light and Dark ({@link SchemeChoices}, loaded with the editing UI as it first
 * opens). It replaced a button that cycled auto → light → dark, whose first click changed
 * nothing visible on a light system (issue 40).
 */
export class SchemeMenu {
  readonly button: HTMLButtonElement;
  private choices: SchemeChoices | null = null;
  private scheme: ColorScheme = 'auto';

  /**
   * @param container the positioned element the menu is placed in
   * @param choose called with the scheme picked
   */
  constructor(container: HTMLElement, choose: (scheme: ColorScheme) => void) {
    this.button = h('button', {
      type: 'button',
      class: 'sv-icon-btn sv-theme-btn',
      'aria-haspopup': 'menu',
      'aria-expanded': 'false',
      onclick: () => {
        if (this.choices?.isOpen) this.choices.close(true);
        else
          whenUiLoads(({ SchemeChoices }) => {
            if (!this.button.isConnected) return;
            this.choices ??= new SchemeChoices(container, this.button, choose);
            this.choices.open(this.scheme);
          });
      },
    });
  }

  /** Shows `scheme` as the current choice; `shown` is what `auto` resolves to. */
  show(scheme: ColorScheme, shown: 'light' | 'dark'): void {
    this.scheme = scheme;
    this.button.innerHTML = ICON[scheme];
    const label = `Colour scheme: ${scheme === 'auto' ? `auto (${shown})` : scheme}`;
    this.button.setAttribute('aria-label', label);
    this.button.title = label;
    this.choices?.check(scheme);
  }
}
