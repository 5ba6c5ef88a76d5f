/** `npm run bench` for the server: every server benchmark, one after the other. */
import { runApiBench } from './api.bench.js';
import { runDkimBench } from './dkim.bench.js';

await runApiBench();
await runDkimBench();
