// A node:test reporter that counts leaf tests and each test file's wall time, and writes
// {passed, failed, failures, files} as JSON. scripts/test.mjs prints the final
// "N passed, N failed" line and the slowest files from it.
export default async function* summaryReporter(source) {
  let passed = 0;
  let failed = 0;
  const failures = [];
  /** Each file's wall time in its own process, ms: the runner's `test:complete` named after the file. */
  const files = {};
  for await (const event of source) {
    if (event.type === 'test:complete' && event.data.file && event.data.name === event.data.file) {
      files[event.data.file] = event.data.details?.duration_ms ?? 0;
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite') continue;
    if (data.skip || data.todo) continue;
    if (event.type === 'test:pass') passed += 1;
    else {
      failed += 1;
      failures.push(`${data.file ?? ''} › ${data.name}`);
    }
  }
  yield `${JSON.stringify({ passed, failed, failures, files })}\n`;
}
