import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection, Plugin, Selection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { BlockDefinition } from '../nodes/define.js';
import { h } from './dom.js';
import type { FieldHost } from './fields.js';
import { loadedUi, whenUiLoads } from './lazy-ui.js';

/**
 * The settings of the selected block (button text, link, colours; image alt, width…): this
 * decides when they show and for which block; the form itself (`block-settings.ts`) and where
 * it goes (`dock.ts`) load with the editing UI the first time a block is selected.
 */
export class Inspector {
  readonly el: HTMLElement;
  private view: EditorView | null = null;
  private shown: { pos: number; node: PMNode } | null = null;
  /**
   * Where the block whose settings were closed sits while it stays selected (there was no
   * text to move the caret to): its settings stay closed until the selection moves.
   */
  private dismissedAt: number | null = null;
  private unfollow: (() => void) | null = null;

  constructor(
    private readonly container: HTMLElement,
    private readonly blocks: ReadonlyMap<string, BlockDefinition>,
    private readonly host: FieldHost,
    /** The editor's sticky toolbar, which the settings keep below. */
    private readonly header: HTMLElement | null = null,
    /** Called as the settings open: the email settings panel closes, so the two never overlap. */
    private readonly onOpen: () => void = () => {},
  ) {
    this.el = h('div', {
      class: 'sv-popover sv-inspector',
      role: 'dialog',
      'aria-label': 'Block settings',
      hidden: true,
    });
    // Escape hides the settings and gives the keyboard back to the editor, the block still selected
    this.el.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      this.dismiss();
      this.view?.focus();
    });
    container.append(this.el);
  }

  plugin(): Plugin {
    return new Plugin({
      view: (view) => {
        this.view = view;
        return {
          update: () => this.update(),
          destroy: () => {
            this.el.hidden = true;
            this.unfollow?.();
          },
        };
      },
      props: {
        handleKeyDown: (_view, event) => {
          if (event.key !== 'Escape' || this.el.hidden) return false;
          this.dismiss();
          return true;
        },
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
        // a click on the block whose settings were closed, still selected, opens them again
        handleClickOn: (_view, _pos, _node, nodePos, _event, direct) => {
          if (direct && nodePos === this.dismissedAt) {
            this.dismissedAt = null;
            this.update();
          }
          return false;
        },
      },
    });
  }

  /** Hides the settings of the selected block, which stays selected; they open again when the selection moves. */
  dismiss(): void {
    if (this.el.hidden || !this.shown) return;
    this.dismissedAt = this.shown.pos;
    this.hide();
  }

  private hide(): void {
    this.el.hidden = true;
    loadedUi()?.undock(this.container);
    this.shown = null;
    this.unfollow?.();
    this.unfollow = null;
  }

  private selected(): { pos: number; node: PMNode; def: BlockDefinition } | null {
    const { selection } = this.view!.state;
    if (!(selection instanceof NodeSelection)) return null;
    const def = this.blocks.get(selection.node.type.name);
    return def?.inspect ? { pos: selection.from, node: selection.node, def } : null;
  }

  private update(): void {
    const view = this.view!;
    const sel = view.editable ? this.selected() : null;
    if (sel?.pos !== this.dismissedAt) this.dismissedAt = null;
    if (!sel || this.dismissedAt !== null) {
      this.hide();
      return;
    }
    if (this.shown?.pos === sel.pos && this.shown.node === sel.node) {
      this.position();
      return;
    }
    const ui = loadedUi();
    if (!ui) {
      whenUiLoads(() => {
        if (!view.isDestroyed) this.update();
      });
      return;
    }
    this.shown = { pos: sel.pos, node: sel.node };
    const active = document.activeElement as HTMLElement | null;
    const focusKey = this.el.contains(active)
      ? active?.closest('[data-field]')?.getAttribute('data-field')
      : null;
    const caret = active instanceof HTMLInputElement && active.type === 'text' ? active.selectionStart : null;
    ui.renderBlockSettings(this.el, view, sel.pos, sel.node, sel.def, this.blocks, this.host, () =>
      this.close(sel.pos),
    );
    if (focusKey) {
      const input = this.el.querySelector<HTMLElement>(
        `[data-field="${focusKey}"] input, [data-field="${focusKey}"] textarea, [data-field="${focusKey}"] select`,
      );
      input?.focus();
      if (caret !== null && input instanceof HTMLInputElement && input.type === 'text')
        input.setSelectionRange(caret, caret);
    }
    const opening = this.el.hidden;
    if (opening) this.onOpen();
    this.position(opening);
    this.unfollow ??= ui.followViewport(this.el, () => this.position());
  }

  /** Docks the settings beside the block, or as a sheet along the bottom (see `dock.ts`). */
  private position(opening = false): void {
    const view = this.view!;
    const dom = this.shown && (view.nodeDOM(this.shown.pos) as HTMLElement | null);
    const block = dom?.getBoundingClientRect?.();
    if (!block) return;
    const card = view.dom.closest('.sv-canvas') ?? view.dom;
    loadedUi()?.dock(this.el, this.container, block, card, this.header, opening);
  }

  /**
   * Closes the settings: the caret goes to the nearest text after the block (else before it);
   * a document with no text keeps the block selected, with its settings closed.
   */
  private close(pos: number): void {
    const view = this.view!;
    const { doc, selection } = view.state;
    const text =
      Selection.findFrom(doc.resolve(selection.to), 1, true) ??
      Selection.findFrom(doc.resolve(selection.from), -1, true);
    this.dismissedAt = pos;
    this.hide();
    if (text) view.dispatch(view.state.tr.setSelection(text));
    view.focus();
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
