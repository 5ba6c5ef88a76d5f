import { el } from '../lib/dom.js';

/** One entry of a {@link MenuButton}'s menu. */
export interface MenuEntry {
  label: string;
  /** Runs after the menu closed and focus went back to the menu button. */
  run(item: HTMLButtonElement): void;
}

const DOTS =
  '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="currentColor"><circle cx="5" cy="12" r="2"/><circle cx="12" cy="12" r="2"/><circle cx="19" cy="12" r="2"/></svg>';

let menus = 0;

/**
 * A button that opens a menu of commands (WAI-ARIA APG "Menu Button"): `aria-haspopup="menu"`,
 * `aria-expanded` and `aria-controls` on the button; Enter, Space or ArrowDown open it on the
 * first item, ArrowUp on the last; in the menu the arrow keys, Home and End move, Enter or a
 * click runs an item, Escape closes it and focus returns to the button; Tab, a click elsewhere
 * or focus leaving closes it.
 */
export class MenuButton {
  /** The button and its menu: put this in the page. */
  readonly el: HTMLElement;
  readonly button: HTMLButtonElement;
  private readonly menu: HTMLElement;
  private readonly items: HTMLButtonElement[];
  private readonly onOutside = (event: Event) => {
    if (!this.el.contains(event.target as Node)) this.close(false);
  };

  constructor(label: string, entries: readonly MenuEntry[], className = '') {
    menus += 1;
    const menuId = `pg-menu-${menus}`;
    this.button = el('button', {
      type: 'button',
      className: `sv-icon-btn pg-menu-button ${className}`.trim(),
      title: label,
      innerHTML: DOTS,
    });
    this.button.setAttribute('aria-label', label);
    this.button.setAttribute('aria-haspopup', 'menu');
    this.button.setAttribute('aria-expanded', 'false');
    this.button.setAttribute('aria-controls', menuId);
    this.items = entries.map((entry) => this.item(entry));
    this.menu = el(
      'div',
      { id: menuId, className: 'sv-popover sv-menu pg-menu', hidden: true },
      ...this.items,
    );
    this.menu.setAttribute('role', 'menu');
    this.menu.setAttribute('aria-label', label);
    this.el = el('div', { className: 'pg-menu-wrap' }, this.button, this.menu);
    this.button.addEventListener('click', () => (this.isOpen ? this.close(true) : this.open('first')));
    this.button.addEventListener('keydown', (e) => this.buttonKey(e));
    this.menu.addEventListener('keydown', (e) => this.menuKey(e));
    this.el.addEventListener('focusout', (e) => {
      if (this.isOpen && !this.el.contains(e.relatedTarget as Node | null)) this.close(false);
    });
  }

  /** Whether the menu shows. */
  get isOpen(): boolean {
    return !this.menu.hidden;
  }

  /** Shows the menu with focus on its first or last item. */
  open(focus: 'first' | 'last'): void {
    this.menu.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    document.addEventListener('pointerdown', this.onOutside, true);
    (focus === 'first' ? this.items[0] : this.items.at(-1))?.focus();
  }

  /** Hides the menu; `returnFocus` puts focus back on the button (Escape, a chosen item). */
  close(returnFocus: boolean): void {
    if (!this.isOpen) return;
    this.menu.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', this.onOutside, true);
    if (returnFocus) this.button.focus();
  }

  private item(entry: MenuEntry): HTMLButtonElement {
    const item = el('button', { type: 'button', className: 'sv-menu-item', tabIndex: -1 }, entry.label);
    item.setAttribute('role', 'menuitem');
    item.addEventListener('click', () => {
      this.close(true);
      entry.run(item);
    });
    return item;
  }

  private buttonKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    this.open(event.key === 'ArrowDown' ? 'first' : 'last');
  }

  private menuKey(event: KeyboardEvent): void {
    const at = this.items.indexOf(document.activeElement as HTMLButtonElement);
    const count = this.items.length;
    const target: Record<string, number> = {
      ArrowDown: (at + 1) % count,
      ArrowUp: (at - 1 + count) % count,
      Home: 0,
      End: count - 1,
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      this.close(true);
    } else if (event.key === 'Tab')
      this.close(true); // Tab then moves on from the button
    else if (event.key in target) {
      event.preventDefault();
      this.items[target[event.key]!]?.focus();
    }
  }
}
