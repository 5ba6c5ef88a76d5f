import type { Node as PMNode } from 'prosemirror-model';
import { Plugin } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { duplicateBlock, moveBlock } from '../input/block-moves.js';
import type { BlockMenu } from './block-menu.js';
import { whenUiLoads } from './lazy-ui.js';

/**
 * The blocks' handles' trip wire, in the first load: the handle and its menu
 * ({@link BlockMenu}) load when the pointer first moves over the editable email; from then on
 * this forwards the pointer's moves and the editor's updates to them.
 */
export class BlockHandle {
  private menu: BlockMenu | null = null;

  /**
   * @param container the positioned element the handle is placed in
   * @param canInspect whether a block has settings (its menu then offers them)
   */
  constructor(
    private readonly container: HTMLElement,
    private readonly canInspect: (node: PMNode) => boolean,
  ) {}

  /** The plugin that follows the pointer over the blocks. */
  plugin(): Plugin {
    return new Plugin({
      view: () => ({
        update: () => this.menu?.update(),
        destroy: () => this.menu?.destroy(),
      }),
      props: {
        handleDOMEvents: {
          mousemove: (view, event) => {
            if (this.menu) this.menu.pointerAt(event.clientY);
            else if (view.editable) this.load(view, event.clientY);
            return false;
          },
        },
      },
    });
  }

  private load(view: EditorView, y: number): void {
    whenUiLoads(({ BlockMenu }) => {
      if (view.isDestroyed) return;
      this.menu ??= new BlockMenu(view, this.container, this.canInspect, {
        move: moveBlock,
        duplicate: duplicateBlock,
      });
      this.menu.pointerAt(y);
    });
  }
}
