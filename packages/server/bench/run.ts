/** `npm run bench` for the server: every server benchmark, one after the other (BENCH_ONLY=name for one). */
import { runAbuseBench } from './abuse.bench.js';
import { runApiBench } from './api.bench.js';
import { runAuthoritativeBench } from './authoritative.bench.js';
import { runDkimBench } from './dkim.bench.js';
import { runEmailListBench } from './email-list.bench.js';
import { runFuzzBench } from './fuzz.bench.js';
import { runInboundBench } from './inbound.bench.js';
import { runMetricsBench } from './metrics.bench.js';
import { runMtaBench } from './mta.bench.js';
import { runPostgresBench } from './postgres.bench.js';
import { runRotationBench } from './rotation.bench.js';
import { runScaleBench } from './scale.bench.js';
import { runSendApiBench } from './send-api.bench.js';
import { sendFlood } from './send-flood.bench.js';
import { runSendingBench } from './sending.bench.js';
import { runSoakBench } from './soak.bench.js';
import { damonNote } from './support.js';
import { runTracingBench } from './tracing.bench.js';
import { runVerificationBench } from './verification.bench.js';
import { runWebhooksBench } from './webhooks.bench.js';
import { runZoneBench } from './zone.bench.js';

const benches: Record<string, () => Promise<void>> = {
  api: runApiBench,
  verification: runVerificationBench,
  authoritative: runAuthoritativeBench,
  postgres: runPostgresBench,
  scale: runScaleBench,
  fuzz: runFuzzBench,
  soak: runSoakBench,
  dkim: runDkimBench,
  abuse: runAbuseBench,
  // part of abuse; on its own for before-and-after runs
  'send-flood': sendFlood,
  webhooks: runWebhooksBench,
  sending: runSendingBench,
  'send-api': runSendApiBench,
  mta: runMtaBench,
  'email-list': runEmailListBench,
  rotation: runRotationBench,
  inbound: runInboundBench,
  metrics: runMetricsBench,
  tracing: runTracingBench,
  zone: runZoneBench,
};
const damon = damonNote();
if (damon) console.log(damon);
const only = process.env.BENCH_ONLY;
for (const [name, run] of Object.entries(benches))
  if (only ? only === name : name !== 'send-flood') await run();
