import { Plugin, TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { caretLink, type LinkRange, linkRange } from '../marks/link/range.js';
import type { LinkCard } from './link-card.js';

/** How long the pointer rests on a link before its card shows (a pointer passing by shows none). */
const SHOW_DELAY = 300;
/** How long a card stays after the pointer left its link: time to move onto the card. */
const HIDE_DELAY = 250;

const same = (a: LinkRange | null, b: LinkRange | null) =>
  a === b || (!!a && !!b && a.from === b.from && a.to === b.to && a.href === b.href);

/**
 * The link card's trigger, in the first load: it watches the cursor and the pointer, and loads
 * the card itself ({@link LinkCard}) the first time a link needs it. The card shows while the
 * cursor is in a link (where typing would extend it) and while the pointer rests on one; the
 * pointer's link wins while it is there. Tab from the text moves into the card of the cursor's
 * link (as CKEditor 5 does with its link balloon), Escape closes it until the cursor leaves that
 * link. Never shown while the editor is read-only or text is selected (the formatting bubble
 * is showing then).
 */
export class LinkHover {
  private view: EditorView | null = null;
  private card: LinkCard | null = null;
  private loading = false;
  /** The link the cursor is in (while the editor has the focus). */
  private caret: LinkRange | null = null;
  /** The link the pointer rests on. */
  private pointer: LinkRange | null = null;
  /** The cursor's link whose card Escape closed: it stays closed until the cursor leaves that link. */
  private dismissed: LinkRange | null = null;
  private shown: LinkRange | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param container the positioned element the card is placed in
   * @param header the editor's sticky toolbar, which the card keeps below
   * @param openPrompt opens the link prompt on the selected link (the toolbar's Mod-K)
   */
  constructor(
    private readonly container: HTMLElement,
    private readonly header: HTMLElement | null,
    private readonly openPrompt: () => boolean,
  ) {}

  /** The plugin that follows the cursor and the pointer. */
  plugin(): Plugin {
    return new Plugin({
      view: (view) => {
        this.view = view;
        return {
          update: (v, prev) => {
            if (!prev.doc.eq(v.state.doc)) this.pointer = null;
            this.refresh();
          },
          destroy: () => {
            clearTimeout(this.timer);
            this.card?.destroy();
            this.card = null;
          },
        };
      },
      props: {
        handleKeyDown: (_view, event) => {
          if (!this.shown || !same(this.shown, this.caret) || event.altKey || event.ctrlKey || event.metaKey)
            return false;
          if (event.key === 'Escape') {
            this.dismissed = this.caret;
            this.refresh();
            return true;
          }
          if (event.key === 'Tab' && !event.shiftKey && this.card) {
            this.card.focus();
            return true;
          }
          return false;
        },
        handleDOMEvents: {
          focus: () => {
            this.refresh();
            return false;
          },
          blur: (_view, event) => {
            if (!this.card?.el.contains(event.relatedTarget as Node | null)) this.refresh(false);
            return false;
          },
          mouseover: (view, event) => {
            const a = (event.target as Element).closest?.('a[href]');
            if (!a || !view.dom.contains(a) || !view.editable) return false;
            clearTimeout(this.timer);
            this.timer = setTimeout(() => {
              // inside the link's first character: at its very start the link may not count
              const $pos = view.state.doc.resolve(
                Math.min(view.posAtDOM(a, 0) + 1, view.state.doc.content.size),
              );
              this.pointer = linkRange(view.state.schema.marks.link!, $pos);
              this.refresh();
            }, SHOW_DELAY);
            return false;
          },
          mouseout: (_view, event) => {
            const to = event.relatedTarget as Node | null;
            if ((event.target as Element).closest?.('a[href]')?.contains(to)) return false;
            this.leave();
            return false;
          },
        },
      },
    });
  }

  /** The pointer left the link or its card: the card goes a moment later, unless it comes back. */
  private leave(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.pointer = null;
      this.refresh();
    }, HIDE_DELAY);
  }

  /**
   * Shows the card of the pointer's link, else of the cursor's, or hides it. While the focus is
   * in the card, the card stays as it is (the keyboard is using it).
   */
  private refresh(focused = true): void {
    const view = this.view;
    if (!view) return;
    const live = view.editable && view.state.selection.empty;
    const inCard = !!this.card?.el.contains(document.activeElement);
    const caret = live && ((focused && view.hasFocus()) || inCard) ? caretLink(view.state) : null;
    if (!same(caret, this.caret)) this.caret = caret;
    // the dismissed link follows edits inside it (its end moves as one types)
    const d = this.dismissed;
    this.dismissed =
      caret && d && caret.href === d.href && caret.from <= d.to && caret.to >= d.from ? caret : null;
    if (inCard && this.shown) return;
    const next = (live && this.pointer) || (this.dismissed ? null : this.caret);
    if (!next) {
      this.shown = null;
      this.card?.hide();
      return;
    }
    this.shown = next;
    if (this.card) this.card.show({ link: next, coords: (pos) => view.coordsAtPos(pos), dom: view.dom });
    else this.load();
  }

  /** Loads the card (the first time a link needs it), then shows it. */
  private load(): void {
    if (this.loading) return;
    this.loading = true;
    import('./link-card.js').then(
      ({ LinkCard }) => {
        this.loading = false;
        const view = this.view;
        if (!view || view.isDestroyed) return;
        this.card = new LinkCard(this.container, this.header, {
          edit: () => this.edit(),
          remove: () => this.remove(),
          back: (dismiss) => {
            if (dismiss) this.dismissed = this.caret;
            view.focus();
            this.refresh();
          },
          blur: () => this.refresh(false),
          enter: () => clearTimeout(this.timer),
          leave: () => this.leave(),
        });
        this.refresh();
      },
      () => {
        // a chunk the host did not serve: no card, and another try at the next link
        this.loading = false;
      },
    );
  }

  /** Edit: the whole link selected, and the link prompt open on it. */
  private edit(): void {
    const view = this.view!;
    const link = this.shown;
    if (!link) return;
    this.pointer = null;
    view.focus();
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, link.from, link.to)));
    this.openPrompt();
  }

  /** Remove: the link mark goes from the whole link; the text stays. */
  private remove(): void {
    const view = this.view!;
    const link = this.shown;
    if (!link) return;
    this.pointer = null;
    view.dispatch(view.state.tr.removeMark(link.from, link.to, view.state.schema.marks.link!));
    view.focus();
    this.refresh();
  }
}
