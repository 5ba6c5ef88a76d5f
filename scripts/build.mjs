#!/usr/bin/env node
// `npm run build` (and the first half of `npm start`): builds each package whose inputs changed
// since its last build, in dependency order, saying what it builds and how long it took. A
// package's inputs are its own sources and build files, the folders it follows (the client's
// types come from the server's schemas) and the inputs of the packages it bundles (the server's
// pages bundle the editor and the client), so an unchanged checkout starts in seconds instead of
// rebuilding everything. `--force` rebuilds all.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNativeModules } from './native-modules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** In build order: each package's folder, the other folders it follows, and the packages it bundles. */
const PACKAGES = [
  { name: '@service/email-builder', dir: 'packages/email-builder', follows: [], bundles: [] },
  // the client's types come from the server's OpenAPI document, made by the server's code (which
  // imports the editor's renderer)
  {
    name: '@service/client',
    dir: 'packages/client',
    follows: ['packages/server/src'],
    bundles: ['@service/email-builder'],
  },
  {
    name: '@service/server',
    dir: 'packages/server',
    follows: [],
    bundles: ['@service/client', '@service/email-builder'],
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
// Compiles beside the TypeScript builds below (their spawnSync blocks this process, not it).
const nativeReady = ensureNativeModules(root, say);
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
    continue;
  }
  say(
    `${pkg.name}: building${force ? '' : !existsSync(stamp) ? ' (first build)' : readFileSync(stamp, 'utf8') === inputs ? ' (its dist/ is missing)' : ' (its sources changed)'}…`,
  );
  const started = Date.now();
  const result = spawnSync('npm', ['run', '--silent', 'build', '-w', pkg.name], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    say(`${pkg.name}: build failed`);
    process.exit(result.status ?? 1);
  }
  mkdirSync(STAMPS, { recursive: true });
  writeFileSync(stamp, inputs);
  say(`${pkg.name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
try {
  await nativeReady;
} catch (error) {
  say(error.message);
  process.exit(1);
}
