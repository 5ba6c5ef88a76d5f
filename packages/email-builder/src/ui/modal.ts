import { EDITING_ICONS } from '../icons/editing.js';
import { h, iconButton, uid } from './dom.js';

/** What a {@link Modal} needs. */
export interface ModalOptions {
  title: string;
  /** The close button's name (a message key, as `title` is). */
  closeLabel: string;
  /** Extra class on the overlay (`sv-modal` is always there). */
  className?: string;
  closeOnOverlayClick: boolean;
  /** Escape, the close button or an overlay click asked to close. */
  onRequestClose(): void;
}

/** Open modals, topmost last: only the topmost reacts to keys and keeps focus. */
const stack: Modal[] = [];
let savedOverflow = '';

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function onKey(event: KeyboardEvent): void {
  stack.at(-1)?.key(event);
}

function onFocusIn(event: FocusEvent): void {
  const top = stack.at(-1);
  // Focus that escapes the dialog (a click on the page behind, a script) is brought back.
  if (top && !top.dialog.contains(event.target as Node)) top.focusFirst();
}

/**
 * An accessible modal dialog (WAI-ARIA APG "Dialog (Modal)"): `role="dialog"`, `aria-modal`,
 * labelled by its title; focus moves in on open, stays inside (Tab and Shift+Tab wrap, focus
 * that leaves is brought back) and returns to the element that had it on close; Escape closes;
 * the page behind does not scroll. Several can be open; the topmost one is active.
 */
export class Modal {
  readonly overlay: HTMLElement;
  readonly dialog: HTMLElement;
  /** The header row after the title: put controls here. */
  readonly tools: HTMLElement;
  readonly body: HTMLElement;
  private opener: HTMLElement | null = null;
  private pressedOverlay = false;

  constructor(private readonly options: ModalOptions) {
    const titleId = uid('sv-modal-title');
    this.tools = h('div', { class: 'sv-modal-tools' });
    this.body = h('div', { class: 'sv-modal-body' });
    this.dialog = h(
      'div',
      { class: 'sv-modal-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId },
      h(
        'div',
        { class: 'sv-modal-head' },
        h('h2', { id: titleId, class: 'sv-modal-title' }, options.title),
        this.tools,
        iconButton(EDITING_ICONS.close, options.closeLabel, () => options.onRequestClose(), {
          class: 'sv-icon-btn sv-modal-close',
        }),
      ),
      this.body,
    );
    this.overlay = h('div', { class: `sv-modal ${options.className ?? ''}`.trim() }, this.dialog);
    // Closing on overlay clicks only when the press also started there, so a text selection
    // dragged out of the dialog does not close it.
    this.overlay.addEventListener('mousedown', (e) => (this.pressedOverlay = e.target === this.overlay));
    this.overlay.addEventListener('click', (e) => {
      if (e.target === this.overlay && this.pressedOverlay && this.options.closeOnOverlayClick)
        this.options.onRequestClose();
    });
  }

  /** Whether the modal is in the page. */
  get isOpen(): boolean {
    return stack.includes(this);
  }

  /** Adds the modal to the page and moves focus into it (to `initial`, or the first control). */
  open(initial?: HTMLElement): void {
    if (this.isOpen) return;
    const active = document.activeElement;
    this.opener = active instanceof HTMLElement && active !== document.body ? active : null;
    if (stack.length === 0) {
      savedOverflow = document.documentElement.style.overflow;
      document.documentElement.style.overflow = 'hidden';
      document.addEventListener('keydown', onKey, true);
      document.addEventListener('focusin', onFocusIn, true);
    }
    stack.push(this);
    document.body.append(this.overlay);
    (initial ?? this.focusables()[0] ?? this.dialog).focus();
  }

  /** Removes the modal and gives focus back to the element that had it when it opened. */
  close(): void {
    const i = stack.indexOf(this);
    if (i === -1) return;
    stack.splice(i, 1);
    this.overlay.remove();
    if (stack.length === 0) {
      document.documentElement.style.overflow = savedOverflow;
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('focusin', onFocusIn, true);
    }
    if (this.opener?.isConnected) this.opener.focus();
    this.opener = null;
  }

  /** The dialog's focusable controls, in order. */
  focusables(): HTMLElement[] {
    return [...this.dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => !el.closest('[hidden]') && el.getClientRects().length > 0,
    );
  }

  /** Focuses the first control. */
  focusFirst(): void {
    (this.focusables()[0] ?? this.dialog).focus();
  }

  /** Escape and the focus trap; also called for keys pressed inside the preview's frame. */
  key(event: KeyboardEvent): void {
    // a field that uses Escape itself (cancel a rename) marks itself with data-own-escape
    const own = (event.target as Element | null)?.closest?.('[data-own-escape]');
    if (event.key === 'Escape' && !own) {
      event.preventDefault();
      event.stopPropagation();
      this.options.onRequestClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = this.focusables();
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items.at(-1)!;
    const active = this.dialog.ownerDocument.activeElement;
    const inside = this.dialog.contains(active);
    if (event.shiftKey && (active === first || !inside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  }
}
