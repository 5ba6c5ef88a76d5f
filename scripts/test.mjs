#!/usr/bin/env node
// `npm test`: install what the tests need, build, run every test file with node:test,
// and end with the line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemPackages } from './system-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const only = process.argv.slice(2);

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
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

try {
  ensureSystemPackages();
} catch (error) {
  console.error(error.message);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
run('npm', ['run', '--silent', 'build']);

let files = readdirSync('packages').flatMap((p) => findTests(path.join(root, 'packages', p)));
if (only.length > 0) files = files.filter((f) => only.some((o) => f.includes(o)));
files.sort();

// Server tests that go through the database run a second time on PostgreSQL (a private
// cluster per test process, or TEST_DATABASE_URL): the same suite on both backends.
const usesDatabase = (file) =>
  file.startsWith('packages/server/') &&
  /startTestServer\(|testDatabaseUrl\(/.test(readFileSync(file, 'utf8'));
const passes = [
  { label: 'all tests (SQLite)', env: { TEST_BACKEND: 'sqlite' }, files },
  {
    label: 'database tests on PostgreSQL',
    env: { TEST_BACKEND: 'postgres' },
    files: files.filter(usesDatabase),
  },
].filter(
  (pass) =>
    pass.files.length > 0 && (process.env.TEST_BACKENDS ?? 'sqlite,postgres').includes(pass.env.TEST_BACKEND),
);

const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const summary = { passed: 0, failed: 0, failures: [] };
for (const pass of passes) {
  console.log(`\n=== ${pass.label}: ${pass.files.length} files ===`);
  const summaryFile = path.join(mkdtempSync(path.join(tmpdir(), 'test-summary-')), 'summary.json');
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-timeout=600000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/summary-reporter.mjs',
      `--test-reporter-destination=${summaryFile}`,
      ...pass.files,
    ],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', ...pass.env } },
  );
  let part = { passed: 0, failed: 1, failures: ['the test runner did not report'] };
  try {
    part = JSON.parse(readFileSync(summaryFile, 'utf8'));
  } catch {}
  if (result.status !== 0 && part.failed === 0)
    part = { ...part, failed: 1, failures: [`${pass.label}: the runner exited ${result.status}`] };
  summary.passed += part.passed;
  summary.failed += part.failed;
  summary.failures.push(...part.failures.map((f) => `[${pass.env.TEST_BACKEND}] ${f}`));
}
if (summary.failures.length > 0) {
  console.log('\nfailed:');
  for (const f of summary.failures) console.log(`  ${f}`);
}
console.log(`${summary.passed} passed, ${summary.failed} failed`);
process.exit(summary.failed === 0 ? 0 : 1);
