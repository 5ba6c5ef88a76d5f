import { TextSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { EDITING_ICONS } from '../icons/editing.js';
import { caretLink, type LinkRange, linkRange } from '../marks/link/range.js';
import { VARIABLE_ONLY } from '../primitives/merge-tags.js';
import { h, iconButton } from './dom.js';
import { followViewport, place } from './place.js';

/** How long the pointer rests on a link before its card shows (a pointer passing by shows none). */
const SHOW_DELAY = 300;
/** How long a card stays after the pointer left its link: time to move onto the card. */
const HIDE_DELAY = 250;

const same = (a: LinkRange | null, b: LinkRange | null) =>
  a === b || (!!a && !!b && a.from === b.from && a.to === b.to && a.href === b.href);

/**
 * The link card, loaded the first time a link needs it (see `LinkHover`): the address (whole in
 * its tooltip), **Open** (a real link: a new tab, `rel="noopener noreferrer"`; not offered for a
 * merge variable, which is no address until the email is sent), **Edit** (the link prompt on the
 * whole link) and **Remove** (the link mark off the whole link).
 *
 * It shows while the cursor is in a link (where typing would extend it) and while the pointer
 * rests on one; the pointer's link wins while it is there. Tab from the text moves into the card
 * of the cursor's link (as CKEditor 5 does with its link balloon), Shift-Tab from its first
 * control goes back, Escape closes it until the cursor leaves that link. Never shown while the
 * editor is read-only or text is selected (the formatting bubble is showing then). Below the
 * link, else above it, inside the window and below the sticky toolbar, following the page as
 * it scrolls.
 */
export class LinkCard {
  readonly el: HTMLElement;
  private readonly url: HTMLElement;
  private readonly open: HTMLAnchorElement;
  /** The link the cursor is in (while the editor has the focus). */
  private caret: LinkRange | null = null;
  /** The link the pointer rests on. */
  private pointer: LinkRange | null = null;
  /** The cursor's link whose card Escape closed: it stays closed until the cursor leaves that link. */
  private dismissed: LinkRange | null = null;
  private shown: LinkRange | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private unfollow: (() => void) | null = null;

  /**
   * @param view the editor
   * @param container the positioned element the card is placed in
   * @param header the editor's sticky toolbar, which the card keeps below
   * @param openPrompt opens the link prompt on the selected link
   */
  constructor(
    private readonly view: EditorView,
    private readonly container: HTMLElement,
    private readonly header: HTMLElement | null,
    private readonly openPrompt: () => boolean,
  ) {
    this.url = h('span', { class: 'sv-link-url' });
    this.open = h('a', {
      class: 'sv-icon-btn',
      target: '_blank',
      rel: 'noopener noreferrer',
      'aria-label': 'Open link in a new tab',
      title: 'Open in a new tab',
      html: EDITING_ICONS.open,
    });
    this.el = h(
      'div',
      { class: 'sv-popover sv-link-card', role: 'group', 'aria-label': 'Link', hidden: true },
      this.url,
      this.open,
      iconButton(EDITING_ICONS.edit, 'Edit link', () => this.edit()),
      iconButton(EDITING_ICONS.unlink, 'Remove link', () => this.remove()),
    );
    // a click keeps the focus (and the cursor) in the text, as the formatting bubble's do
    this.el.addEventListener('mousedown', (e) => {
      if (!(e.target as Element).closest('a')) e.preventDefault();
    });
    this.el.addEventListener('mouseenter', () => clearTimeout(this.timer));
    this.el.addEventListener('mouseleave', () => this.leave());
    this.el.addEventListener('keydown', (e) => {
      const first = this.el.querySelector('a:not([hidden]), button');
      if (e.key === 'Escape' || (e.key === 'Tab' && e.shiftKey && document.activeElement === first)) {
        e.preventDefault();
        if (e.key === 'Escape') this.dismissed = this.caret;
        view.focus();
        this.refresh();
      }
    });
    this.el.addEventListener('focusout', (e) => {
      const to = e.relatedTarget as Node | null;
      if (!this.el.contains(to) && !view.dom.contains(to)) this.refresh(false);
    });
    container.append(this.el);
  }

  /** After each update of the editor: a changed document forgets the pointer's link. */
  update(docChanged: boolean): void {
    if (docChanged) this.pointer = null;
    this.refresh();
  }

  /** The editor's keys: Tab into the card of the cursor's link, Escape to close it. */
  key(event: KeyboardEvent): boolean {
    if (!this.shown || !same(this.shown, this.caret) || event.altKey || event.ctrlKey || event.metaKey)
      return false;
    if (event.key === 'Escape') {
      this.dismissed = this.caret;
      this.refresh();
      return true;
    }
    if (event.key === 'Tab' && !event.shiftKey) {
      this.el.querySelector<HTMLElement>('a:not([hidden]), button')?.focus();
      return true;
    }
    return false;
  }

  /** The editor lost the focus: the cursor's card goes, unless the focus went into it. */
  blur(event: FocusEvent): void {
    if (!this.el.contains(event.relatedTarget as Node | null)) this.refresh(false);
  }

  /** The pointer came over the link `a`: its card shows once the pointer has rested there. */
  over(a: Element): void {
    const view = this.view;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // inside the link's first character: at its very start the link may not count
      const pos = Math.min(view.posAtDOM(a, 0) + 1, view.state.doc.content.size);
      this.pointer = linkRange(view.state.schema.marks.link!, view.state.doc.resolve(pos));
      this.refresh();
    }, SHOW_DELAY);
  }

  /** The pointer left something in the editor: if it left a link, its card goes a moment later. */
  out(event: MouseEvent): void {
    const a = (event.target as Element).closest?.('a[href]');
    if (a && !a.contains(event.relatedTarget as Node | null)) this.leave();
  }

  /**
   * Shows the card of the pointer's link, else of the cursor's, or hides it. While the focus is
   * in the card, the card stays as it is (the keyboard is using it).
   */
  refresh(focused = true): void {
    const view = this.view;
    const live = view.editable && view.state.selection.empty;
    const inCard = this.el.contains(document.activeElement);
    const caret = live && ((focused && view.hasFocus()) || inCard) ? caretLink(view.state) : null;
    if (!same(caret, this.caret)) this.caret = caret;
    // the dismissed link follows edits inside it (its end moves as one types)
    const d = this.dismissed;
    this.dismissed =
      caret && d && caret.href === d.href && caret.from <= d.to && caret.to >= d.from ? caret : null;
    if (inCard && this.shown) return;
    this.shown = (live && this.pointer) || (this.dismissed ? null : this.caret);
    if (!this.shown) {
      this.el.hidden = true;
      this.unfollow?.();
      this.unfollow = null;
      return;
    }
    const { href } = this.shown;
    this.url.textContent = href;
    this.url.title = href;
    const variable = VARIABLE_ONLY.test(href);
    this.open.hidden = variable;
    if (!variable) this.open.href = href;
    this.position();
    this.unfollow ??= followViewport(this.el, () => this.position());
  }

  /** Removes the card from the page. */
  destroy(): void {
    clearTimeout(this.timer);
    this.unfollow?.();
    this.el.remove();
  }

  /** The pointer left the link or the card: the card goes a moment later, unless it comes back. */
  private leave(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.pointer = null;
      this.refresh();
    }, HIDE_DELAY);
  }

  /** Edit: the whole link selected, and the link prompt open on it. */
  private edit(): void {
    const { view, shown: link } = this;
    if (!link) return;
    this.pointer = null;
    view.focus();
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, link.from, link.to)));
    this.openPrompt();
  }

  /** Remove: the link mark goes from the whole link; the text stays. */
  private remove(): void {
    const { view, shown: link } = this;
    if (!link) return;
    this.pointer = null;
    view.dispatch(view.state.tr.removeMark(link.from, link.to, view.state.schema.marks.link!));
    view.focus();
    this.refresh();
  }

  private position(): void {
    const { view, shown: link } = this;
    if (!link) return;
    const start = view.coordsAtPos(link.from);
    const end = view.coordsAtPos(link.to);
    place(
      this.el,
      this.container,
      { left: start.left, right: end.right, top: start.top, bottom: end.bottom },
      { prefer: 'below', target: view.dom, header: this.header },
    );
  }
}
