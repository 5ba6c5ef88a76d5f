/**
 * What the dashboard does when the server stops answering: stop the regular polls, say so in
 * the offline banner with a countdown to the next attempt, and try again after a growing delay
 * until an answer comes. Every failed request is one more line in the browser's console
 * ("Failed to load resource: net::ERR_CONNECTION_REFUSED"), so the page asks rarely while the
 * server is away instead of every 5 s.
 */
import { ServiceApiError } from '@service/client';
import { byId } from '../lib/dom.js';
import { setText } from './patch.js';

/** The wait before the first retry; each further failure doubles it… */
const FIRST_RETRY_MS = 5000;
/** …up to this, so a server back after an hour is noticed within a minute. */
const MAX_RETRY_MS = 60_000;

/** The wait before retry number `failures` (1 after the first failure): 5, 10, 20, 40, then 60 s. */
function retryDelayMs(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * A failed request in words for people. The client's own message for a network failure ends in
 * the browser's "Failed to fetch", which says nothing about what to do.
 */
export function explainFailure(error: unknown): string {
  if (error instanceof ServiceApiError && error.status !== 0)
    return `The server answered with an error (HTTP ${error.status}, ${error.code}): ${error.message}`;
  if (error instanceof ServiceApiError && error.code === 'TIMEOUT')
    return 'The server did not answer in time.';
  return 'Cannot reach the server: it may be restarting, or this device may be offline.';
}

/**
 * Whether `error` means the server could not serve the request (no answer, a timeout, a 5xx or
 * a 429): worth retrying later, unlike a refusal or a bad request.
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof ServiceApiError)) return error instanceof TypeError;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

/**
 * The offline state of the page and its retry schedule. `retry` re-reads everything; it calls
 * {@link Reconnector.failed} or {@link Reconnector.answered} with the outcome.
 */
export class Reconnector {
  private failures = 0;
  /** When the next attempt is due; 0 while one is under way. */
  private retryAt = 0;
  private timer: number | undefined;
  /** When the server last answered: the statuses shown are from then. */
  private answeredAt = 0;

  constructor(private readonly retry: () => void) {
    byId('offline-retry').addEventListener('click', () => this.retryNow());
  }

  /** Whether the last request went unanswered. */
  get offline(): boolean {
    return this.failures > 0;
  }

  /** The time of the last answer, as the statuses on the page are from then. */
  get lastAnswer(): string {
    return this.answeredAt === 0 ? 'never' : new Date(this.answeredAt).toLocaleTimeString();
  }

  /** A request went unanswered: show the banner and schedule the next attempt. */
  failed(error: unknown): void {
    this.failures++;
    const delay = retryDelayMs(this.failures);
    this.retryAt = Date.now() + delay;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.retryNow(), delay);
    setText(
      byId('offline-text'),
      `${explainFailure(error)} The statuses below are from ${this.lastAnswer} and may be out of date.`,
    );
    byId('offline').hidden = false;
    this.tick();
  }

  /** The server answered: hide the banner. Returns whether the page was offline until now. */
  answered(): boolean {
    const wasOffline = this.offline;
    this.answeredAt = Date.now();
    this.stop();
    return wasOffline;
  }

  /**
   * Tries at once (the Retry button, or the countdown reaching zero). A press while an attempt
   * is under way does nothing; the button stays enabled, as disabling it would drop its focus.
   */
  retryNow(): void {
    if (!this.offline || this.retryAt === 0) return;
    clearTimeout(this.timer);
    this.retryAt = 0;
    this.tick();
    this.retry();
  }

  /** Updates the countdown; called every second. Text only, outside any live region: not read out each second. */
  tick(): void {
    if (!this.offline) return;
    const seconds = Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000));
    const attempt = `attempt ${this.failures + 1}`;
    setText(
      byId('offline-countdown'),
      this.retryAt === 0 ? `Trying again now (${attempt})…` : `Retrying in ${seconds} s (${attempt}).`,
    );
  }

  /** Leaves the offline state without an answer (the key was forgotten). */
  stop(): void {
    this.failures = 0;
    this.retryAt = 0;
    clearTimeout(this.timer);
    byId('offline').hidden = true;
  }
}
