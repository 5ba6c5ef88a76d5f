import { Plugin, TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { FormattingBubble } from './formatting-bubble.js';
import { whenUiLoads } from './lazy-ui.js';

/**
 * The formatting bubble's trip wire, in the first load: the bubble itself
 * ({@link FormattingBubble}: the formatting toolbar over selected text, and the link prompt)
 * loads the first time text is selected or Mod-K asks for a link; from then on this forwards
 * the editor's updates and focus changes to it.
 */
export class BubbleMenu {
  private view: EditorView | null = null;
  private bubble: FormattingBubble | null = null;

  /**
   * @param container the positioned element the menu is placed in
   * @param header the editor's sticky toolbar, which the menu keeps below
   */
  constructor(
    private readonly container: HTMLElement,
    private readonly header: HTMLElement | null = null,
  ) {}

  /** The plugin that shows the menu for non-empty text selections. */
  plugin(): Plugin {
    return new Plugin({
      view: (view) => {
        this.view = view;
        return {
          update: (v, prev) => {
            if (this.bubble) this.bubble.viewUpdate(prev);
            else if (!v.state.selection.empty && v.state.selection instanceof TextSelection && v.editable)
              this.load(() => {});
          },
          destroy: () => this.bubble?.destroy(),
        };
      },
      props: {
        handleDOMEvents: {
          blur: (_view, event) => {
            this.bubble?.blur(event);
            return false;
          },
          focus: () => {
            this.bubble?.focus();
            return false;
          },
        },
      },
    });
  }

  /**
   * Opens the link prompt (Mod-K): on selected text, to link it; on a cursor inside a link, to
   * edit that link; on any other cursor in text, to insert a new link there. False where no
   * text goes (the key is then left to others).
   */
  openLink(): boolean {
    const view = this.view!;
    const { selection } = view.state;
    if (!view.editable || !(selection instanceof TextSelection)) return false;
    if (selection.empty && !selection.$from.parent.inlineContent) return false;
    this.load((bubble) => bubble.openLink());
    return true;
  }

  /** Loads the bubble (once), shows it for the current selection, then runs `then` on it. */
  private load(then: (bubble: FormattingBubble) => void): void {
    whenUiLoads(({ FormattingBubble }) => {
      const view = this.view;
      if (!view || view.isDestroyed) return;
      if (!this.bubble) {
        this.bubble = new FormattingBubble(view, this.container, this.header);
        this.bubble.focus();
      }
      then(this.bubble);
    });
  }
}
