// The one native module, better-sqlite3, compiled where `npm ci --ignore-scripts` (a common
// supply-chain precaution) left it uncompiled, so `npm start` and `npm test` work after such an
// install too. It has no prebuilt binary reachable here, so compiling SQLite from source takes
// about a minute of one core; run by `npm run build`, it goes beside the TypeScript builds and
// the tests' key generation, on the other core. After a plain `npm ci` it is already compiled
// and nothing happens.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Starts compiling better-sqlite3 if its binding is missing; returns a promise that settles when
 * it is there (at once when it already is), or rejects with npm's output.
 */
export function ensureNativeModules(root, say) {
  const binding = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  if (existsSync(binding)) return Promise.resolve();
  say('better-sqlite3: compiling SQLite (npm ci ran without install scripts)…');
  const started = Date.now();
  const child = spawn('npm', ['rebuild', 'better-sqlite3', '--ignore-scripts=false'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && existsSync(binding)) {
        say(`better-sqlite3: compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        resolve();
      } else reject(new Error(`better-sqlite3 did not compile (npm rebuild exited ${code}):\n${output}`));
    });
  });
}
