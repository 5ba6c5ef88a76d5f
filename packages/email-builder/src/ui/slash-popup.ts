import type { EditorView } from 'prosemirror-view';
import { t } from '../i18n/translate.js';
import { slashIcon } from '../icons/blocks.js';
import type { SlashItem } from '../nodes/define.js';
import { collapseCombobox, expandCombobox } from './combobox.js';
import { h, uid } from './dom.js';
import { followViewport, place, revealIn } from './place.js';
import type { Trigger } from './slash-menu.js';

/** The menu's headings, in the order an empty query lists them; a host's own groups follow. */
export const SLASH_GROUPS = ['Text', 'Media', 'Layout', 'Brand', 'Variables'] as const;

/** Where an item without a group is listed (a host's custom block, say). */
export const DEFAULT_SLASH_GROUP = 'More';

/**
 * Gathers items under their group's heading. With `byRelevance` (a query was typed) the groups
 * come in the order of their best match, so the first option is still the best one; without,
 * in {@link SLASH_GROUPS} order. Items keep their order inside a group.
 */
export function groupItems(
  items: readonly SlashItem[],
  byRelevance: boolean,
): { group: string; items: SlashItem[] }[] {
  const groups = new Map<string, SlashItem[]>();
  for (const item of items) {
    const group = item.group ?? DEFAULT_SLASH_GROUP;
    groups.set(group, [...(groups.get(group) ?? []), item]);
  }
  const known = (group: string) => {
    const i = (SLASH_GROUPS as readonly string[]).indexOf(group);
    return i === -1 ? SLASH_GROUPS.length : i;
  };
  const order = [...groups.keys()];
  if (!byRelevance) order.sort((a, b) => known(a) - known(b));
  return order.map((group) => ({ group, items: groups.get(group)! }));
}

/** What the popup needs from its `SlashMenu`. */
export interface SlashPopupOptions {
  /** The listbox's name (default "Insert block"). */
  label?: string;
  /** What starts the menu: the `{{` menu's (it offers variables) when given, else "/". */
  pattern?: RegExp;
  /** The editor's sticky toolbar, which the menu keeps below. */
  header?: HTMLElement;
  /** The items a query finds, best first. */
  search(query: string): SlashItem[];
  /** Runs the chosen item in place of the trigger. */
  run(item: SlashItem, from: number, to: number): void;
  /** Closes the menu for the trigger at `from` until it is typed again. */
  dismiss(from: number | null): void;
}

/**
 * The "/" (and "{{") menu's popup, loaded with the editing UI (see `SlashMenu`): the listbox
 * of options grouped under headings, the editable made its combobox while it shows, the keys
 * that move, pick and dismiss, and a "no results" status. It stays in the viewport (see
 * {@link place}) and follows the caret as the page scrolls.
 */
export class SlashPopup {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private trigger: Trigger | null = null;
  private results: SlashItem[] = [];
  private active = 0;
  private unfollow: (() => void) | null = null;
  private readonly listId = uid('sv-slash');

  constructor(
    private readonly view: EditorView,
    private readonly container: HTMLElement,
    private readonly options: SlashPopupOptions,
  ) {
    this.list = h('div', {
      id: this.listId,
      role: 'listbox',
      'aria-label': t(container, options.label ?? 'Insert block'),
    });
    this.status = h('p', { class: 'sv-slash-empty', role: 'status', 'aria-live': 'polite' });
    // The menu scrolls when its options outgrow it. The editor keeps the focus and the arrow
    // keys (aria-activedescendant), but a scrolling region must also be reachable by the keyboard
    // itself (WCAG 2.1.1; axe `scrollable-region-focusable`), so it is in the tab order. It never
    // keeps the focus in practice: Tab in the editor picks the option, and a click on the
    // menu does not move the focus (mousedown is cancelled below).
    this.el = h('div', { class: 'sv-popover sv-slash', tabindex: '0', hidden: true }, this.list, this.status);
    this.el.addEventListener('mousedown', (e) => e.preventDefault());
    container.append(this.el);
  }

  /** Whether the menu is showing. */
  get open(): boolean {
    return this.trigger !== null && !this.el.hidden;
  }

  /** Shows the options for `trigger` (searched again when its query changed). */
  show(trigger: Trigger): void {
    const changed = trigger.query !== this.trigger?.query;
    this.trigger = trigger;
    if (changed) {
      // in display order: under their groups' headings, the best group first once a query is typed
      const q = trigger.query.trim();
      this.results = groupItems(this.options.search(q), q !== '').flatMap((g) => g.items);
      this.active = 0;
    }
    this.render();
    this.position();
    this.unfollow ??= followViewport(this.el, () => this.position());
  }

  /** The editor's keys while the menu shows: arrows move, Enter and Tab pick, Escape dismisses. */
  onKey(event: KeyboardEvent): boolean {
    // while the caret is scrolled out of view the menu is hidden and keys edit the text
    if (!this.open) return false;
    const n = this.results.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        if (n) this.active = (this.active + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
        this.render();
        this.sync();
        return true;
      case 'Enter':
      case 'Tab':
        if (!n) {
          this.dismiss();
          return event.key === 'Tab';
        }
        this.choose(this.active);
        return true;
      case 'Escape':
        this.dismiss();
        return true;
      default:
        return false;
    }
  }

  /** Hides the menu. */
  close(): void {
    this.trigger = null;
    this.el.hidden = true;
    this.unfollow?.();
    this.unfollow = null;
    // the editor may hold another menu's references (the "/" and "{{" menus share it)
    collapseCombobox(this.view.dom, this.listId);
  }

  /** Hides the menu and removes it from the page. */
  destroy(): void {
    this.close();
    this.el.remove();
  }

  /** Places the menu at the "/" and keeps it there as the page scrolls, hidden while it is out of view. */
  private position(): void {
    if (!this.trigger) return;
    place(this.el, this.container, this.view.coordsAtPos(this.trigger.from), {
      target: this.view.dom,
      header: this.options.header,
    });
    this.sync();
  }

  /** Tells assistive technology what the menu shows, and scrolls the active option into it. */
  private sync(): void {
    const current = this.el.hidden ? undefined : this.results[this.active];
    expandCombobox(
      this.view.dom,
      this.listId,
      !this.el.hidden,
      current ? `${this.listId}-${current.id}` : null,
    );
    const option = current && this.list.querySelector(`[id="${this.listId}-${current.id}"]`);
    if (option) revealIn(this.el, option);
  }

  private render(): void {
    const groups = groupItems(this.results, (this.trigger?.query.trim() ?? '') !== '');
    let index = 0;
    this.list.replaceChildren(
      ...groups.map(({ group, items }) => {
        const headingId = `${this.listId}-group-${group.replace(/\W+/g, '-')}`;
        return h(
          'div',
          { role: 'group', 'aria-labelledby': headingId, class: 'sv-slash-group' },
          h('div', { id: headingId, class: 'sv-slash-heading' }, t(this.container, group)),
          ...items.map((item) => this.option(item, index++)),
        );
      }),
    );
    const empty = this.results.length === 0;
    this.list.hidden = empty;
    this.status.hidden = !empty;
    this.status.textContent = empty
      ? t(
          this.container,
          this.options.pattern ? 'No variables match “{query}”' : 'No blocks match “{query}”',
          {
            query: this.trigger?.query.trim() ?? '',
          },
        )
      : '';
  }

  /** The option for `item`, the `i`th in display order. */
  private option(item: SlashItem, i: number): HTMLElement {
    const option = h(
      'div',
      {
        id: `${this.listId}-${item.id}`,
        role: 'option',
        'aria-selected': String(i === this.active),
        class: 'sv-slash-item',
        'data-id': item.id,
      },
      h('span', { class: 'sv-slash-icon', html: slashIcon(item.icon) }),
      h(
        'span',
        { class: 'sv-slash-text' },
        h('strong', {}, t(this.container, item.title)),
        h('small', {}, t(this.container, item.description)),
      ),
    );
    option.addEventListener('click', () => this.choose(i));
    option.addEventListener('mousemove', () => {
      if (this.active !== i) {
        this.active = i;
        this.render();
        this.sync();
      }
    });
    return option;
  }

  private dismiss(): void {
    const from = this.trigger?.from ?? null;
    this.close();
    this.options.dismiss(from);
  }

  private choose(index: number): void {
    const item = this.results[index];
    const trigger = this.trigger;
    if (!item || !trigger) return;
    this.close();
    this.options.run(item, trigger.from, trigger.to);
  }
}
