import { toggleMark } from 'prosemirror-commands';
import type { MarkType } from 'prosemirror-model';
import { type EditorState, TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { EDITING_ICONS } from '../icons/editing.js';
import { linkRange } from '../marks/link/range.js';
import { FONT_SIZES } from '../marks/style/index.js';
import { normalizeUserUrl } from '../primitives/url.js';
import { h } from './dom.js';
import { followViewport, place } from './place.js';

/** Text colours offered (readable on white and on the dark canvas alike). */
export const PALETTE = [
  '#27272a',
  '#71717a',
  '#dc2626',
  '#ea580c',
  '#ca8a04',
  '#16a34a',
  '#2563eb',
  '#7c3aed',
  '#db2777',
];
/** Highlight colours offered. */
export const HIGHLIGHTS = ['#fef08a', '#bbf7d0', '#bfdbfe', '#fbcfe8', '#fed7aa', '#e4e4e7'];

function markActive(state: EditorState, type: MarkType): boolean {
  const { from, to, empty, $from } = state.selection;
  return empty ? !!type.isInSet(state.storedMarks ?? $from.marks()) : state.doc.rangeHasMark(from, to, type);
}

function setMark(view: EditorView, type: MarkType, attrs: Record<string, unknown> | null): void {
  const { from, to } = view.state.selection;
  let tr = view.state.tr.removeMark(from, to, type);
  if (attrs) tr = tr.addMark(from, to, type.create(attrs));
  view.dispatch(tr);
}

/**
 * Inserts `text` linked to `href` at the cursor, with the formatting the cursor has, and leaves
 * the cursor after it, outside the link, so that writing goes on as plain text.
 */
function insertLink(view: EditorView, text: string, href: string): void {
  const { state } = view;
  const type = state.schema.marks.link!;
  const { from } = state.selection;
  const marks = type.removeFromSet(state.storedMarks ?? state.selection.$from.marks());
  const tr = state.tr.insert(from, state.schema.text(text, type.create({ href }).addToSet(marks)));
  tr.setSelection(TextSelection.create(tr.doc, from + text.length)).setStoredMarks(marks);
  view.dispatch(tr.scrollIntoView());
}

/**
 * The formatting toolbar over a text selection, loaded on first use (see `BubbleMenu`): bold,
 * italic, underline, strike, link, text colour, highlight, font size and alignment, and the
 * link prompt. Buttons keep the selection (mousedown is cancelled) and show their state with
 * `aria-pressed`. While shown it follows the selection as the page or the editor scrolls, and
 * hides while the selection is scrolled out of view.
 */
export class FormattingBubble {
  readonly el: HTMLElement;
  private readonly panel: HTMLElement;
  /** `insert`: the link prompt at a cursor, which inserts a new link there. */
  private mode: 'main' | 'link' | 'insert' | 'color' | 'highlight' = 'main';
  private unfollow: (() => void) | null = null;

  /**
   * @param view the editor
   * @param container the positioned element the menu is placed in
   * @param header the editor's sticky toolbar, which the menu keeps below
   */
  constructor(
    private readonly view: EditorView,
    private readonly container: HTMLElement,
    private readonly header: HTMLElement | null = null,
  ) {
    this.panel = h('div', { class: 'sv-bubble-panel' });
    this.el = h(
      'div',
      { class: 'sv-popover sv-bubble', role: 'toolbar', 'aria-label': 'Text formatting', hidden: true },
      this.panel,
    );
    this.el.addEventListener('mousedown', (e) => {
      if (!(e.target as HTMLElement).closest('input, select')) e.preventDefault();
    });
    container.append(this.el);
  }

  /** After an update of the editor: a changed selection or document shows, moves or hides it. */
  viewUpdate(prev: EditorState): void {
    const { state } = this.view;
    if (!prev.selection.eq(state.selection) || !prev.doc.eq(state.doc)) this.update();
  }

  /** The editor lost the focus: the menu goes, unless the focus went into it. */
  blur(event: FocusEvent): void {
    if (!this.el.contains(event.relatedTarget as Node | null)) this.hide();
  }

  /** The editor got the focus (back): the menu shows again over a selection. */
  focus(): void {
    this.update();
  }

  /** Removes the menu from the page. */
  destroy(): void {
    this.hide();
    this.el.remove();
  }

  /**
   * Opens the link prompt (Mod-K): on selected text, to link it; on a cursor inside a link, to
   * edit that link (it is selected first); on any other cursor in text, to insert a new link
   * there, showing the text typed in the prompt or else the address. False where no text goes.
   */
  openLink(): boolean {
    const view = this.view;
    const { state } = view;
    const { selection } = state;
    if (!view.editable || !(selection instanceof TextSelection)) return false;
    if (selection.empty) {
      const link = linkRange(state.schema.marks.link!, selection.$from);
      if (link) view.dispatch(state.tr.setSelection(TextSelection.create(state.doc, link.from, link.to)));
      else if (!selection.$from.parent.inlineContent) return false;
      else {
        this.mode = 'insert';
        this.update(true);
        return true;
      }
    }
    this.mode = 'link';
    this.update(true);
    return true;
  }

  private update(keepMode = false): void {
    const view = this.view;
    const { selection } = view.state;
    if (!keepMode) this.mode = 'main';
    const show =
      selection instanceof TextSelection &&
      (!selection.empty || this.mode === 'insert') &&
      view.editable &&
      (view.hasFocus() || this.el.contains(document.activeElement));
    if (!show) {
      this.hide();
      return;
    }
    this.render();
    this.position();
    this.unfollow ??= followViewport(this.el, () => this.position());
  }

  /** Places the menu over the selection (under it when there is no room above). */
  private position(): void {
    const view = this.view;
    const { from, to } = view.state.selection;
    const start = view.coordsAtPos(from);
    const end = view.coordsAtPos(to);
    const anchor = {
      left: Math.min(start.left, end.left),
      right: Math.max(start.right, end.right),
      top: Math.min(start.top, end.top),
      bottom: Math.max(start.bottom, end.bottom),
    };
    place(this.el, this.container, anchor, { prefer: 'above', target: view.dom, header: this.header });
  }

  private hide(): void {
    this.el.hidden = true;
    this.mode = 'main';
    this.unfollow?.();
    this.unfollow = null;
  }

  private render(): void {
    const view = this.view;
    const { schema } = view.state;
    const m = schema.marks;
    const btn = (icon: string, label: string, active: boolean, run: () => void) =>
      h('button', {
        type: 'button',
        class: 'sv-icon-btn',
        'aria-label': label,
        title: label,
        'aria-pressed': String(active),
        html: icon,
        onclick: run,
      });
    const toggle = (type: MarkType) => () => {
      toggleMark(type)(view.state, view.dispatch);
      this.update();
    };
    if (this.mode === 'link' || this.mode === 'insert') {
      const inserting = this.mode === 'insert';
      const current = view.state.doc.rangeHasMark(
        view.state.selection.from,
        view.state.selection.to,
        m.link!,
      );
      let href = '';
      view.state.doc.nodesBetween(view.state.selection.from, view.state.selection.to, (node) => {
        const link = m.link!.isInSet(node.marks);
        if (link) href = link.attrs.href;
      });
      const input = h('input', {
        type: 'url',
        class: 'sv-input',
        placeholder: 'Paste a link (https, mailto, tel)',
        'aria-label': 'Link address',
      });
      input.value = href;
      const label = h('input', {
        type: 'text',
        class: 'sv-input',
        placeholder: 'Text (else the address)',
        'aria-label': 'Link text',
      });
      const error = h(
        'p',
        { class: 'sv-error', role: 'alert', hidden: true },
        'Links must be http, https, mailto or tel.',
      );
      const apply = () => {
        const url = normalizeUserUrl(input.value);
        if (input.value.trim() === '') {
          if (!inserting) setMark(view, m.link!, null);
        } else if (!url) {
          error.hidden = false;
          return;
        } else if (inserting) insertLink(view, label.value.trim() || input.value.trim(), url);
        else setMark(view, m.link!, { href: url });
        view.focus();
        if (inserting) this.hide();
      };
      for (const field of [input, label])
        field.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            view.focus();
            this.update();
          }
        });
      this.panel.replaceChildren(
        h(
          'div',
          { class: 'sv-row' },
          input,
          inserting ? label : null,
          h('button', { type: 'button', class: 'sv-btn sv-btn-primary', onclick: apply }, 'Apply'),
          current
            ? btn(EDITING_ICONS.trash, 'Remove link', false, () => {
                setMark(view, m.link!, null);
                view.focus();
              })
            : null,
        ),
        error,
      );
      queueMicrotask(() => input.focus());
      return;
    }
    if (this.mode === 'color' || this.mode === 'highlight') {
      const type = this.mode === 'color' ? m.textColor! : m.highlight!;
      const colors = this.mode === 'color' ? PALETTE : HIGHLIGHTS;
      this.panel.replaceChildren(
        h(
          'div',
          {
            class: 'sv-swatches',
            role: 'group',
            'aria-label': this.mode === 'color' ? 'Text colour' : 'Highlight',
          },
          ...colors.map((c) => {
            const b = h('button', {
              type: 'button',
              class: 'sv-swatch-btn',
              'aria-label': c,
              title: c,
              style: `background:${c}`,
            });
            b.addEventListener('click', () => {
              setMark(view, type, { color: c });
              this.update();
            });
            return b;
          }),
          h(
            'button',
            {
              type: 'button',
              class: 'sv-btn',
              onclick: () => {
                setMark(view, type, null);
                this.update();
              },
            },
            'None',
          ),
        ),
      );
      return;
    }
    const size = h('select', { class: 'sv-input sv-size', 'aria-label': 'Font size', title: 'Font size' });
    let currentSize = 16;
    view.state.doc.nodesBetween(view.state.selection.from, view.state.selection.to, (node) => {
      const mark = m.fontSize!.isInSet(node.marks);
      if (mark) currentSize = mark.attrs.size;
    });
    for (const s of FONT_SIZES) size.append(h('option', { value: s, selected: s === currentSize }, `${s}px`));
    size.addEventListener('change', () => {
      const n = Number(size.value);
      setMark(view, m.fontSize!, n === 16 ? null : { size: n });
      view.focus();
    });
    const parent = view.state.selection.$from.parent;
    const align = (value: string, icon: string, label: string) =>
      btn(icon, label, parent.attrs.textAlign === value, () => {
        const { from, to } = view.state.selection;
        const tr = view.state.tr;
        view.state.doc.nodesBetween(from, to, (node, pos) => {
          if (node.isTextblock && 'textAlign' in node.attrs)
            tr.setNodeMarkup(pos, undefined, { ...node.attrs, textAlign: value });
        });
        view.dispatch(tr);
        this.update();
      });
    const sep = () => h('span', { class: 'sv-sep', 'aria-hidden': 'true' });
    this.panel.replaceChildren(
      btn(EDITING_ICONS.bold, 'Bold', markActive(view.state, m.bold!), toggle(m.bold!)),
      btn(EDITING_ICONS.italic, 'Italic', markActive(view.state, m.italic!), toggle(m.italic!)),
      btn(EDITING_ICONS.underline, 'Underline', markActive(view.state, m.underline!), toggle(m.underline!)),
      btn(EDITING_ICONS.strike, 'Strikethrough', markActive(view.state, m.strike!), toggle(m.strike!)),
      sep(),
      btn(EDITING_ICONS.link, 'Link', markActive(view.state, m.link!), () => this.openLink()),
      btn(EDITING_ICONS.color, 'Text colour', markActive(view.state, m.textColor!), () => {
        this.mode = 'color';
        this.update(true);
      }),
      btn(EDITING_ICONS.highlight, 'Highlight', markActive(view.state, m.highlight!), () => {
        this.mode = 'highlight';
        this.update(true);
      }),
      size,
      sep(),
      align('left', EDITING_ICONS.alignLeft, 'Align left'),
      align('center', EDITING_ICONS.alignCenter, 'Align center'),
      align('right', EDITING_ICONS.alignRight, 'Align right'),
    );
  }
}
