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
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
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
        resolve();
      } else
        reject(new Error(`better-sqlite3 did not compile (its install script exited ${code}):\n${output}`));
    });
  });
}
