import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection, Plugin, Selection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { cleanValue } from '../model/attrs.js';
import type { BlockDefinition } from '../nodes/define.js';
import { h, iconButton } from './dom.js';
import type { FieldHost } from './fields.js';
import { ICONS } from './icons.js';
import { loadedFields, whenFieldsLoad } from './lazy-fields.js';

/**
 * The settings form of the selected block (button text, link, colours; image alt, width…),
 * generated from the block's attribute table. A block with `inspectChildren` (a row of columns)
 * also lists each child's settings. Changes are ordinary transactions, so they undo.
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

  constructor(
    private readonly container: HTMLElement,
    private readonly blocks: ReadonlyMap<string, BlockDefinition>,
    private readonly host: FieldHost,
  ) {
    this.el = h('div', {
      class: 'sv-popover sv-inspector',
      role: 'dialog',
      'aria-label': 'Block settings',
      hidden: true,
    });
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.view?.focus();
      }
    });
    container.append(this.el);
  }

  plugin(): Plugin {
    return new Plugin({
      view: (view) => {
        this.view = view;
        return { update: () => this.update(), destroy: () => (this.el.hidden = true) };
      },
    });
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
      this.el.hidden = true;
      this.shown = null;
      return;
    }
    if (this.shown?.pos === sel.pos && this.shown.node === sel.node) return;
    if (!loadedFields()) {
      whenFieldsLoad(() => {
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
    this.render(sel.pos, sel.node, sel.def);
    if (focusKey) {
      const input = this.el.querySelector<HTMLElement>(
        `[data-field="${focusKey}"] input, [data-field="${focusKey}"] textarea, [data-field="${focusKey}"] select`,
      );
      input?.focus();
      if (caret !== null && input instanceof HTMLInputElement && input.type === 'text')
        input.setSelectionRange(caret, caret);
    }
    const dom = view.nodeDOM(sel.pos) as HTMLElement | null;
    const rect = dom?.getBoundingClientRect?.();
    const box = this.container.getBoundingClientRect();
    if (!rect) return;
    this.el.hidden = false;
    const right = box.right - Math.max(rect.right, view.dom.getBoundingClientRect().right);
    this.el.style.left =
      right > 300
        ? `${rect.right - box.left + 16}px`
        : `${Math.max(8, box.width - this.el.offsetWidth - 8)}px`;
    this.el.style.top = `${Math.max(8, rect.top - box.top)}px`;
  }

  private render(pos: number, node: PMNode, def: BlockDefinition): void {
    const view = this.view!;
    const { field } = loadedFields()!;
    const set = (atPos: number, target: BlockDefinition, key: string, value: unknown) => {
      const current = view.state.doc.nodeAt(atPos);
      const spec = target.attrs[key];
      if (!current || !spec) return;
      if (target.update?.(view, atPos, key, value)) return;
      const tr = view.state.tr.setNodeMarkup(atPos, undefined, {
        ...current.attrs,
        [key]: cleanValue(spec, value),
      });
      tr.setSelection(NodeSelection.create(tr.doc, pos));
      view.dispatch(tr);
    };
    const title = node.type.name.replace(/([A-Z])/g, ' $1');
    const body = h('div', { class: 'sv-inspector-body' });
    for (const [key, spec] of Object.entries(def.attrs))
      body.append(field(key, spec, node.attrs[key], (v) => set(pos, def, key, v), this.host));
    if (def.inspectChildren) {
      node.forEach((child, offset, i) => {
        const childDef = this.blocks.get(child.type.name);
        if (!childDef) return;
        const name = child.type.name.replace(/([A-Z])/g, ' $1');
        const legend = `${name.charAt(0).toUpperCase()}${name.slice(1)} ${i + 1}`;
        const group = h('fieldset', { class: 'sv-fieldset' }, h('legend', {}, legend));
        for (const [key, spec] of Object.entries(childDef.attrs))
          group.append(
            field(key, spec, child.attrs[key], (v) => set(pos + 1 + offset, childDef, key, v), this.host),
          );
        body.append(group);
      });
    }
    this.el.replaceChildren(
      h(
        'div',
        { class: 'sv-inspector-head' },
        h('strong', {}, title.charAt(0).toUpperCase() + title.slice(1)),
        iconButton(ICONS.close, 'Close settings', () => this.close(pos)),
      ),
      body,
    );
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
    if (text) view.dispatch(view.state.tr.setSelection(text));
    else this.update();
    view.focus();
  }
}
