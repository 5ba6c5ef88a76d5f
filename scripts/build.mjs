#!/usr/bin/env node
// `npm run build` (and the first half of `npm start`): builds each package whose inputs changed
// since its last build, in dependency order, saying what it builds and how long it took. A
// package's inputs are its own sources and build files, the folders it follows (the client's
// types come from the server's schemas) and the inputs of the packages it bundles (the server's
// pages bundle the editor and the client), so an unchanged checkout starts in seconds instead of
// rebuilding everything. `--force` rebuilds all.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNativeModules } from './native-modules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * In build order: each package's folder, the other folders it follows, the packages it bundles,
 * and its build's steps, each with the packages it waits for. The server's JavaScript needs only
 * the editor's types, so it compiles while the client builds (two cores, issue 41); its pages
 * bundle the client, so they wait for it.
 */
const PACKAGES = [
  {
    name: '@service/email-builder',
    dir: 'packages/email-builder',
    follows: [],
    bundles: [],
    steps: [{ script: 'build', after: [] }],
  },
  // the client's types come from the server's OpenAPI document, made by the server's code (which
  // imports the editor's renderer)
  {
    name: '@service/client',
    dir: 'packages/client',
    follows: ['packages/server/src'],
    bundles: ['@service/email-builder'],
    steps: [{ script: 'build', after: ['@service/email-builder'] }],
  },
  {
    name: '@service/server',
    dir: 'packages/server',
    follows: [],
    bundles: ['@service/client', '@service/email-builder'],
    steps: [
      { script: 'build:node', after: ['@service/email-builder'] },
      { script: 'build:web', after: ['@service/client'] },
      { script: 'build:native', after: [] },
    ],
  },
];
/** Not inputs: what builds write, what tests and benches use, and the data. */
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'generated',
  'test',
  'test-results',
  'bench',
  '.bench',
  'data',
]);
const SKIP_FILES = /\.test\.ts$|^openapi\.json$/;
/**
 * Where each package's last built inputs are noted: outside its dist/, which the package's own
 * build empties first (so `npm pack`, which builds through `prepack`, left no note and the next
 * start rebuilt everything as a "first build"). A dist/ that is gone is rebuilt whatever the note.
 */
const STAMPS = path.join(root, 'node_modules/.cache/service-build');

/** Every input file under `dir`, sorted. */
function inputFiles(dir) {
  const out = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path.join(current, entry.name));
      } else if (!SKIP_FILES.test(entry.name)) out.push(path.join(current, entry.name));
    }
  };
  walk(path.join(root, dir));
  return out.sort();
}

/** A digest of the files' names and contents, and of `upstream` (the inputs of the packages bundled). */
function digest(dirs, upstream) {
  const hash = createHash('sha256').update(upstream);
  for (const file of [...dirs.flatMap(inputFiles), path.join(root, 'package-lock.json')]) {
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const say = (text) => process.stderr.write(`${text}\n`);
// Compiles beside the TypeScript builds below.
// `npm test` compiles it itself (SERVICE_NATIVE_BUILD=test-runner) and starts the tests that do
// not need it while it compiles; the build then does not wait for it.
const nativeReady =
  process.env.SERVICE_NATIVE_BUILD === 'test-runner' ? Promise.resolve() : ensureNativeModules(root, say);
/** Runs `npm run <script> -w <name>`; resolves when it succeeded, or exits with its status. */
function runScript(name, script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '-w', name], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => {
      if (code === 0) return resolve();
      say(`${name}: build failed`);
      process.exit(code ?? 1);
    });
  });
}

/** Each package's finished build (or at once when it is up to date), by name. */
const finished = new Map();
const digests = new Map();
for (const pkg of PACKAGES) {
  const inputs = digest([pkg.dir, ...pkg.follows], pkg.bundles.map((name) => digests.get(name)).join());
  digests.set(pkg.name, inputs);
  const stamp = path.join(STAMPS, `${pkg.name.replace('/', '+')}.inputs`);
  const dist = path.join(root, pkg.dir, 'dist');
  const built =
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === inputs &&
    existsSync(dist) &&
    readdirSync(dist).length > 0;
  if (built && !force) {
    say(`${pkg.name}: up to date`);
    finished.set(pkg.name, Promise.resolve());
    continue;
  }
  const why = force
    ? ''
    : !existsSync(stamp)
      ? ' (first build)'
      : readFileSync(stamp, 'utf8') === inputs
        ? ' (its dist/ is missing)'
        : ' (its sources changed)';
  const build = (async () => {
    let started;
    // one step after the other, each once the packages it needs are built
    for (const { script, after } of pkg.steps) {
      await Promise.all(after.map((name) => finished.get(name)));
      if (started === undefined) {
        say(`${pkg.name}: building${why}…`);
        started = Date.now();
      }
      await runScript(pkg.name, script);
    }
    mkdirSync(STAMPS, { recursive: true });
    writeFileSync(stamp, inputs);
    say(`${pkg.name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  })();
  finished.set(pkg.name, build);
}
await Promise.all(finished.values());
try {
  await nativeReady;
} catch (error) {
  say(error.message);
  process.exit(1);
}
