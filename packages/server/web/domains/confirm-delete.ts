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

/** Answers the opening of the dialog not yet answered, if any. */
let settle: (() => void) | undefined;
/** The dialog whose listeners are in place (added once, for every opening). */
let listening: HTMLDialogElement | undefined;

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
  if (listening !== dialog) {
    listening = dialog;
    dialog.addEventListener('keydown', (event) => holdFocus(dialog, event));
    // A close event comes a task after the dialog closed: one that finds it open again is
    // stale, its opening already settled when the dialog reopened.
    dialog.addEventListener('close', () => {
      if (!dialog.open) settle?.();
    });
  }
  // Closed, but its close event not yet here (Escape, then Space on a Revoke button, both
  // within one task on a busy machine): that opening gets its answer now, from the value its
  // button left, before this one resets it.
  settle?.();
  setText(byId('delete-verb'), wording.verb);
  setText(byId('delete-name'), name);
  setText(byId('delete-text'), wording.consequence);
  setText(byId('delete-confirm'), wording.confirm);
  // The value of the button that closed it; Escape leaves it as set here.
  dialog.returnValue = '';
  dialog.showModal();
  byId('delete-cancel').focus();
  return new Promise((resolve) => {
    settle = () => {
      settle = undefined;
      const confirmed = dialog.returnValue === 'delete';
      if (!confirmed) opener.focus();
      resolve(confirmed);
    };
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
