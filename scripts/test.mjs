#!/usr/bin/env node
// `npm test`: install what the tests need, build, run every test file with node:test,
// and end with the line "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureNativeModules } from './native-modules.mjs';
import { ensureSystemPackages } from './system-deps.mjs';
import { testKeysFile } from './test-keys.mjs';
import { buildTestTree } from './test-tree.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const startedAt = Date.now();

const only = process.argv.slice(2);

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

function findTests(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) findTests(full, out);
    else if (entry.endsWith('.test.ts')) out.push(path.relative(root, full));
  }
  return out;
}

/** A fresh directory on /dev/shm when that is a writable tmpfs; undefined elsewhere. */
function memoryScratch() {
  try {
    const mounts = readFileSync('/proc/mounts', 'utf8').split('\n');
    if (!mounts.some((line) => /^\S+ \/dev\/shm tmpfs /.test(line))) return undefined;
    const dir = mkdtempSync('/dev/shm/service-test-');
    // as /tmp is: Postfix's and PostgreSQL's own users reach their directories inside
    chmodSync(dir, 0o1777);
    return dir;
  } catch {
    return undefined;
  }
}

let testKeys;
try {
  ensureSystemPackages();
  // shared by every test process's servers (issue 41; scripts/test-keys.mjs says why checked in)
  testKeys = testKeysFile();
} catch (error) {
  console.error(error.message);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// better-sqlite3 compiles (on a fresh clone: a minute, mostly one compiler on one core) beside
// the builds and then beside the tests that need no database; see scripts/native-gate.mjs.
// One compiler at a time, ahead of the tests beside it: SQLite's single big file is most of the
// minute either way, and a compile slowed by the tests beside it held every other test back
// (110 s instead of 60 on a fresh clone).
const nativeReady = ensureNativeModules(root, (text) => console.error(text), { jobs: 1, priority: -10 });
let nativeDone = false;
nativeReady.then(
  () => (nativeDone = true),
  () => {},
);
run('npm', ['run', '--silent', 'build'], { SERVICE_NATIVE_BUILD: 'test-runner' });
// Every temporary file of the run in memory where the machine has a tmpfs (issue 41): the
// test servers' SQLite databases commit with an fsync each (synchronous=FULL, as in
// production), 3.3 ms each on this machine's disk against 0.02 ms on tmpfs, and two test files
// alone made 2,414 of them, each stopping its process's event loop. The tests' PostgreSQL runs
// with fsync off already. Nothing here is about surviving a power cut: the crash tests kill
// processes, whose writes the kernel keeps either way.
const scratch = memoryScratch();
if (scratch !== undefined) {
  process.env.TMPDIR = scratch;
  process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
}
// The test processes run compiled JavaScript (scripts/test-tree.mjs says why), from this tree.
const tree = await buildTestTree(root, mkdtempSync(path.join(tmpdir(), 'test-tree-')));
const inTree = (file) => path.join(tree, file.replace(/\.ts$/, '.js'));

let files = readdirSync('packages').flatMap((p) => findTests(path.join(root, 'packages', p)));
if (only.length > 0) files = files.filter((f) => only.some((o) => f.includes(o)));
files.sort();

// Server tests that go through the database run a second time on PostgreSQL (one cluster for
// the run, below, or TEST_DATABASE_URL): the same suite on both backends. (`startKeyZone`
// starts a test server.) A file whose subject does not depend on the database (pages in
// Chromium, HTTP-level limits, configuration) says so in a first line
// `// test-backends: sqlite`, and runs once.
const usesDatabase = (file) => {
  if (!file.startsWith('packages/server/')) return false;
  const text = readFileSync(file, 'utf8');
  return (
    !text.startsWith('// test-backends: sqlite') &&
    /startTestServer\(|testDatabaseUrl\(|startKeyZone\(/.test(text)
  );
};
const backends = (process.env.TEST_BACKENDS ?? 'sqlite,postgres').split(',');

// Both backends' runs share one pool of test processes, so short files fill the gaps beside
// long ones. A PostgreSQL run is a small wrapper that sets TEST_BACKEND before importing the
// file (it is read when test-server.ts loads).
//
// node:test names each test by the file its `test()` call is in, which is the same file for
// both runs, so a failing PostgreSQL subtest read as `[sqlite]`. The wrapper therefore imports
// the file under another path, through `<wrappers>/root`, a link to the test tree: a resolve
// hook keeps that one URL as it is (Node would follow the link) and the file's own imports
// resolve as usual. Its tests' file names start with that link, and say PostgreSQL.
const wrappers = mkdtempSync(path.join(tmpdir(), 'test-postgres-'));
const linkedRoot = path.join(wrappers, 'root');
symlinkSync(tree, linkedRoot, 'dir');
const keepLinkHook = path.join(wrappers, 'keep-link.mjs');
writeFileSync(
  keepLinkHook,
  `let link, real;
export function initialize(data) { ({ link, real } = data); }
export async function resolve(specifier, context, next) {
  if (specifier !== link) return next(specifier, context);
  return { ...(await next(real, context)), url: link };
}
`,
);
const runs = [];
for (const file of files) {
  if (backends.includes('sqlite')) runs.push({ file, path: inTree(file), backend: 'sqlite' });
  if (backends.includes('postgres') && usesDatabase(file)) {
    const wrapper = path.join(wrappers, `${file.replace(/[\\/]/g, '__')}.postgres.test.mjs`);
    const link = pathToFileURL(path.join(linkedRoot, path.relative(tree, inTree(file)))).href;
    const real = pathToFileURL(inTree(file)).href;
    writeFileSync(
      wrapper,
      `import { register } from 'node:module';
process.env.TEST_BACKEND = 'postgres';
register(${JSON.stringify(pathToFileURL(keepLinkHook).href)}, { data: { link: ${JSON.stringify(link)}, real: ${JSON.stringify(real)} } });
await import(${JSON.stringify(link)});
`,
    );
    runs.push({ file, path: wrapper, backend: 'postgres' });
  }
}
// Longest first (the classic rule for packing jobs onto few workers; a long file started last
// is a tail with one core idle). Each file's seconds come from scripts/test-times.json, written
// by a whole run with TEST_SAVE_TIMES=1; a file not in it yet is guessed from its kind.
const TIMES_FILE = path.join(root, 'scripts/test-times.json');
const knownSeconds = (() => {
  try {
    return JSON.parse(readFileSync(TIMES_FILE, 'utf8'));
  } catch {
    return {};
  }
})();
const runKey = (run) => `${run.file} [${run.backend}]`;
const guessedSeconds = (run) =>
  /\/reliability\//.test(run.file)
    ? 60
    : /\.(e2e|browser)\.test\.ts$|\/web\/|\/cli\/|process|tarball/.test(run.file)
      ? 25
      : 8;
const seconds = (run) => knownSeconds[runKey(run)] ?? guessedSeconds(run);
// While better-sqlite3 still compiles, the editor's tests that start no server go first: they run
// on the core the compiler leaves idle, and every other file waits for the binding
// (scripts/native-gate.mjs). Their own text says whether they start one.
const startsNoServer = (file) =>
  file.startsWith('packages/email-builder/test/') &&
  !/api-server|startTestServer|server\//.test(readFileSync(file, 'utf8'));
const early = nativeDone ? [] : runs.filter((r) => startsNoServer(r.file));
const waits = (run) => (early.includes(run) ? 0 : 1);
runs.sort((a, b) => waits(a) - waits(b) || seconds(b) - seconds(a) || a.file.localeCompare(b.file));

// Five at a time on two cores (issue 41): the files wait on timers, browsers and other
// processes, so fewer left the cores idle: at three they used about 76 % of the cores' time. On
// fresh clones: files 594 s at 3, 529–567 s at 4, 504 s at 5, every test passing each time.
// At 6 they cost more CPU than they saved in waits (549 s at 5 against 573 s at 6, same code).
const concurrency = process.env.TEST_CONCURRENCY ?? '5';
const onPostgres = runs.filter((r) => r.backend === 'postgres').length;
console.log(
  `\n=== ${runs.length} test files: ${runs.length - onPostgres} on SQLite, ${onPostgres} on PostgreSQL ===`,
);
// One PostgreSQL cluster for the whole run (issue 41): each test process started its own (initdb
// and start-up, about 3 s of the two cores each, 40 times). Every test server and test still
// gets a database of its own in it; TEST_DATABASE_URL set by the caller wins.
let sharedPostgres;
if (
  (onPostgres > 0 || files.some((f) => /startPostgres\(/.test(readFileSync(f, 'utf8')))) &&
  !process.env.TEST_DATABASE_URL
) {
  const { tsImport } = await import('tsx/esm/api');
  const { startPostgres } = await tsImport(
    '../packages/server/src/test-support/postgres.ts',
    import.meta.url,
  );
  try {
    sharedPostgres = await startPostgres({ maxConnections: 1000 });
  } catch (error) {
    console.error(`the tests' PostgreSQL cluster did not start: ${error.message}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}
// The loopback addresses test servers claim (BIND on port 53, Postfix on 25), on `lo` from before
// the first test file to after the last: Chromium aborts the requests it has in flight whenever
// the machine's addresses change, and an address added beside a browser test cost that test a
// script now and then (packages/server/src/test-support/loopback.ts).
{
  const { tsImport } = await import('tsx/esm/api');
  const { holdLoopbackPool } = await tsImport(
    '../packages/server/src/test-support/loopback.ts',
    import.meta.url,
  );
  process.on('exit', holdLoopbackPool());
}
const summaryFile = path.join(mkdtempSync(path.join(tmpdir(), 'test-summary-')), 'summary.json');
const cpuDir = mkdtempSync(path.join(tmpdir(), 'test-cpu-'));
const manifest = path.join(path.dirname(summaryFile), 'files.json');
writeFileSync(
  manifest,
  JSON.stringify({
    files: runs.map((r) => path.resolve(r.path)),
    concurrency: Number(concurrency),
    summaryFile,
  }),
);
// The binding's arrival, told to the test processes waiting for it (scripts/native-gate.mjs).
const nativeMarker = path.join(wrappers, 'native-ready');
let nativeError;
const earlyFiles = path.join(wrappers, 'early-files.json');
writeFileSync(earlyFiles, JSON.stringify(early.map((r) => path.resolve(r.path))));
const runner = spawn(
  process.execPath,
  [
    // stack traces at the TypeScript lines (the tree's files carry inline source maps)
    '--enable-source-maps',
    '--import',
    pathToFileURL(path.join(root, 'scripts/cpu-probe.mjs')).href,
    '--import',
    pathToFileURL(path.join(root, 'scripts/native-gate.mjs')).href,
    path.join(root, 'scripts/run-test-files.mjs'),
    manifest,
  ],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      TEST_BACKEND: 'sqlite',
      TEST_DKIM_KEYS: testKeys,
      TEST_CPU_DIR: cpuDir,
      TEST_NATIVE_MARKER: nativeMarker,
      TEST_EARLY_FILES: earlyFiles,
      ...(sharedPostgres && { TEST_DATABASE_URL: sharedPostgres.url }),
    },
  },
);
const result = await new Promise((resolve) => {
  nativeReady.then(
    () => writeFileSync(nativeMarker, ''),
    (error) => {
      // nothing that needs the database can run: stop, and say why with the failures
      nativeError = error;
      runner.kill('SIGTERM');
    },
  );
  runner.on('exit', (status) => resolve({ status }));
});
await sharedPostgres?.stop();
rmSync(tree, { recursive: true, force: true });
let summary = { passed: 0, failed: 1, failures: [{ name: 'the test runner did not report' }] };
try {
  summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
} catch {}
if (result.status !== 0 && summary.failed === 0)
  summary = { ...summary, failed: 1, failures: [{ name: `the runner exited ${result.status}` }] };
// A PostgreSQL run's file-level results name the wrapper, and its tests the file under the
// linked root; name the test file and the backend instead.
const named = (f) => {
  const wrapped = /test-postgres-[^/]+\/(.+?)\.postgres\.test\.mjs/.exec(f);
  if (wrapped)
    return `[postgres] ${f.replace(/\S*test-postgres-\S+\.postgres\.test\.mjs/, wrapped[1].replace(/__/g, '/'))}`;
  // the tree's compiled file, named by its source
  const source = (inside) => inside.replace(/\.test\.js\b/, '.test.ts');
  if (f.startsWith(`${linkedRoot}/`)) return `[postgres] ${source(f.slice(linkedRoot.length + 1))}`;
  if (f.startsWith(`${tree}/`)) return `[sqlite] ${source(f.slice(tree.length + 1))}`;
  return `[sqlite] ${f.startsWith(root) ? path.relative(root, f) : f}`;
};
summary.failures = summary.failures.map((f) => ({ ...f, name: named(f.name) }));
if (nativeError)
  summary = {
    ...summary,
    failed: summary.failed + 1,
    failures: [...summary.failures, { name: 'better-sqlite3 did not compile', reason: nativeError.message }],
  };
// So that the next slow test is seen the day it is added (issue 41).
const inSeconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const fileTimes = Object.entries(summary.files ?? {});
if (fileTimes.length > 0) {
  console.log('\nslowest test files (wall time in their own process, and when it started):');
  for (const [file, { ms, startedMs }] of fileTimes.sort(([, a], [, b]) => b.ms - a.ms).slice(0, 10))
    console.log(`  ${inSeconds(ms).padStart(8)}  ${named(file)}  (at ${inSeconds(startedMs)})`);
  // The tail: from the moment the last file started, fewer files run than there are slots.
  const lastStart = Math.max(...fileTimes.map(([, t]) => t.startedMs));
  const end = Math.max(...fileTimes.map(([, t]) => t.endedMs));
  console.log(
    `\ntest files ran for ${inSeconds(end)}; the last one started at ${inSeconds(lastStart)}, so ${inSeconds(end - lastStart)} ran with slots free`,
  );
}
if (process.env.TEST_SAVE_TIMES === '1' && only.length === 0 && summary.failed === 0) {
  const byKey = Object.fromEntries(
    fileTimes
      .map(([file, { ms }]) => {
        const label = named(file);
        const backend = label.startsWith('[postgres]') ? 'postgres' : 'sqlite';
        return [`${label.replace(/^\[\w+\] /, '')} [${backend}]`, Math.round(ms / 1000)];
      })
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(TIMES_FILE, `${JSON.stringify(byKey, null, 2)}\n`);
  console.log(`\neach file's time written to ${path.relative(root, TIMES_FILE)} (orders the next runs)`);
}
// CPU, not wall time, is what the run is made of on two cores: the files costing most of it.
// The share of the cores' time the files used (the shared PostgreSQL cluster's own CPU is not
// counted): well under 100 % means slots waited on timers, not on the processor.
const busyShare = (cpuMs) => {
  const span = Math.max(0, ...fileTimes.map(([, t]) => t.endedMs));
  return span > 0
    ? `${Math.round((100 * cpuMs) / (span * availableParallelism()))} % of ${availableParallelism()} cores`
    : '';
};
const cpu = readdirSync(cpuDir).map((f) => JSON.parse(readFileSync(path.join(cpuDir, f), 'utf8')));
if (cpu.length > 0) {
  const cpuTotal = cpu.reduce((sum, c) => sum + c.cpuMs, 0);
  console.log(
    `\nmost CPU (the file's process and the children it waited for; ${inSeconds(cpuTotal)} in all, ${busyShare(cpuTotal)}):`,
  );
  for (const { file, cpuMs } of cpu.sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 10))
    console.log(`  ${inSeconds(cpuMs).padStart(8)}  ${named(file)}`);
}
// Every file's wall time, start and CPU, for a closer look than the two lists above.
const report = path.join(root, 'node_modules/.cache/service-test/last-run.json');
mkdirSync(path.dirname(report), { recursive: true });
const cpuOf = new Map(cpu.map((c) => [named(c.file), c.cpuMs]));
writeFileSync(
  report,
  `${JSON.stringify(
    Object.fromEntries(
      fileTimes.map(([file, t]) => [
        named(file),
        { ms: t.ms, startedMs: t.startedMs, cpuMs: cpuOf.get(named(file)) },
      ]),
    ),
    null,
    1,
  )}\n`,
);
console.log(`\nevery file's wall time and CPU: ${path.relative(root, report)}`);
const total = Math.round((Date.now() - startedAt) / 1000);
console.log(
  `\nnpm test took ${Math.floor(total / 60)} min ${total % 60} s (${runs.length} test files, ${concurrency} at a time)`,
);
if (summary.failures.length > 0) {
  console.log('\nfailed:');
  // Each with its reason, last before the count: a CI log cut to its end still says why.
  for (const { name, reason, tail = [] } of summary.failures) {
    console.log(`  ${name}`);
    for (const line of [reason, ...tail].filter(Boolean).flatMap((r) => r.split('\n')))
      console.log(`      ${line}`);
  }
}
console.log(`${summary.passed} passed, ${summary.failed} failed`);
process.exit(summary.failed === 0 ? 0 : 1);
