import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection, Selection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { BlockDefinition } from '../nodes/define.js';
import { renderBlockSettings } from './block-settings.js';
import { dock, undock } from './dock.js';
import { h } from './dom.js';
import type { FieldHost } from './fields.js';
import { followViewport } from './place.js';

/**
 * The settings of the selected block (button text, link, colours; image alt, width…): this
 * decides when they show and for which block, the form is `block-settings.ts` and where it
 * goes `dock.ts`. It loads with the editing UI the first time a block is selected (its trip
 * wire, in the first load, is `Inspector`), which then forwards the editor's updates to it.
 */
export class BlockInspector {
  readonly el: HTMLElement;
  private shown: { pos: number; node: PMNode } | null = null;
  /**
   * Where the block whose settings were closed sits while it stays selected (there was no
   * text to move the caret to): its settings stay closed until the selection moves.
   */
  private dismissedAt: number | null = null;
  private unfollow: (() => void) | null = null;

  constructor(
    private readonly view: EditorView,
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
      this.view.focus();
    });
    container.append(this.el);
  }

  /** `handleKeyDown`: Escape closes the settings shown. */
  key(event: KeyboardEvent): boolean {
    if (event.key !== 'Escape' || this.el.hidden) return false;
    this.dismiss();
    return true;
  }

  /** `handleClickOn`: a click on the block whose settings were closed, still selected, opens them again. */
  clickOn(nodePos: number, direct: boolean): boolean {
    if (direct && nodePos === this.dismissedAt) {
      this.dismissedAt = null;
      this.update();
    }
    return false;
  }

  /** Hides the settings and stops following the page (the editor is going). */
  destroy(): void {
    this.el.hidden = true;
    this.unfollow?.();
  }

  /** Hides the settings of the selected block, which stays selected; they open again when the selection moves. */
  dismiss(): void {
    if (this.el.hidden || !this.shown) return;
    this.dismissedAt = this.shown.pos;
    this.hide();
  }

  private hide(): void {
    this.el.hidden = true;
    undock(this.container);
    this.shown = null;
    this.unfollow?.();
    this.unfollow = null;
  }

  private selected(): { pos: number; node: PMNode; def: BlockDefinition } | null {
    const { selection } = this.view.state;
    if (!(selection instanceof NodeSelection)) return null;
    const def = this.blocks.get(selection.node.type.name);
    return def?.inspect ? { pos: selection.from, node: selection.node, def } : null;
  }

  /** Shows, moves or hides the settings for the editor's selection. */
  update(): void {
    const view = this.view;
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
    this.shown = { pos: sel.pos, node: sel.node };
    const active = document.activeElement as HTMLElement | null;
    const focusKey = this.el.contains(active)
      ? active?.closest('[data-field]')?.getAttribute('data-field')
      : null;
    const caret = active instanceof HTMLInputElement && active.type === 'text' ? active.selectionStart : null;
    renderBlockSettings(
      this.el,
      view,
      sel.pos,
      sel.node,
      sel.def,
      this.blocks,
      { ...this.host, where: this.el },
      () => this.close(sel.pos),
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
    this.unfollow ??= followViewport(this.el, () => this.position());
  }

  /** Docks the settings beside the block, or as a sheet along the bottom (see `dock.ts`). */
  private position(opening = false): void {
    const view = this.view;
    const dom = this.shown && (view.nodeDOM(this.shown.pos) as HTMLElement | null);
    const block = dom?.getBoundingClientRect?.();
    if (!block) return;
    const card = view.dom.closest('.sv-canvas') ?? view.dom;
    dock(this.el, this.container, block, card, this.header, opening);
  }

  /**
   * Closes the settings: the caret goes to the nearest text after the block (else before it);
   * a document with no text keeps the block selected, with its settings closed.
   */
  private close(pos: number): void {
    const view = this.view;
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
