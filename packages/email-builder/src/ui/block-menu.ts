import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection, TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { ICONS } from '../icons/chrome.js';
import { EDITING_ICONS } from '../icons/editing.js';
import type { duplicateBlock, moveBlock } from '../input/block-moves.js';
import { h, iconButton } from './dom.js';
import { followViewport, place } from './place.js';

/** The block under a viewport y coordinate: a top-level one, or one inside a repeat. */
export type BlockAt = { pos: number; node: PMNode; dom: HTMLElement };

/**
 * Finds the block under a viewport y coordinate: the top-level block there (binary search over
 * the blocks, 8 px of slack between them), and inside a repeat the block of the repeat under
 * `y` (so each block of a repeat has its own handle, menu and settings); the repeat itself on
 * its frame, above or below its blocks.
 */
export function blockAtY(view: EditorView, y: number): BlockAt | null {
  const positions: number[] = [];
  view.state.doc.forEach((_node, offset) => {
    positions.push(offset);
  });
  let lo = 0;
  let hi = positions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const pos = positions[mid]!;
    const dom = view.nodeDOM(pos) as HTMLElement | null;
    if (!dom?.getBoundingClientRect) return null;
    const rect = dom.getBoundingClientRect();
    if (y < rect.top - 8) hi = mid - 1;
    else if (y > rect.bottom + 8) lo = mid + 1;
    else return innerBlockAtY(view, { pos, node: view.state.doc.nodeAt(pos)!, dom }, y);
  }
  return null;
}

/** Inside a repeat (nested ones too), the block whose box holds `y`; else `outer` itself. */
function innerBlockAtY(view: EditorView, outer: BlockAt, y: number): BlockAt {
  if (outer.node.type.name !== 'repeat') return outer;
  let found: BlockAt | null = null;
  outer.node.forEach((node, offset) => {
    if (found) return;
    const pos = outer.pos + 1 + offset;
    const dom = view.nodeDOM(pos) as HTMLElement | null;
    const rect = dom?.getBoundingClientRect?.();
    if (dom && rect && y >= rect.top && y <= rect.bottom) found = { pos, node, dom };
  });
  return found ? innerBlockAtY(view, found, y) : outer;
}

/**
 * The per-block handle in the left gutter, loaded when the pointer first moves over the email
 * (see `BlockHandle`): "+" inserts a paragraph below and opens the slash menu; the grip drags
 * the block, and clicking it opens a menu to edit settings, duplicate, move or delete the block.
 */
export class BlockMenu {
  readonly el: HTMLElement;
  private readonly menu: HTMLElement;
  private current: BlockAt | null = null;
  private frame = 0;
  private unfollow: (() => void) | null = null;
  /**
   * The handle is placed where the pointer last found a block: after any scroll (the page's or
   * a scroll box's) that place is stale and may sit over the sticky toolbar, so it hides until
   * the pointer moves again. An open block menu follows on its own.
   */
  private readonly onScroll = () => {
    if (this.menu.hidden && !this.el.hidden) this.hide();
  };

  constructor(
    private readonly view: EditorView,
    private readonly container: HTMLElement,
    private readonly canInspect: (node: PMNode) => boolean,
    /** The keyboard's block moves (`block-moves.ts`), which the menu runs too. */
    private readonly commands: { move: typeof moveBlock; duplicate: typeof duplicateBlock },
  ) {
    const grip = iconButton(
      EDITING_ICONS.grip,
      'Drag to move, click for block actions',
      () => this.toggleMenu(),
      {
        'aria-haspopup': 'menu',
        class: 'sv-icon-btn sv-grip',
      },
    );
    grip.draggable = true;
    grip.addEventListener('dragstart', (e) => this.dragStart(e));
    this.menu = h('div', { class: 'sv-popover sv-menu', role: 'menu', hidden: true });
    this.menu.addEventListener('keydown', (e) => this.menuKey(e));
    this.el = h(
      'div',
      { class: 'sv-handle', hidden: true },
      iconButton(EDITING_ICONS.plus, 'Insert block below', () => this.insertBelow()),
      grip,
    );
    container.append(this.el, this.menu);
    window.addEventListener('scroll', this.onScroll, { capture: true, passive: true });
  }

  /** The pointer moved over the email: the handle goes to the block at `y` (once per frame). */
  pointerAt(y: number): void {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.follow(this.view, y));
  }

  /** After an update of the editor: a handle whose block changed or went hides. */
  update(): void {
    const c = this.current;
    const { doc } = this.view.state;
    if (c && (c.pos >= doc.content.size || doc.nodeAt(c.pos) !== c.node)) this.hide();
  }

  /** Removes the handle and its menu from the page. */
  destroy(): void {
    window.removeEventListener('scroll', this.onScroll, { capture: true });
    cancelAnimationFrame(this.frame);
    this.unfollow?.();
    this.el.remove();
    this.menu.remove();
  }

  private follow(view: EditorView, y: number): void {
    if (!view.editable) {
      this.hide();
      return;
    }
    const found = blockAtY(view, y);
    if (!found) return;
    if (this.current?.dom === found.dom && !this.el.hidden) return;
    this.current = found;
    this.menu.hidden = true;
    const box = this.container.getBoundingClientRect();
    const rect = found.dom.getBoundingClientRect();
    const editorRect = view.dom.getBoundingClientRect();
    this.el.hidden = false;
    this.el.style.top = `${rect.top - box.top + Math.min(rect.height / 2, 16) - 14}px`;
    this.el.style.left = `${editorRect.left - box.left - 56}px`;
  }

  private hide(): void {
    this.el.hidden = true;
    this.menu.hidden = true;
    this.current = null;
  }

  private dragStart(event: DragEvent): void {
    const view = this.view;
    if (!this.current || !event.dataTransfer) return;
    const selection = NodeSelection.create(view.state.doc, this.current.pos);
    view.dispatch(view.state.tr.setSelection(selection));
    const slice = selection.content();
    event.dataTransfer.clearData();
    event.dataTransfer.setData('text/plain', this.current.node.textContent);
    event.dataTransfer.effectAllowed = 'copyMove';
    event.dataTransfer.setDragImage(this.current.dom, 0, 0);
    // ProseMirror's drop handler moves `node` when set (its public type omits the field).
    (view as unknown as { dragging: unknown }).dragging = { slice, move: true, node: selection };
    this.menu.hidden = true;
  }

  private insertBelow(): void {
    const view = this.view;
    if (!this.current) return;
    const at = this.current.pos + this.current.node.nodeSize;
    const paragraph = view.state.schema.nodes.paragraph!.create(null, view.state.schema.text('/'));
    const tr = view.state.tr.insert(at, paragraph);
    tr.setSelection(TextSelection.create(tr.doc, at + 2));
    view.focus();
    view.dispatch(tr.scrollIntoView());
  }

  private toggleMenu(): void {
    if (!this.menu.hidden) {
      this.menu.hidden = true;
      return;
    }
    const view = this.view;
    const current = this.current;
    if (!current) return;
    const item = (icon: string, label: string, run: () => void, disabled = false) =>
      h('button', {
        type: 'button',
        role: 'menuitem',
        class: 'sv-menu-item',
        disabled,
        html: `${icon}<span>${label}</span>`,
        onclick: () => {
          this.menu.hidden = true;
          run();
        },
      });
    // a block inside a repeat moves among the repeat's blocks, and its last one stays
    const $pos = view.state.doc.resolve(current.pos);
    const index = $pos.index();
    const count = $pos.parent.childCount;
    const inside = $pos.depth > 0;
    this.menu.replaceChildren(
      ...(this.canInspect(current.node)
        ? [item(ICONS.settings, 'Settings', () => this.select(current.pos))]
        : []),
      item(EDITING_ICONS.copy, 'Duplicate', () => this.duplicate(current.pos)),
      item(EDITING_ICONS.up, 'Move up', () => this.move(current.pos, -1), index === 0),
      item(EDITING_ICONS.down, 'Move down', () => this.move(current.pos, 1), index === count - 1),
      item(EDITING_ICONS.trash, 'Delete', () => this.remove(current.pos), inside && count === 1),
    );
    const position = () => place(this.menu, this.container, this.el.getBoundingClientRect());
    position();
    // the menu is hidden from several places; the first scroll or resize after that stops this
    this.unfollow?.();
    this.unfollow = followViewport(this.menu, () => {
      if (!this.menu.hidden) position();
      else {
        this.unfollow?.();
        this.unfollow = null;
      }
    });
    (this.menu.querySelector('button:not([disabled])') as HTMLElement | null)?.focus();
  }

  private menuKey(event: KeyboardEvent): void {
    const items = [...this.menu.querySelectorAll<HTMLElement>('button:not([disabled])')];
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      items[(i + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length]?.focus();
    } else if (event.key === 'Escape') {
      this.menu.hidden = true;
      this.view.focus();
    }
  }

  private select(pos: number): void {
    const view = this.view;
    const node = view.state.doc.nodeAt(pos);
    if (!node) return;
    view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, pos)).scrollIntoView());
    view.focus();
  }

  /** Inserts a copy of the block at `pos` right after it. */
  duplicate(pos: number): void {
    const view = this.view;
    const tr = this.commands.duplicate(view.state, pos);
    if (tr) view.dispatch(tr);
    view.focus();
  }

  /** Swaps the block at `pos` with its neighbour above (-1) or below (1). */
  move(pos: number, dir: -1 | 1): void {
    const view = this.view;
    const tr = this.commands.move(view.state, pos, dir);
    if (tr) view.dispatch(tr);
    view.focus();
  }

  /** Deletes the block at `pos`, leaving an empty paragraph if it was the last one. */
  remove(pos: number): void {
    const view = this.view;
    const node = view.state.doc.nodeAt(pos);
    if (!node) return;
    const tr = view.state.tr.delete(pos, pos + node.nodeSize);
    if (tr.doc.childCount === 0) tr.insert(0, view.state.schema.nodes.paragraph!.create());
    view.dispatch(tr);
    this.hide();
    view.focus();
  }
}
