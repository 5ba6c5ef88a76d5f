/** `npm run bench` for the server: every server benchmark, one after the other. */
import { runApiBench } from './api.bench.js';
import { runVerificationBench } from './verification.bench.js';

const only = process.env.BENCH_ONLY;
if (!only || only === 'api') await runApiBench();
if (!only || only === 'verification') await runVerificationBench();
