/**
 * One open item in a list of rows (a captured message, a sent message): its row's toggle says
 * Open or Close, and its details sit under it, loaded when opened; Escape inside them closes
 * them. The Sandbox and Emails sections share it; the rows stay the panels' own.
 */
import { el } from '../lib/dom.js';
import { setText } from './patch.js';

/** A row with an Open/Close toggle. */
export interface ToggleRow {
  element: HTMLElement;
  toggle: HTMLButtonElement;
}

export class OneOpen {
  /** The open item's id, if any. */
  openId: string | undefined;
  /** Where the open item's details go (moved under its row). */
  readonly detail: HTMLDivElement;

  constructor(id: string) {
    this.detail = el('div', { className: 'capture-body', id });
    // Escape anywhere in the open item closes it and puts the focus back on its toggle, where
    // the reader opened it (with the details gone, the focus inside them would fall to <body>).
    this.detail.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const toggle = this.detail.parentElement?.querySelector<HTMLButtonElement>(
        `[aria-controls="${this.detail.id}"][aria-expanded="true"]`,
      );
      if (!toggle) return;
      event.preventDefault();
      toggle.focus();
      toggle.click();
    });
  }

  /** A toggle for the row of an item, controlling the details; `label` names it when "Open" alone would not. */
  toggleButton(onClick: () => void, label?: string): HTMLButtonElement {
    const toggle = el('button', { type: 'button', className: 'small', textContent: 'Open' });
    toggle.setAttribute('aria-controls', this.detail.id);
    if (label !== undefined) toggle.setAttribute('aria-label', label);
    toggle.addEventListener('click', onClick);
    return toggle;
  }

  /** Opens `id` (closing any other), or closes it; `true` when it is now open (details loading). */
  flip(id: string): boolean {
    this.openId = this.openId === id ? undefined : id;
    this.detail.replaceChildren(el('p', { className: 'hint', textContent: 'Loading…' }));
    return this.openId !== undefined;
  }

  /** Marks every row's toggle and puts the details under the open row; gone when it left the list. */
  place(rows: ReadonlyMap<string, ToggleRow>): void {
    for (const [id, row] of rows) {
      const open = id === this.openId;
      row.toggle.setAttribute('aria-expanded', String(open));
      setText(row.toggle, open ? 'Close' : 'Open');
      if (open && this.detail.parentElement !== row.element) row.element.append(this.detail);
    }
    if (this.openId === undefined || !rows.has(this.openId)) this.detail.remove();
  }

  /** Says why the details of `id` could not be read, if it is still the open one. */
  failed(id: string, error: unknown): void {
    if (this.openId === id)
      this.detail.replaceChildren(el('p', { className: 'hint', textContent: (error as Error).message }));
  }

  close(): void {
    this.openId = undefined;
    this.detail.remove();
  }
}
