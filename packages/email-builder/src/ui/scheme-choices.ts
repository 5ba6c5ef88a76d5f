import { ICONS } from '../icons/chrome.js';
import { h } from './dom.js';
import { place } from './place.js';
import type { ColorScheme } from './scheme-menu.js';

/** The three choices. */
const SCHEMES: readonly { scheme: ColorScheme; label: string; icon: string }[] = [
  { scheme: 'auto', label: 'Auto (follow the system)', icon: ICONS.auto },
  { scheme: 'light', label: 'Light', icon: ICONS.sun },
  { scheme: 'dark', label: 'Dark', icon: ICONS.moon },
];

/**
 * The colour scheme menu of the toolbar's button (see `SchemeMenu`), loaded the first time it
 * opens: Auto, Light and Dark as `menuitemradio`s with `aria-checked` (the WAI-ARIA menu button
 * pattern), the current one focused as it opens, arrows, Home and End to move, Enter to pick,
 * Escape to close (the focus back on the button), Tab out closing it.
 */
export class SchemeChoices {
  private readonly menu: HTMLElement;

  /**
   * @param container the positioned element the menu is placed in
   * @param button the toolbar's button that opens it
   * @param choose called with the scheme picked
   */
  constructor(
    private readonly container: HTMLElement,
    private readonly button: HTMLButtonElement,
    choose: (scheme: ColorScheme) => void,
  ) {
    this.menu = h(
      'div',
      {
        class: 'sv-popover sv-menu sv-scheme-menu',
        role: 'menu',
        'aria-label': 'Colour scheme',
        hidden: true,
      },
      ...SCHEMES.map(({ scheme, label, icon }) =>
        h('button', {
          type: 'button',
          role: 'menuitemradio',
          class: 'sv-menu-item',
          'aria-checked': 'false',
          'data-scheme': scheme,
          html: `${icon}<span>${label}</span>`,
          onclick: () => {
            this.close(true);
            choose(scheme);
          },
        }),
      ),
    );
    this.menu.addEventListener('keydown', (e) => this.onKey(e));
    this.menu.addEventListener('focusout', (e) => {
      const to = e.relatedTarget as Node | null;
      if (!this.menu.contains(to) && to !== button) this.close(false);
    });
    container.append(this.menu);
  }

  /** Whether the menu is open. */
  get isOpen(): boolean {
    return !this.menu.hidden;
  }

  /** Shows `scheme` as the one chosen. */
  check(scheme: ColorScheme): void {
    for (const item of this.items())
      item.setAttribute('aria-checked', String(item.dataset.scheme === scheme));
  }

  /** Opens the menu under the button, `scheme` checked and focused. */
  open(scheme: ColorScheme): void {
    this.check(scheme);
    this.menu.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    place(this.menu, this.container, this.button.getBoundingClientRect());
    this.items()
      .find((i) => i.dataset.scheme === scheme)
      ?.focus();
  }

  /** Hides the menu; `refocus` puts the focus back on the button. */
  close(refocus: boolean): void {
    if (this.menu.hidden) return;
    this.menu.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    if (refocus) this.button.focus();
  }

  private items(): HTMLElement[] {
    return [...this.menu.querySelectorAll<HTMLElement>('[role="menuitemradio"]')];
  }

  private onKey(event: KeyboardEvent): void {
    const items = this.items();
    const i = items.indexOf(document.activeElement as HTMLElement);
    const go = (n: number) => items[(n + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown') go(i + 1);
    else if (event.key === 'ArrowUp') go(i - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(items.length - 1);
    else if (event.key === 'Escape') this.close(true);
    else {
      // Tab leaves the menu (closing it on the way, by focusout) as it leaves any menu
      return;
    }
    event.preventDefault();
  }
}
