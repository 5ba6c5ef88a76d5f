import { type EditorState, Plugin, PluginKey } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { EditorHost, SlashItem } from '../nodes/define.js';
import { collapseCombobox, expandCombobox } from './combobox.js';
import { h, uid } from './dom.js';
import { followViewport, place, revealIn } from './place.js';

/** Where the typed "/query" is. */
interface Trigger {
  from: number;
  to: number;
  query: string;
}

/**
 * The "/" trigger: a slash at the start of a word, then up to 24 characters of query. The query
 * may hold spaces ("/heading 2", "/social links") but not start with one, so "a / b" is no
 * trigger; a slash inside a word ("and/or") is none either.
 */
export const SLASH_TRIGGER = /(?:^|\s)\/((?:[^\s/\ufffc][^/\ufffc]{0,23})?)$/;

/**
 * Finds the trigger ("/query" by default) right before an empty selection. `pattern` matches the
 * end of the text before the cursor; its group 1 is the query, and the match without its leading
 * whitespace is what the chosen item replaces.
 */
export function findTrigger(state: EditorState, pattern: RegExp = SLASH_TRIGGER): Trigger | null {
  const { selection } = state;
  if (!selection.empty) return null;
  const $from = selection.$from;
  if (!$from.parent.isTextblock) return null;
  const before = $from.parent.textBetween(
    Math.max(0, $from.parentOffset - 32),
    $from.parentOffset,
    undefined,
    '\ufffc',
  );
  const match = pattern.exec(before);
  if (!match) return null;
  const query = match[1]!;
  return { from: $from.pos - match[0].trimStart().length, to: $from.pos, query };
}

/**
 * Filters items by title and keywords: every word of the query must begin a word of the title
 * or a keyword ("heading 2" finds Heading 2, "2 col" the two-column layouts). Titles that start
 * with the query come first, then titles holding all its words, then keyword matches, then
 * titles that merely contain it.
 */
export function filterItems(items: readonly SlashItem[], query: string): SlashItem[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!q) return [...items];
  const terms = q.split(' ');
  const scored = items.flatMap((item) => {
    const title = item.title.toLowerCase();
    const titleWords = title.split(/\s+/);
    const keywords = item.keywords.map((k) => k.toLowerCase());
    const words = [...titleWords, ...keywords.flatMap((k) => k.split(/\s+/))];
    const begins = (pool: string[]) => terms.every((term) => pool.some((w) => w.startsWith(term)));
    let score: number;
    if (title.startsWith(q)) score = 0;
    else if (begins(titleWords)) score = 1;
    else if (keywords.some((k) => k.startsWith(q)) || begins(words)) score = 2;
    else if (title.includes(q)) score = 3;
    else return [];
    return [{ item, score }];
  });
  return scored.sort((x, y) => x.score - y.score).map((s) => s.item);
}

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

/**
 * The "/" menu: a listbox popover driven from the editor's keyboard, the ARIA 1.2 combobox
 * pattern (the editor keeps focus, is marked as the expanded combobox and points at the active
 * option with `aria-activedescendant`), filtered as you type, grouped under headings (Text,
 * Media, Layout, Brand, Variables), with a "no results" message announced by a live region. A query with no results closes at the next space, so ordinary
 * writing that happens to start a word with "/" goes on undisturbed. The popover stays in the
 * viewport (see {@link place}) and follows the caret as the page scrolls.
 */
export class SlashMenu {
  readonly el: HTMLElement;
  private readonly key = new PluginKey<{ dismissed: number | null }>('slashMenu');
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private view: EditorView | null = null;
  private trigger: Trigger | null = null;
  private results: SlashItem[] = [];
  private active = 0;
  private unfollow: (() => void) | null = null;
  private readonly listId = uid('sv-slash');

  constructor(
    private readonly container: HTMLElement,
    private readonly items: readonly SlashItem[] | ((query: string) => SlashItem[]),
    private readonly host: () => EditorHost,
    private readonly options: {
      pattern?: RegExp;
      label?: string;
      noun?: string;
      /** The editor's sticky toolbar, which the menu keeps below. */
      header?: HTMLElement;
    } = {},
  ) {
    this.list = h('div', {
      id: this.listId,
      role: 'listbox',
      'aria-label': options.label ?? 'Insert block',
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

  /** The ProseMirror plugin that watches the text and routes keys while the menu is open. */
  plugin(): Plugin {
    const key = this.key;
    return new Plugin({
      key,
      state: {
        init: () => ({ dismissed: null as number | null }),
        apply: (tr, value, _old, state) => {
          const meta = tr.getMeta(key) as { dismissed: number | null } | undefined;
          if (meta) return meta;
          if (!tr.docChanged) return value;
          let dismissed = value.dismissed;
          if (dismissed !== null) {
            // a dismissed "/" that is deleted takes its dismissal with it
            const mapped = tr.mapping.mapResult(dismissed);
            dismissed = mapped.deleted ? null : mapped.pos;
          }
          // a space after a query that finds nothing: the "/" was part of the writing
          const trigger = findTrigger(state, this.options.pattern);
          if (trigger && /\s$/.test(trigger.query) && this.search(trigger.query).length === 0)
            dismissed = trigger.from;
          return dismissed === value.dismissed ? value : { dismissed };
        },
      },
      view: (view) => {
        this.view = view;
        return { update: () => this.update(), destroy: () => this.close() };
      },
      props: {
        handleKeyDown: (_view, event) => this.onKey(event),
        handleDOMEvents: {
          blur: () => {
            this.close();
            return false;
          },
        },
      },
    });
  }

  /** The items the query finds, in the order they are shown: grouped, best group first. */
  private search(query: string): SlashItem[] {
    const items = this.items;
    const q = query.trim();
    const found = typeof items === 'function' ? items(q) : filterItems(items, q);
    return groupItems(found, q !== '').flatMap((g) => g.items);
  }

  private update(): void {
    const view = this.view!;
    const trigger = view.editable ? findTrigger(view.state, this.options.pattern) : null;
    const dismissed = this.key.getState(view.state)?.dismissed;
    if (!trigger || trigger.from === dismissed || !view.hasFocus()) {
      this.close();
      return;
    }
    const changed = trigger.query !== this.trigger?.query;
    this.trigger = trigger;
    if (changed) {
      this.results = this.search(trigger.query);
      this.active = 0;
    }
    this.render();
    this.position();
    this.unfollow ??= followViewport(this.el, () => this.position());
  }

  /** Places the menu at the "/" and keeps it there as the page scrolls, hidden while it is out of view. */
  private position(): void {
    const view = this.view!;
    if (!this.trigger) return;
    place(this.el, this.container, view.coordsAtPos(this.trigger.from), {
      target: view.dom,
      header: this.options.header,
    });
    this.sync();
  }

  /** Tells assistive technology what the menu shows, and scrolls the active option into it. */
  private sync(): void {
    const current = this.el.hidden ? undefined : this.results[this.active];
    expandCombobox(
      this.view!.dom,
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
          h('div', { id: headingId, class: 'sv-slash-heading' }, group),
          ...items.map((item) => this.option(item, index++)),
        );
      }),
    );
    const empty = this.results.length === 0;
    this.list.hidden = empty;
    this.status.hidden = !empty;
    this.status.textContent = empty
      ? `No ${this.options.noun ?? 'blocks'} match “${this.trigger?.query.trim() ?? ''}”`
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
      h('span', { class: 'sv-slash-icon', html: item.icon }),
      h('span', { class: 'sv-slash-text' }, h('strong', {}, item.title), h('small', {}, item.description)),
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

  private onKey(event: KeyboardEvent): boolean {
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

  private dismiss(): void {
    const view = this.view!;
    const from = this.trigger?.from ?? null;
    this.close();
    view.dispatch(view.state.tr.setMeta(this.key, { dismissed: from }));
  }

  private choose(index: number): void {
    const item = this.results[index];
    const trigger = this.trigger;
    if (!item || !trigger) return;
    this.close();
    item.run(this.host(), trigger.from, trigger.to);
  }

  /** Hides the menu. */
  close(): void {
    this.trigger = null;
    this.el.hidden = true;
    this.unfollow?.();
    this.unfollow = null;
    // the editor may hold another menu's references (the "/" and "{{" menus share it)
    const dom = this.view?.dom;
    if (dom) collapseCombobox(dom, this.listId);
  }
}
