import type { ColorScheme } from '../options.js';
import { h } from './dom.js';
import { ICONS } from './icons.js';
import { place } from './place.js';

const CHOICES: readonly { scheme: ColorScheme; label: string; icon: string }[] = [
  { scheme: 'auto', label: 'Auto (follow the system)', icon: ICONS.auto },
  { scheme: 'light', label: 'Light', icon: ICONS.sun },
  { scheme: 'dark', label: 'Dark', icon: ICONS.moon },
];

/**
 * The toolbar's colour scheme control: a button showing the current choice that opens a menu of
 * the three, Auto, Light and Dark, as `menuitemradio`s with `aria-checked` (the WAI-ARIA menu
 * button pattern). It replaced a button that cycled auto → light → dark, whose first click
 * changed nothing visible on a light system (issue 40).
 */
export class SchemeMenu {
  readonly button: HTMLButtonElement;
  private readonly menu: HTMLElement;
  private scheme: ColorScheme = 'auto';

  /**
   * @param container the positioned element the menu is placed in
   * @param choose called with the scheme picked
   */
  constructor(
    private readonly container: HTMLElement,
    private readonly choose: (scheme: ColorScheme) => void,
  ) {
    this.button = h('button', {
      type: 'button',
      class: 'sv-icon-btn sv-theme-btn',
      'aria-haspopup': 'menu',
      'aria-expanded': 'false',
      onclick: () => (this.menu.hidden ? this.open() : this.close(true)),
    });
    this.menu = h(
      'div',
      {
        class: 'sv-popover sv-menu sv-scheme-menu',
        role: 'menu',
        'aria-label': 'Colour scheme',
        hidden: true,
      },
      ...CHOICES.map(({ scheme, label, icon }) =>
        h('button', {
          type: 'button',
          role: 'menuitemradio',
          class: 'sv-menu-item',
          'aria-checked': 'false',
          'data-scheme': scheme,
          html: `${icon}<span>${label}</span>`,
          onclick: () => {
            this.close(true);
            this.choose(scheme);
          },
        }),
      ),
    );
    this.menu.addEventListener('keydown', (e) => this.onKey(e));
    this.menu.addEventListener('focusout', (e) => {
      const to = e.relatedTarget as Node | null;
      if (!this.menu.contains(to) && to !== this.button) this.close(false);
    });
    container.append(this.menu);
  }

  /** Shows `scheme` as the current choice; `shown` is what `auto` resolves to. */
  show(scheme: ColorScheme, shown: 'light' | 'dark'): void {
    this.scheme = scheme;
    this.button.innerHTML = CHOICES.find((c) => c.scheme === scheme)!.icon;
    const label = `Colour scheme: ${scheme === 'auto' ? `auto (${shown})` : scheme}`;
    this.button.setAttribute('aria-label', label);
    this.button.title = label;
    for (const item of this.items())
      item.setAttribute('aria-checked', String(item.dataset.scheme === scheme));
  }

  private items(): HTMLElement[] {
    return [...this.menu.querySelectorAll<HTMLElement>('[role="menuitemradio"]')];
  }

  private open(): void {
    this.menu.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    place(this.menu, this.container, this.button.getBoundingClientRect());
    this.items()
      .find((i) => i.dataset.scheme === this.scheme)
      ?.focus();
  }

  /** Hides the menu; `refocus` puts the focus back on the button. */
  close(refocus: boolean): void {
    if (this.menu.hidden) return;
    this.menu.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    if (refocus) this.button.focus();
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
