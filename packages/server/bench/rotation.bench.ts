/**
 * Issue 23, automatic DKIM key rotation, on SQLite (a file, synchronous=FULL) and on
 * PostgreSQL (production durability), each measured against a baseline of the same run:
 *
 * - switches per second when every domain of a large account is due at once (a rotation asked
 *   for, its next keys confirmed long ago), against as many plain single-row UPDATEs of
 *   `domains` by id through the same Kysely handle, `ROTATION_BATCH` at a time as the rotator attempts them;
 *   no key may be generated on this path (counted);
 * - replacements per second (a free retired selector gets a new key), against RSA-2048 key
 *   generation alone in the server's key generation pool, which bounds it;
 * - `DkimSigner.sign` latency (p50, p99) for random verified domains, with the rotator idle and
 *   while it switches every domain (the server runs both on one event loop and one handle).
 *
 * BENCH_ROTATION_DOMAINS (100,000) and BENCH_ROTATION_REPLACE (50) set the sizes. The rotator
 * is built as `hosted-dkim.ts` builds it, with the real store; `isServed` answers yes, since no
 * zone is served here.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { ROTATION_BATCH, ROTATION_LEASE_MS, ROTATION_TICK_MS } from '../src/dkim/hosted-dkim.js';
import { DkimKeyRotator } from '../src/dkim/key-rotation.js';
import { KeygenPool } from '../src/dkim/keygen-pool.js';
import { DkimSigner } from '../src/dkim/signer.js';
import { DkimKeyStore } from '../src/store/dkim-key-store.js';
import { DkimRotationStore, type RotationDomain } from '../src/store/dkim-rotation-store.js';
import type { KyselyStore } from '../src/store/kysely-store.js';
import { openStore } from '../src/store/open.js';
import { startPostgres } from '../src/test-support/postgres.js';
import { loadDomains } from './scale.bench.js';
import { fmt } from './support.js';

/** Signatures per latency sample, one after the other. */
const SIGNATURES = 2_000;
/** One signature every this many ms at most (a sender's steady pace), idle and during the switches. */
const SIGN_PACE_MS = 5;
/** `loadDomains` names domain i so. */
const nameOf = (i: number) => `d${String(i).padStart(8, '0')}.scale.example`;
const DAY_MS = 86_400_000;

const MESSAGE = [
  'From: Sender <news@DOMAIN>',
  'To: someone@example.org',
  'Subject: Your weekly summary',
  'Date: Thu, 26 Nov 2026 05:00:00 +0000',
  'Message-ID: <bench-rotation@DOMAIN>',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  ...Array.from(
    { length: 40 },
    (_, i) => `Line ${i} of a message body of ordinary size, about two kilobytes.`,
  ),
  '',
].join('\r\n');

interface Latency {
  count: number;
  p50: number;
  p99: number;
  failures: number;
}

interface Figures {
  label: string;
  size: number;
  loadSeconds: number;
  baselinePerSecond: number;
  switchesPerSecond: number;
  switchSeconds: number;
  generatedOnSwitch: number;
  rotationErrors: number;
  switchedRows: number;
  /** The rotator's claims of `ROTATION_BATCH` due domains during the switches, ms. */
  claims: { count: number; p50: number; max: number };
  idle: Latency;
  during: Latency;
  replaceSample: number;
  replacementsPerSecond: number;
  replacedRows: number;
}

export async function runRotationBench(): Promise<void> {
  const size = Number(process.env.BENCH_ROTATION_DOMAINS ?? 100_000);
  const replaceSample = Number(process.env.BENCH_ROTATION_REPLACE ?? 50);
  const config = loadConfig({ DATA_DIR: tmpdir() });
  console.log(
    `\n## DKIM rotation: ${fmt(size)} domains due at once, ${fmt(replaceSample)} key replacements, signing meanwhile`,
  );
  const pool = new KeygenPool(config.dkim.keygenConcurrency, config.dkim.keygenNice);
  const figures: Figures[] = [];
  let keygenPerSecond: number;
  try {
    keygenPerSecond = await keygenRate(pool, 20);
    figures.push(await measure('SQLite', size, replaceSample, pool));
    const postgres = await startPostgres({ durable: true });
    try {
      figures.push(await measure('PostgreSQL', size, replaceSample, pool, await postgres.createDatabase()));
    } finally {
      await postgres.stop();
    }
  } finally {
    await pool.close();
  }
  report(figures, keygenPerSecond, config.dkim.keygenConcurrency);
}

/** RSA-2048 pairs per second from the pool alone, as many asked at once as the rotator asks. */
async function keygenRate(pool: KeygenPool, n: number): Promise<number> {
  await pool.generate(); // the threads start on first use
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, () => pool.generate()));
  return n / ((performance.now() - t0) / 1000);
}

async function measure(
  label: string,
  size: number,
  replaceSample: number,
  pool: KeygenPool,
  databaseUrl?: string,
): Promise<Figures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-rotation-'));
  const store = await openStore({ dataDir, databaseUrl });
  try {
    const { accountId } = await store.createApiKey({
      name: 'rotation',
      keyHash: randomBytes(32).toString('hex'),
      keyPrefix: 'bench',
      scopes: ['*'],
    });
    const secretKey = randomBytes(32);
    const loadStarted = performance.now();
    await loadDomains(store, accountId, size, { verified: true, rotationDue: true, secretKey });
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    process.stdout.write(`${label}: ${fmt(size)} domains loaded in ${fmt(loadSeconds, 1)} s\n`);

    const signer = new DkimSigner({ keys: new DkimKeyStore(store.db), secretKey });
    const signOne = async () => {
      const name = nameOf(Math.floor(Math.random() * size));
      await signer.sign(MESSAGE.replaceAll('DOMAIN', name), { domain: name, accountId });
    };
    await signing(signOne, 500, () => true); // warm-up
    const idle = await signing(signOne, SIGNATURES, () => true, SIGN_PACE_MS);

    const baselinePerSecond = await plainUpdates(store, size);

    // The switch: every domain due, a rotation asked for, its next keys confirmed long ago.
    let generated = 0;
    let errors = 0;
    let firstError: unknown;
    const rotationStore = new TimedRotationStore(store.db, store.kind, store.domainCache);
    const rotator = new DkimKeyRotator({
      store: rotationStore,
      settings: loadConfig({ DATA_DIR: dataDir }).dkim.rotation,
      secretKey,
      generate: () => {
        generated += 1;
        return pool.generate();
      },
      isServed: async () => true,
      intervalMs: ROTATION_TICK_MS,
      batchSize: ROTATION_BATCH,
      leaseMs: ROTATION_LEASE_MS,
      onError: (error) => {
        errors += 1;
        firstError ??= error;
      },
    });
    const switchStarted = performance.now();
    rotator.start();
    const during = await signing(signOne, SIGNATURES, () => rotator.rotations < size, SIGN_PACE_MS);
    await until(
      () => rotator.rotations >= size || errors > 0,
      () => rotator.rotations,
    );
    const switchSeconds = (performance.now() - switchStarted) / 1000;
    await rotator.stop();
    if (errors > 0) throw new Error(`${label}: the rotator failed ${errors} times: ${String(firstError)}`);
    const switchedRows = await countRecords(store, 1, 'active');

    const replace = await replacements(store, replaceSample, dataDir, secretKey, pool);
    return {
      label,
      size,
      loadSeconds,
      baselinePerSecond,
      switchesPerSecond: rotator.rotations / switchSeconds,
      switchSeconds,
      generatedOnSwitch: generated,
      rotationErrors: errors,
      switchedRows,
      claims: rotationStore.claims(),
      idle,
      during,
      replaceSample,
      ...replace,
    };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The rotation store, timing its claims. */
class TimedRotationStore extends DkimRotationStore {
  private readonly ms: number[] = [];

  override async claimDue(now: number, limit: number, leaseMs: number): Promise<RotationDomain[]> {
    const t = performance.now();
    const claimed = await super.claimDue(now, limit, leaseMs);
    if (claimed.length > 0) this.ms.push(performance.now() - t);
    return claimed;
  }

  claims(): { count: number; p50: number; max: number } {
    const sorted = [...this.ms].sort((a, b) => a - b);
    return { count: sorted.length, p50: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
  }
}

/**
 * The baseline: `count` single-row UPDATEs of `domains` by id, each its own statement (its own
 * commit), `ROTATION_BATCH` at a time as the rotator attempts its claimed domains.
 */
async function plainUpdates(store: KyselyStore, count: number): Promise<number> {
  const t0 = performance.now();
  for (let from = 0; from < count; from += ROTATION_BATCH) {
    const now = Date.now();
    await Promise.all(
      Array.from({ length: Math.min(ROTATION_BATCH, count - from) }, (_, k) =>
        store.db
          .updateTable('domains')
          .set({ updated_at: now })
          .where('id', '=', `dom_${from + k}`)
          .execute(),
      ),
    );
  }
  return count / ((performance.now() - t0) / 1000);
}

/**
 * `sample` domains whose retired selector is free (retired 30 days ago, past the 7 days kept)
 * and no next key: each claim replaces that key. Timed until every one is replaced.
 */
async function replacements(
  store: KyselyStore,
  sample: number,
  dataDir: string,
  secretKey: Buffer,
  pool: KeygenPool,
): Promise<{ replacementsPerSecond: number; replacedRows: number }> {
  const now = Date.now();
  const ids = Array.from({ length: sample }, (_, i) => `dom_${i}`);
  // After the switch: 1 active, 0 retired just now, 2 next. Make 0 and 2 retired long ago.
  for (const [position, since] of [
    [0, now - 30 * DAY_MS],
    [2, now - 10 * DAY_MS],
  ] as const)
    await store.db
      .updateTable('domain_records')
      .set({ key_state: 'retired', key_state_since: since })
      .where('domain_id', 'in', ids)
      .where('position', '=', position)
      .execute();
  await store.db.updateTable('domains').set({ dkim_rotate_at: now }).where('id', 'in', ids).execute();
  let replaced = 0;
  let errors = 0;
  let firstError: unknown;
  const rotator = new DkimKeyRotator({
    store: new DkimRotationStore(store.db, store.kind, store.domainCache),
    settings: loadConfig({ DATA_DIR: dataDir }).dkim.rotation,
    secretKey,
    generate: () => pool.generate(),
    isServed: async () => true,
    intervalMs: ROTATION_TICK_MS,
    batchSize: ROTATION_BATCH,
    leaseMs: ROTATION_LEASE_MS,
    onKeyReplaced: () => {
      replaced += 1;
    },
    onError: (error) => {
      errors += 1;
      firstError ??= error;
    },
  });
  const t0 = performance.now();
  rotator.start();
  await until(
    () => replaced >= sample || errors > 0,
    () => replaced,
  );
  const seconds = (performance.now() - t0) / 1000;
  await rotator.stop();
  if (errors > 0) throw new Error(`the rotator failed ${errors} times replacing keys: ${String(firstError)}`);
  return { replacementsPerSecond: replaced / seconds, replacedRows: await countRecords(store, 0, 'next') };
}

/** DKIM records at `position` in `state`. */
async function countRecords(store: KyselyStore, position: number, state: string): Promise<number> {
  const row = await store.db
    .selectFrom('domain_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('position', '=', position)
    .where('key_state', '=', state)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Sign `count` messages one after the other (while `going()`), at most one per `paceMs`;
 * latencies of `sign` alone, by `performance.now()`.
 */
async function signing(
  signOne: () => Promise<void>,
  count: number,
  going: () => boolean,
  paceMs = 0,
): Promise<Latency> {
  const ms: number[] = [];
  let failures = 0;
  const started = performance.now();
  for (let n = 0; n < count && going(); n++) {
    const wait = started + n * paceMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const t = performance.now();
    try {
      await signOne();
    } catch {
      failures += 1;
    }
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? Number.NaN;
  return { count: ms.length, p50: at(0.5), p99: at(0.99), failures };
}

/** Wait until `done()`; fail when `progress()` stands still for a minute. */
async function until(done: () => boolean, progress: () => number): Promise<void> {
  let last = progress();
  let lastMoved = performance.now();
  while (!done()) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (progress() !== last) {
      last = progress();
      lastMoved = performance.now();
    } else if (performance.now() - lastMoved > 60_000) throw new Error(`no progress for a minute at ${last}`);
  }
}

function report(figures: Figures[], keygenPerSecond: number, keygenThreads: number): void {
  const ratio = (a: number, b: number) => `${fmt(a / b, 2)}×`;
  const ms = (l: Latency) => `p50 ${fmt(l.p50, 2)} / p99 ${fmt(l.p99, 2)} ms`;
  const columns: [string, (f: Figures) => string][] = [
    ['domains', (f) => fmt(f.size)],
    ['load (s)', (f) => fmt(f.loadSeconds, 1)],
    ['baseline UPDATE by id (/s)', (f) => fmt(f.baselinePerSecond)],
    ['switches (/s)', (f) => `${fmt(f.switchesPerSecond)} (${fmt(f.switchSeconds, 1)} s)`],
    ['switches / baseline', (f) => ratio(f.switchesPerSecond, f.baselinePerSecond)],
    [
      `claim of ${ROTATION_BATCH} (ms)`,
      (f) => `p50 ${fmt(f.claims.p50, 2)} / max ${fmt(f.claims.max, 1)} (${fmt(f.claims.count)})`,
    ],
    ['selector 1 active after', (f) => `${fmt(f.switchedRows)} of ${fmt(f.size)}`],
    ['keys generated (must be 0)', (f) => fmt(f.generatedOnSwitch)],
    ['sign idle', (f) => ms(f.idle)],
    ['sign during switches', (f) => ms(f.during)],
    [
      '  signatures / failures',
      (f) => `${fmt(f.during.count)} / ${fmt(f.during.failures + f.idle.failures)}`,
    ],
    ['sign p50 during / idle', (f) => ratio(f.during.p50, f.idle.p50)],
    ['sign p99 during / idle', (f) => ratio(f.during.p99, f.idle.p99)],
    ['replacements (/s)', (f) => `${fmt(f.replacementsPerSecond, 1)} (${fmt(f.replaceSample)} domains)`],
    ['replacements / keygen', (f) => ratio(f.replacementsPerSecond, keygenPerSecond)],
    ['selector 0 next after', (f) => `${fmt(f.replacedRows)} of ${fmt(f.replaceSample)}`],
  ];
  console.log(
    `RSA-2048 key generation alone (baseline of replacements): ${fmt(keygenPerSecond, 1)} pairs/s, ${keygenThreads} pool thread(s) at the server's nice`,
  );
  console.log(`${''.padEnd(28)}${figures.map((f) => f.label.padStart(34)).join('')}`);
  for (const [name, cell] of columns)
    console.log(`${name.padEnd(28)}${figures.map((f) => cell(f).padStart(34)).join('')}`);
  console.log(
    `signing: random verified domains, one signature at a time, one every ${SIGN_PACE_MS} ms at most; ${SIGNATURES} idle, up to ${SIGNATURES} while the switches run (target: ratio near 1.0×); the switch rate includes that signing`,
  );
  console.log(
    `rotator as the server runs it: claims of ${ROTATION_BATCH} domains attempted at once, on the store's handle (PostgreSQL: a pool of 10 connections, the default)`,
  );
}
