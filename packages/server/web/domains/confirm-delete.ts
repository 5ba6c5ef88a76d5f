/**
 * Asking before something is deleted (a domain, a webhook endpoint), in the page's own modal
 * `<dialog>` (domains.html) rather than `window.confirm()`: Chromium's confirm box has OK
 * focused, so Enter deletes, and it blocks the page (polls and countdowns stop) while it is open.
 */
import { byId } from '../lib/dom.js';
import { setText } from './patch.js';

/** What the dialog says about one kind of thing: "{verb} {name}?", the consequence, the button. */
export interface DeleteWording {
  /** The title's verb, e.g. `Delete`. */
  verb: string;
  /** What deleting it does, in a sentence. */
  consequence: string;
  /** The confirming button's label, e.g. `Delete domain`. */
  confirm: string;
}

/** The dialog's words for a domain (also the ones domains.html starts with). */
export const DELETE_DOMAIN: DeleteWording = {
  verb: 'Delete',
  consequence: 'Its records stop being checked and its DKIM keys are destroyed.',
  confirm: 'Delete domain',
};

/**
 * Opens the dialog for `name` and resolves to whether the user chose to delete. The safe
 * button (Cancel) has the focus; Tab and Shift+Tab stay among its buttons; Escape cancels; the
 * focus goes back to `opener` afterwards unless the deletion goes ahead (then `opener` is about
 * to leave the page).
 */
export function confirmDelete(
  name: string,
  opener: HTMLElement,
  wording: DeleteWording = DELETE_DOMAIN,
): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('delete-dialog');
  setText(byId('delete-verb'), wording.verb);
  setText(byId('delete-name'), name);
  setText(byId('delete-text'), wording.consequence);
  setText(byId('delete-confirm'), wording.confirm);
  // The value of the button that closed it; Escape leaves it as set here.
  dialog.returnValue = '';
  dialog.showModal();
  byId('delete-cancel').focus();
  const hold = (event: KeyboardEvent) => holdFocus(dialog, event);
  dialog.addEventListener('keydown', hold);
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        dialog.removeEventListener('keydown', hold);
        const confirmed = dialog.returnValue === 'delete';
        if (!confirmed) opener.focus();
        resolve(confirmed);
      },
      { once: true },
    );
  });
}

/**
 * Keeps Tab and Shift+Tab among the dialog's buttons. A modal `<dialog>` makes the page inert,
 * but Chromium still lets Tab leave its last button: to the browser's own controls, or in a
 * headless one to `<body>`, where Enter and Space do nothing (issue 40's keyboard test).
 */
function holdFocus(dialog: HTMLDialogElement, event: KeyboardEvent): void {
  if (event.key !== 'Tab') return;
  const stops = [...dialog.querySelectorAll<HTMLElement>('button, input, select, textarea, [href]')].filter(
    (e) => !e.hidden,
  );
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) return;
  const at = document.activeElement;
  if (event.shiftKey ? at === first || !dialog.contains(at) : at === last) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}
