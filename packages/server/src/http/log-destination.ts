/**
 * Where the service's log lines go: stdout, written in batches.
 *
 * Each write pino hands to the thread pool costs the event loop a hand-off and a wake-up when
 * it completes; written one line at a time, that was a third of a status poll's CPU at 2,000
 * polls a second (185 µs a poll against 120 µs without the line). Lines are now kept until
 * 32 KB have gathered or 200 ms have passed, then written together, so a busy server writes
 * once per ~130 lines, and an idle one shows its lines within 200 ms. Lines still kept when
 * the process exits are written then; a SIGKILL loses at most the last 200 ms. (With 4 KB,
 * a write per ~16 lines, the hand-offs still cost 5–9 % of the polls a process on one core
 * answered at saturation.)
 *
 * The lines are gathered here, in an array, and handed to pino's destination (sonic-boom, which
 * writes them, retries a busy pipe and stops quietly on a closed one) a batch at a time. Handed
 * over line by line, sonic-boom measured the bytes of everything it held at each line, which
 * cost a status poll 1.5 µs of its ~40 (`BENCH_ONLY=api npm run bench -- server`).
 */
import pino from 'pino';

/** Characters gathered before a write (the lines are ASCII JSON, so about bytes). */
const BATCH_CHARS = 32768;
/** Longest a line waits. */
const FLUSH_MS = 200;

export interface BatchedDestination extends pino.DestinationStream {
  /** Writes every kept line before returning (at exit, and before the "stopped" line). */
  flushSync(): void;
}

export function batchedStdout(): BatchedDestination {
  // Below `minLength` sonic-boom holds what it is handed until `flush`: so a short batch handed
  // over by the timer or at exit is written by `flush`/`flushSync`, in order.
  // sonic-boom refuses a `minLength` above its largest write (16 KB unless told).
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: BATCH_CHARS,
    maxWrite: 4 * BATCH_CHARS,
  });
  let kept: string[] = [];
  let keptChars = 0;
  // Bytes handed over and not yet written: the timer flushes only when there are some.
  let unwritten = 0;
  destination.on('write', (bytes: number) => {
    unwritten = Math.max(0, unwritten - bytes);
  });
  const handOver = (): void => {
    if (kept.length === 0) return;
    const batch = kept.length === 1 ? kept[0]! : kept.join('');
    kept = [];
    keptChars = 0;
    unwritten += Buffer.byteLength(batch);
    destination.write(batch);
  };
  const timer = setInterval(() => {
    handOver();
    // while a write is under way this does nothing; the next tick writes what is left
    if (unwritten > 0) destination.flush();
  }, FLUSH_MS);
  timer.unref();
  const flushSync = (): void => {
    handOver();
    try {
      destination.flushSync();
    } catch {
      // a destination not open yet, or already closed: what it holds is written at its exit
    }
  };
  process.once('exit', flushSync);
  destination.on('close', () => {
    clearInterval(timer);
    process.removeListener('exit', flushSync);
  });
  return {
    write(line: string): void {
      kept.push(line);
      keptChars += line.length;
      if (keptChars >= BATCH_CHARS) handOver();
    },
    flushSync,
  };
}

/**
 * Writes what `logger`'s batch still holds, now: before a line that must come after it on the
 * terminal ("stopped"). Loggers not made on {@link batchedStdout} are left as they are.
 */
export function flushLogsNow(logger: object): void {
  const stream = (logger as Record<symbol, unknown>)[pino.symbols.streamSym] as { flushSync?: () => void };
  try {
    stream?.flushSync?.();
  } catch {
    // another logger's stream that cannot be flushed now (closed, not open yet) is flushed at exit
  }
}
