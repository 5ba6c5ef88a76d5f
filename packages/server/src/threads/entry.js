/**
 * The first module of every thread started by `module-worker.ts`: it imports the thread's real
 * module, named in `workerData.module`. Plain JavaScript because a worker thread starts without
 * the TypeScript loader the tests run under; when the module is TypeScript (the tests run the
 * sources), the loader is registered in this thread first. Built code names a `.js` module and
 * never loads tsx, which is a development dependency.
 */
import { workerData } from 'node:worker_threads';

if (workerData.module.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.module);
