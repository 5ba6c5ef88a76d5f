// The one native module, better-sqlite3, compiled by the build rather than by `npm ci` (issue 41).
//
// It has no prebuilt binary reachable here, so compiling SQLite from source takes about a minute
// of one core. Run by `npm ci` (its install script), that minute came after npm unpacked every
// package, with the other core idle, and before anything else could start. package.json's
// `allowScripts` therefore turns its install script off (npm 11 and later), and `npm run build`
// (which `npm start` and `npm test` run first) runs that same script here, beside the TypeScript
// builds, with make running two compilers at once. `npm ci --ignore-scripts` (a common
// supply-chain precaution) and older npm (which ignores `allowScripts` and compiles during the
// install) end the same way: when the binding is there, nothing happens.
//
// A compiled binding is also kept in a per-user cache (~/.cache/service-native, as node-gyp keeps
// Node's headers in ~/.cache/node-gyp and prebuild-install its downloads in npm's cache), under a
// name made of the package's integrity from package-lock.json, Node's version, the platform and
// the architecture: a second clone on the same machine copies it (milliseconds) instead of
// compiling for a minute. A copy that does not load is thrown away and the package compiled as
// usual. SERVICE_NATIVE_CACHE names another folder, or `off` turns the cache off.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { availableParallelism, homedir, setPriority } from 'node:os';
import path from 'node:path';

/**
 * Starts compiling better-sqlite3 if its binding is missing; returns a promise that settles when
 * it is there (at once when it already is), or rejects with the compiler's output. `jobs`: the
 * compilers make runs at once (default: one per core); `priority`: a nice value for the compile,
 * where the system allows it (the test runner raises it, so the tests it runs beside do not slow
 * what every other test waits for).
 */
export function ensureNativeModules(
  root,
  say,
  { jobs = Math.max(2, availableParallelism()), priority } = {},
) {
  const pkg = path.join(root, 'node_modules/better-sqlite3');
  const binding = path.join(pkg, 'build/Release/better_sqlite3.node');
  if (existsSync(binding)) return Promise.resolve();
  const cached = cachedBinding(root);
  if (cached !== undefined && restore(cached, binding)) {
    say(`better-sqlite3: copied from ${cached}`);
    return Promise.resolve();
  }
  say('better-sqlite3: compiling SQLite (about a minute, once)…');
  const started = Date.now();
  // the package's own install script: a prebuilt binary where one can be downloaded, else node-gyp
  const child = spawn('npm', ['run', '--silent', 'install'], {
    cwd: pkg,
    env: { ...process.env, JOBS: String(jobs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (priority !== undefined) {
    try {
      // before npm starts make: the compilers inherit it
      setPriority(child.pid, priority);
    } catch {
      // not allowed (not root): the compile runs at the usual priority
    }
  }
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && existsSync(binding)) {
        say(`better-sqlite3: compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        if (cached !== undefined) keep(binding, cached);
        resolve();
      } else
        reject(new Error(`better-sqlite3 did not compile (its install script exited ${code}):\n${output}`));
    });
  });
}

/** Where this checkout's binding is cached, or undefined when the cache is off or unknowable. */
function cachedBinding(root) {
  const folder =
    process.env.SERVICE_NATIVE_CACHE ??
    path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'service-native');
  if (folder === 'off') return undefined;
  let integrity;
  try {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
    integrity = lock.packages['node_modules/better-sqlite3'].integrity;
  } catch {
    return undefined;
  }
  if (typeof integrity !== 'string') return undefined;
  const key = createHash('sha256')
    .update([integrity, process.version, process.platform, process.arch].join('\n'))
    .digest('hex')
    .slice(0, 16);
  return path.join(
    folder,
    `better-sqlite3-${process.version}-${process.platform}-${process.arch}-${key}.node`,
  );
}

/** Copies a cached binding into place; true when it is there and loads in a fresh Node. */
function restore(cached, binding) {
  if (!existsSync(cached)) return false;
  try {
    mkdirSync(path.dirname(binding), { recursive: true });
    copyFileSync(cached, binding);
    const load = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(binding)})`], {
      stdio: 'ignore',
    });
    if (load.status === 0) return true;
  } catch {}
  // unreadable, truncated or built for something else: forget it and compile
  rmSync(binding, { force: true });
  rmSync(cached, { force: true });
  return false;
}

/** Keeps a fresh binding in the cache; a cache that cannot be written is only a slower next clone. */
function keep(binding, cached) {
  try {
    mkdirSync(path.dirname(cached), { recursive: true });
    const partial = `${cached}.${process.pid}.partial`;
    copyFileSync(binding, partial);
    renameSync(partial, cached);
  } catch {}
}
