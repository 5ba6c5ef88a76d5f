/**
 * What every sendctl command gets and gives back: the terminal it writes to, its exit codes, the
 * usage error that makes it print the help, and the checks and refusals the commands share.
 * Shared by the `domains`, `webhooks`, `emails` and `suppressions` commands.
 */
import { ServiceApiError } from '../errors.js';

/**
 * 0 success; 1 the request failed (network, auth — 401 or 403 —, rate limit…); 2 usage error;
 * 3 `domains wait` timed out; 4 some items failed (invalid or unknown domains, a refused webhook
 * URL, an unknown webhook or delivery id, a message refused as given, an unknown email id or
 * suppressed address); 130 `domains wait` interrupted by Ctrl-C.
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

/**
 * `args`, once there are as many as `names` says (the names explain the mistake otherwise).
 * `command` is the whole command, e.g. `webhooks add`.
 */
export function exactly<const Names extends readonly string[]>(
  args: string[],
  names: Names,
  command: string,
): { [K in keyof Names]: string } {
  if (args.length !== names.length) {
    throw new UsageError(
      names.length === 0 ? `${command} takes no arguments` : `${command} needs ${names.join(' ')}`,
    );
  }
  return args as { [K in keyof Names]: string };
}

/**
 * Runs `request`: 0 when it succeeds; 4 with `subject: message (CODE)` on stderr when the API
 * refuses it with one of `itemCodes` (a refusal of the thing named, not of the request). Any other
 * failure (key refused, rate limit, network) is thrown: 1.
 */
export async function itemRequest(
  itemCodes: ReadonlySet<string>,
  subject: string,
  io: Io,
  request: () => Promise<void>,
): Promise<number> {
  try {
    await request();
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ServiceApiError && itemCodes.has(error.code))) throw error;
    io.err(`${subject}: ${error.message} (${error.code})`);
    return EXIT.itemsFailed;
  }
}
