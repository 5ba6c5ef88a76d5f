/** `npm run bench` for the server: every server benchmark, one after the other. */
import { runApiBench } from './api.bench.js';

await runApiBench();
