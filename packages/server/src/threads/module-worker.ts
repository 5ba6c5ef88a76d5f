/**
 * Start an ES module of this package in a worker thread of its own, from the sources (under the
 * tests' TypeScript loader) as from the build: `entry.js` loads it.
 */
import { Worker } from 'node:worker_threads';

const ENTRY = new URL('./entry.js', import.meta.url);

/**
 * A worker running `module` (a URL beside the caller, e.g. `new URL('./x-worker.js',
 * import.meta.url)`; the extension follows the caller's own, `.ts` in the sources) with `data`
 * as its `workerData.data`.
 */
export function moduleWorker(module: URL, data: unknown, name: string): Worker {
  const callerIsTs = module.pathname.endsWith('.js') && import.meta.url.endsWith('.ts');
  const href = callerIsTs ? module.href.replace(/\.js$/, '.ts') : module.href;
  return new Worker(ENTRY, { workerData: { module: href, data }, name });
}
