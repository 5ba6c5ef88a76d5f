/**
 * A module loaded on first use, once: the heavy dependencies of features a process may never
 * use (mail parsing, image decoding, PostgreSQL on SQLite, Redis without `REDIS_URL`) stay out of
 * start-up. Loading them all at once was 1.5 s of the 2.3 s of CPU a server took to start
 * (issue 41).
 *
 * @example
 * const mailparser = lazy(() => import('mailparser'));
 * const { simpleParser } = await mailparser();
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
