/**
 * The playground's status line: one short message at a time in a polite live region
 * (`role="status"`), so screen readers announce each one without moving focus.
 */

/** The colour a message shows in. */
export type Tone = 'info' | 'ok' | 'error';

/** How long a passing message (info, ok) stays before the line clears itself. */
export const STATUS_CLEAR_MS = 6000;

/**
 * A status line whose messages do not outstay their moment: "Copied 11.3 KB of HTML" or "New
 * email. Undo brings the previous one back." clear after {@link STATUS_CLEAR_MS} or at the next
 * edit, whichever comes first; errors, and messages said with `lasting` (an upload still under
 * way), stay until the next message or edit. Clearing empties the live region, which screen
 * readers do not announce, and lets the same message be announced again when it is said again.
 */
export class StatusLine {
  private timer: number | undefined;

  constructor(private readonly element: HTMLElement) {}

  /** Shows `message`; `lasting` keeps it until the next message or edit (errors always are). */
  say(message: string, tone: Tone = 'info', lasting = tone === 'error'): void {
    window.clearTimeout(this.timer);
    this.element.textContent = message;
    this.element.dataset.tone = tone;
    if (!lasting) this.timer = window.setTimeout(() => this.clear(), STATUS_CLEAR_MS);
  }

  /** Empties the line (the next edit calls this). */
  clear(): void {
    window.clearTimeout(this.timer);
    this.element.textContent = '';
    delete this.element.dataset.tone;
  }
}
