/**
 * What every sendctl command gets and gives back: the terminal it writes to, its exit codes, and
 * the usage error that makes it print the help. Shared by the `domains` and `webhooks` commands.
 */

/**
 * 0 success; 1 the request failed (network, auth — 401 or 403 —, rate limit…); 2 usage error;
 * 3 `domains wait` timed out; 4 some items failed (invalid or unknown domains, a refused webhook
 * URL, an unknown webhook or delivery id); 130 `domains wait` interrupted by Ctrl-C.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, timeout: 3, itemsFailed: 4, interrupted: 130 } as const;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** A terminal: progress is redrawn in place every second; otherwise printed when it changes. */
  isTty: boolean;
  env: Record<string, string | undefined>;
  /** The terminal's width, when `isTty`. */
  columns?: number;
  /** Calls `handler` on Ctrl-C (SIGINT) instead of exiting; returns a function that stops that. */
  onInterrupt?(handler: () => void): () => void;
}

/** A mistake in the command line: sendctl prints it with the help and exits 2, before any request. */
export class UsageError extends Error {}
