import { type EditorState, Plugin } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { whenUiLoads } from './lazy-ui.js';
import type { LinkCard } from './link-card.js';

/** Whether text typed at the cursor would join a link (`caretLink`, without its range). */
function inLink(state: EditorState): boolean {
  const { selection, storedMarks, schema } = state;
  return selection.empty && !!schema.marks.link?.isInSet(storedMarks ?? selection.$from.marks());
}

/** The link the pointer is over, if it is one of the editor's. */
function hoveredLink(view: EditorView, event: Event): Element | null {
  const a = (event.target as Element).closest?.('a[href]');
  return a && view.dom.contains(a) && view.editable ? a : null;
}

/**
 * The link card's trip wire, in the first load: the card ({@link LinkCard}: the address with
 * Open, Edit and Remove) and all it does load the first time the cursor enters a link or the
 * pointer comes over one; from then on this forwards the editor's updates, keys and pointer
 * events to it.
 */
export class LinkHover {
  private card: LinkCard | null = null;

  /**
   * @param container the positioned element the card is placed in
   * @param header the editor's sticky toolbar, which the card keeps below
   * @param openPrompt opens the link prompt on the selected link (as Mod-K does)
   */
  constructor(
    private readonly container: HTMLElement,
    private readonly header: HTMLElement | null,
    private readonly openPrompt: () => boolean,
  ) {}

  /** The plugin that follows the cursor and the pointer. */
  plugin(): Plugin {
    return new Plugin({
      view: () => ({
        update: (view, prev) => {
          if (this.card) this.card.update(!prev.doc.eq(view.state.doc));
          else if (view.editable && inLink(view.state)) this.load(view);
        },
        destroy: () => this.card?.destroy(),
      }),
      props: {
        handleKeyDown: (_view, event) => this.card?.key(event) ?? false,
        handleDOMEvents: {
          focus: () => {
            this.card?.refresh();
            return false;
          },
          blur: (_view, event) => {
            this.card?.blur(event);
            return false;
          },
          mouseover: (view, event) => {
            const a = hoveredLink(view, event);
            if (a) this.card ? this.card.over(a) : this.load(view, a);
            return false;
          },
          mouseout: (_view, event) => {
            this.card?.out(event);
            return false;
          },
        },
      },
    });
  }

  /** Loads the card, then gives it the cursor's link, or the link `a` if the pointer is still on it. */
  private load(view: EditorView, a?: Element): void {
    whenUiLoads(({ LinkCard }) => {
      if (view.isDestroyed) return;
      this.card ??= new LinkCard(view, this.container, this.header, this.openPrompt);
      if (a?.matches(':hover')) this.card.over(a);
      this.card.refresh();
    });
  }
}
