/**
 * Asking before a domain is deleted, in the page's own modal `<dialog>` (domains.html) rather
 * than `window.confirm()`: Chromium's confirm box has OK focused, so Enter deletes, and it
 * blocks the page (polls and countdowns stop) while it is open.
 */
import { byId } from '../lib/dom.js';
import { setText } from './patch.js';

/**
 * Opens the dialog for `name` and resolves to whether the user chose to delete. The safe
 * button (Cancel) has the focus; Escape cancels; the focus goes back to `opener` afterwards
 * unless the deletion goes ahead (then `opener` is about to leave the page).
 */
export function confirmDelete(name: string, opener: HTMLElement): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('delete-dialog');
  setText(byId('delete-name'), name);
  // The value of the button that closed it; Escape leaves it as set here.
  dialog.returnValue = '';
  dialog.showModal();
  byId('delete-cancel').focus();
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        const confirmed = dialog.returnValue === 'delete';
        if (!confirmed) opener.focus();
        resolve(confirmed);
      },
      { once: true },
    );
  });
}
