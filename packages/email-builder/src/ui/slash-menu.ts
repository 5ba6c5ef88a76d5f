import { type EditorState, Plugin, PluginKey } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { EditorHost, SlashItem } from '../nodes/define.js';
import { whenUiLoads } from './lazy-ui.js';
import type { SlashPopup } from './slash-popup.js';

/** Where the typed "/query" is. */
export interface Trigger {
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

/**
 * The "/" menu: a listbox popover driven from the editor's keyboard, the ARIA 1.2 combobox
 * pattern (the editor keeps focus, is marked as the expanded combobox and points at the active
 * option with `aria-activedescendant`), filtered as you type, grouped under headings (Text,
 * Media, Layout, Brand, Variables), with a "no results" message announced by a live region. A
 * query with no results closes at the next space, so ordinary writing that happens to start a
 * word with "/" goes on undisturbed. This part, in the first load, watches the text; the menu
 * itself ({@link SlashPopup}) loads with the editing UI at the first "/".
 */
export class SlashMenu {
  private readonly key = new PluginKey<{ dismissed: number | null }>('slashMenu');
  private view: EditorView | null = null;
  private popup: SlashPopup | null = null;

  constructor(
    private readonly container: HTMLElement,
    /** The items, or what a query finds at the caret of `state`, best first. */
    private readonly items: readonly SlashItem[] | ((query: string, state: EditorState) => SlashItem[]),
    private readonly host: () => EditorHost,
    private readonly options: {
      pattern?: RegExp;
      label?: string;
      /** The editor's sticky toolbar, which the menu keeps below. */
      header?: HTMLElement;
    } = {},
  ) {}

  /** Whether the menu is showing. */
  get open(): boolean {
    return !!this.popup?.open;
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
          if (trigger && /\s$/.test(trigger.query) && this.search(trigger.query, state).length === 0)
            dismissed = trigger.from;
          return dismissed === value.dismissed ? value : { dismissed };
        },
      },
      view: (view) => {
        this.view = view;
        return { update: () => this.update(), destroy: () => this.popup?.destroy() };
      },
      props: {
        handleKeyDown: (_view, event) => this.popup?.onKey(event) ?? false,
        handleDOMEvents: {
          blur: () => {
            this.popup?.close();
            return false;
          },
        },
      },
    });
  }

  /** The items the query finds, best first (the popup shows them under their groups' headings). */
  private search(query: string, state: EditorState): SlashItem[] {
    const items = this.items;
    const q = query.trim();
    return typeof items === 'function' ? items(q, state) : filterItems(items, q);
  }

  private update(): void {
    const view = this.view!;
    const trigger = view.editable ? findTrigger(view.state, this.options.pattern) : null;
    const dismissed = this.key.getState(view.state)?.dismissed;
    if (!trigger || trigger.from === dismissed || !view.hasFocus()) this.popup?.close();
    else if (this.popup) this.popup.show(trigger);
    else
      whenUiLoads(({ SlashPopup }) => {
        if (view.isDestroyed) return;
        this.popup ??= new SlashPopup(view, this.container, {
          ...this.options,
          search: (query) => this.search(query, view.state),
          run: (item, from, to) => item.run(this.host(), from, to),
          dismiss: (from) => view.dispatch(view.state.tr.setMeta(this.key, { dismissed: from })),
        });
        this.update();
      });
  }
}
