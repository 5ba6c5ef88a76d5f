// A node:test reporter that counts leaf tests and writes {passed, failed, failures} as JSON.
// scripts/test.mjs prints the final "N passed, N failed" line from it.
export default async function* summaryReporter(source) {
  let passed = 0;
  let failed = 0;
  const failures = [];
  for await (const event of source) {
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
  yield `${JSON.stringify({ passed, failed, failures })}\n`;
}
