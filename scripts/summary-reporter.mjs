// A node:test reporter that counts leaf tests and each test file's wall time, and writes
// {passed, failed, failures, files} as JSON. scripts/test.mjs prints the final
// "N passed, N failed" line, the slowest files and each failure with its reason from it.

/** The last lines a file printed to stderr or as an error diagnostic, kept for its failure. */
const TAIL_LINES = 12;

/**
 * The test file's own name, as its source: a PostgreSQL wrapper (`a__b__c.test.ts.postgres.test.mjs`)
 * names the file it runs, and the tests' tree runs `c.test.js` compiled from `c.test.ts`.
 */
const testedFile = (file) =>
  file
    .split('/')
    .at(-1)
    .replace(/\.postgres\.test\.mjs$/, '')
    .split('__')
    .at(-1)
    .replace(/\.test\.js$/, '.test.ts');

export default async function* summaryReporter(source) {
  let passed = 0;
  let failed = 0;
  const failures = [];
  /**
   * Each file's wall time in its own process, ms (the runner's `test:complete` named after the
   * file), and when it started and ended, ms since the first file started.
   */
  const files = {};
  const started = {};
  let firstStart;
  /** Per file, the tail of what it printed: a file that fails outside its tests says why only there. */
  const printed = new Map();
  const unplaced = [];
  const keep = (file, text) => {
    if (!file) return;
    const lines = printed.get(file) ?? [];
    lines.push(...String(text).trimEnd().split('\n'));
    printed.set(file, lines.slice(-TAIL_LINES));
  };
  for await (const event of source) {
    const { data } = event;
    if (event.type === 'test:stderr') keep(data.file, data.message);
    // An error after a file's tests ("generated asynchronous activity after the test ended")
    // comes as a diagnostic without a file; it names the file by a relative path.
    if (event.type === 'test:diagnostic' && /^Error\b/.test(data.message)) unplaced.push(data.message);
    if (event.type === 'test:dequeue' && data.file && data.name === data.file) {
      firstStart ??= Date.now();
      started[data.file] = Date.now() - firstStart;
      continue;
    }
    if (event.type === 'test:complete' && data.file && data.name === data.file) {
      files[data.file] = {
        ms: data.details?.duration_ms ?? 0,
        startedMs: started[data.file] ?? 0,
        endedMs: Date.now() - (firstStart ?? Date.now()),
      };
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (data.details?.type === 'suite') continue;
    if (data.skip || data.todo) continue;
    if (event.type === 'test:pass') passed += 1;
    else {
      failed += 1;
      const error = data.details?.error;
      const reason = String(error?.cause?.message ?? error?.cause ?? error?.message ?? '').slice(0, 600);
      // A file that failed as a whole (exit code, uncaught error after its tests) has only
      // "test failed" as its reason; what it printed last is the real one.
      const tail =
        data.name === data.file
          ? [
              ...unplaced.filter((m) => m.includes(`/${testedFile(data.file)}:`)),
              ...(printed.get(data.file) ?? []),
            ]
          : [];
      failures.push({ name: `${data.file ?? ''} › ${data.name}`, reason, tail });
    }
  }
  yield `${JSON.stringify({ passed, failed, failures, files })}\n`;
}
