/**
 * Waiting on a condition no event announces (a process's database, the API's view, a socket
 * count). Fails with `what` after the timeout, which only broken behaviour reaches: the default
 * is far above the slowest run seen on a loaded 2-core machine (issue 41), and the error says
 * what the probe saw last, so a failure on CI explains itself.
 */
export interface WaitOptions {
  /** Default 60 s. */
  timeoutMs?: number;
  /** What to report on a timeout, read then (the probe's last answer when absent). */
  seen?: () => unknown;
}

export const DEFAULT_WAIT_MS = 60_000;

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: number | WaitOptions = {},
): Promise<T> {
  const { timeoutMs = DEFAULT_WAIT_MS, seen } =
    typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const last = seen ? await seen() : value;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${describe(last)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value)?.slice(0, 2000) ?? String(value);
  } catch {
    return String(value);
  }
}
