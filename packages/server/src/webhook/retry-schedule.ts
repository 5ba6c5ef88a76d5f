/**
 * When a failed delivery is tried again: exponential back-off with jitter (half the delay
 * fixed, half random, so endpoints coming back up are not hit by every sender at once),
 * until the retry window ends; then the delivery has failed. Pure: time and randomness are
 * passed in.
 */
export interface RetryPolicy {
  /** Delay after the first failure; doubled after each. */
  baseMs: number;
  /** The longest delay between two attempts. */
  maxDelayMs: number;
  /** How long after its creation a delivery is still retried (3 days by default). */
  retryForMs: number;
}

/**
 * The time of the next attempt after `attempts` failed ones (1 = the first failed), or
 * `null` when the retry window of a delivery created at `createdAt` has ended.
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  attempts: number,
  createdAt: number,
  now: number,
  random: () => number = Math.random,
): number | null {
  if (now - createdAt >= policy.retryForMs) return null;
  // 2^30 already exceeds any sensible maximum; the cap keeps the power finite.
  const delay = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.min(attempts - 1, 30));
  const at = now + Math.round(delay / 2 + (random() * delay) / 2);
  // The last attempt lands at the end of the window rather than past it.
  return Math.min(at, createdAt + policy.retryForMs);
}
