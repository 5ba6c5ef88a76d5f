// test-backends: sqlite
/**
 * The build's copy of better-sqlite3's compiled binding (scripts/native-modules.mjs, issue 41):
 * a second clone on the same machine copies the binding from the per-user cache instead of
 * compiling SQLite for a minute; a cached file that does not load is thrown away and the package
 * compiled; `SERVICE_NATIVE_CACHE=off` compiles every time. The "compile" here is a stand-in
 * install script that copies the real binding and notes that it ran, so each case takes a
 * second, and the cache's own rules (its key, the load check) are what is tested.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './test-support/processes.js';

const realBinding = path.join(
  path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
  'build/Release/better_sqlite3.node',
);
const script = pathToFileURL(path.join(repoRoot, 'scripts/native-modules.mjs')).href;

/** A checkout whose better-sqlite3 has no binding yet, and whose lock names `integrity`. */
function checkout(scratch: string, integrity: string): string {
  const root = mkdtempSync(path.join(scratch, 'clone-'));
  const pkg = path.join(root, 'node_modules/better-sqlite3');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    path.join(pkg, 'compile.cjs'),
    `const fs = require('node:fs');
fs.mkdirSync('build/Release', { recursive: true });
fs.copyFileSync(${JSON.stringify(realBinding)}, 'build/Release/better_sqlite3.node');
fs.appendFileSync('compiled', 'x');
`,
  );
  writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: 'better-sqlite3', version: '0.0.0', scripts: { install: 'node compile.cjs' } }),
  );
  writeFileSync(
    path.join(root, 'package-lock.json'),
    JSON.stringify({ packages: { 'node_modules/better-sqlite3': { integrity } } }),
  );
  return root;
}

/** Runs the build's step for `root` as the build does; what it said and whether it "compiled". */
function ensure(root: string, cache: string): { said: string; compiled: boolean; loads: boolean } {
  const run = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { ensureNativeModules } = await import(${JSON.stringify(script)});
       await ensureNativeModules(${JSON.stringify(root)}, (line) => console.log(line), { jobs: 1 });`,
    ],
    { env: { ...process.env, SERVICE_NATIVE_CACHE: cache }, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  const binding = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  const load = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(binding)})`]);
  return {
    said: run.stdout,
    compiled: existsSync(path.join(root, 'node_modules/better-sqlite3/compiled')),
    loads: load.status === 0,
  };
}

test('a second clone copies the compiled binding from the cache; a broken copy is compiled again', (t) => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'native-cache-'));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  const cache = path.join(scratch, 'cache');
  const integrity = `sha512-${randomUUID()}`;

  const first = ensure(checkout(scratch, integrity), cache);
  assert.match(first.said, /compiling SQLite/);
  assert.ok(first.compiled && first.loads, 'the first clone compiles');
  const kept = readdirSync(cache);
  assert.equal(kept.length, 1, 'the binding is kept once');
  assert.match(
    kept[0]!,
    new RegExp(`^better-sqlite3-${process.version}-${process.platform}-${process.arch}-[0-9a-f]{16}\\.node$`),
  );

  const second = ensure(checkout(scratch, integrity), cache);
  assert.match(second.said, /better-sqlite3: copied from /);
  assert.ok(!second.compiled, 'the second clone does not compile');
  assert.ok(second.loads, 'the copied binding loads');

  // another version of the package (its integrity changes) is not served the old binding
  const upgraded = ensure(checkout(scratch, `sha512-${randomUUID()}`), cache);
  assert.ok(upgraded.compiled, 'a new package version compiles');
  assert.equal(readdirSync(cache).length, 2);

  // a cached file that does not load (truncated, say) is dropped, and the clone compiles
  const cachedFile = path.join(cache, kept[0]!);
  writeFileSync(cachedFile, 'not a shared object');
  const broken = ensure(checkout(scratch, integrity), cache);
  assert.ok(broken.compiled && broken.loads, 'a broken cached copy means a compile');
  assert.equal(statSync(cachedFile).size, statSync(realBinding).size, 'and the fresh binding is kept');

  const off = ensure(checkout(scratch, integrity), 'off');
  assert.ok(off.compiled, 'SERVICE_NATIVE_CACHE=off compiles');
});
