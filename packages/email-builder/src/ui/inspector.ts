import { NodeSelection, Plugin } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { BlockDefinition } from '../nodes/define.js';
import type { BlockInspector } from './block-inspector.js';
import type { FieldHost } from './fields.js';
import { whenUiLoads } from './lazy-ui.js';

/**
 * The block settings' trip wire, in the first load: the settings of the selected block
 * ({@link BlockInspector}: when they show, the form, where it docks) load the first time a
 * block with settings is selected; from then on this forwards the editor's updates, Escape and
 * clicks to them. A click on text inside a block without editable content selects the block
 * from the start (see {@link selectClickedAtom}).
 */
export class Inspector {
  private inspector: BlockInspector | null = null;

  constructor(
    private readonly container: HTMLElement,
    private readonly blocks: ReadonlyMap<string, BlockDefinition>,
    private readonly host: FieldHost,
    /** The editor's sticky toolbar, which the settings keep below. */
    private readonly header: HTMLElement | null = null,
    /** Called as the settings open: the email settings panel closes, so the two never overlap. */
    private readonly onOpen: () => void = () => {},
  ) {}

  plugin(): Plugin {
    return new Plugin({
      view: () => ({
        update: (view) => {
          if (this.inspector) this.inspector.update();
          else if (view.editable && this.inspectable(view)) this.load(view);
        },
        destroy: () => this.inspector?.destroy(),
      }),
      props: {
        handleKeyDown: (_view, event) => this.inspector?.key(event) ?? false,
        handleDOMEvents: {
          // Text inside a block without editable content (a custom block's `toDOM` may hold
          // text) has no document position, so ProseMirror drops a click on it and the block
          // is not selected. Once the click is over, select the block, as a click on its
          // margin does (a block ProseMirror selected is left alone).
          click: (view, event) => {
            if (event.button === 0 && !event.shiftKey) selectClickedAtom(view, event);
            return false;
          },
        },
        handleClickOn: (_view, _pos, _node, nodePos, _event, direct) =>
          this.inspector?.clickOn(nodePos, direct) ?? false,
      },
    });
  }

  /** Hides the settings of the selected block, which stays selected; they open again when the selection moves. */
  dismiss(): void {
    this.inspector?.dismiss();
  }

  /** Whether the selection is a block with settings. */
  private inspectable(view: EditorView): boolean {
    const { selection } = view.state;
    return selection instanceof NodeSelection && !!this.blocks.get(selection.node.type.name)?.inspect;
  }

  private load(view: EditorView): void {
    whenUiLoads(({ BlockInspector }) => {
      if (view.isDestroyed) return;
      this.inspector ??= new BlockInspector(
        view,
        this.container,
        this.blocks,
        this.host,
        this.header,
        this.onOpen,
      );
      this.inspector.update();
    });
  }
}

/** Selects the atom block whose DOM holds the click's target, unless it is selected already. */
function selectClickedAtom(view: EditorView, event: MouseEvent): void {
  const target = event.target instanceof Element ? event.target : null;
  // a control of the block's own (an image's Upload, its URL field) does its own thing: opening
  // the block's settings over it was the answer a disabled Upload gave (issue 40)
  if (target?.closest('button, input, select, textarea')) return;
  const dom = target?.closest('[data-block][contenteditable="false"]');
  if (!dom || dom === view.dom || !view.dom.contains(dom) || !view.editable) return;
  // The position before the block: where `posAtDOM` puts its start, or one before that.
  const at = view.posAtDOM(dom, 0);
  const pos = [at, at - 1].find((p) => p >= 0 && view.nodeDOM(p) === dom);
  const node = pos === undefined ? null : view.state.doc.nodeAt(pos);
  if (pos === undefined || !node?.isAtom || !NodeSelection.isSelectable(node)) return;
  const { selection } = view.state;
  if (selection instanceof NodeSelection && selection.from === pos) return;
  view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, pos)));
}
