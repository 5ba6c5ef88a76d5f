// Loaded into every test process (`--import`, by scripts/test.mjs) while better-sqlite3 is still
// compiling on a fresh clone: a test file that may open a database waits here until the runner
// says the binding is there. The others (the editor's tests that start no server) run meanwhile,
// on the core the compiler leaves idle (issue 41). Nothing waits once the binding exists.
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const marker = process.env.TEST_NATIVE_MARKER;
if (marker && process.env.NODE_TEST_CONTEXT && process.argv[1] && !existsSync(marker)) {
  const early = new Set(JSON.parse(readFileSync(process.env.TEST_EARLY_FILES, 'utf8')));
  if (!early.has(process.argv[1])) while (!existsSync(marker)) await sleep(100);
}
