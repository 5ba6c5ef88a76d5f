/**
 * Cleanup that must run even when a test process dies: private BIND and PostgreSQL servers
 * register here so that no orphan survives a crashed or interrupted test run.
 */
const GUARD = Symbol.for('@service/server/test-support/exit-guard');

/**
 * Run `cleanup` synchronously if the process exits (normally, by an uncaught error, or by
 * SIGINT/SIGTERM/SIGHUP) before the returned function unregisters it. One set of handlers is
 * shared (through a global symbol) by every test-support module, so a signal is re-raised once
 * all of them have cleaned up and the process still dies of it.
 */
export function guardOnExit(cleanup: () => void): () => void {
  const registry = globalThis as { [GUARD]?: Set<() => void> };
  let cleanups = registry[GUARD];
  if (!cleanups) {
    const all = new Set<() => void>();
    cleanups = registry[GUARD] = all;
    const runAll = () => {
      for (const fn of all) {
        all.delete(fn);
        try {
          fn();
        } catch {}
      }
    };
    process.on('exit', runAll);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const onSignal = () => {
        runAll();
        if (process.listenerCount(signal) === 1) {
          process.removeListener(signal, onSignal);
          process.kill(process.pid, signal);
        }
      };
      process.on(signal, onSignal);
    }
  }
  const set = cleanups;
  set.add(cleanup);
  return () => set.delete(cleanup);
}
