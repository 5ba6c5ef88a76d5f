/**
 * DKIM rotation from several server processes on one PostgreSQL database (issue 23): every
 * process runs a rotation worker ticking each second, and a domain's rotation is claimed with
 * `FOR UPDATE SKIP LOCKED`, so however many processes are asked and however many workers
 * look, each domain switches exactly once per request and its `domain.dkim_rotated` event is
 * written once. Every process then answers, and signs with, the same active selector; when one
 * process is killed the others carry the next round out.
 *
 * Real parts: BIND as the customer's authoritative server (the CNAMEs go there, verification
 * resolves through it), a webhook receiver checking each request with `standardwebhooks`, the
 * built CLI signing against the same database.
 *
 * No `DNS_LISTEN`: no process serves the key zone itself, so a next key counts as served at
 * once (`key-publication.ts`: the operator's name servers cannot be asked) and only the TTL
 * wait guards a switch; `DNS_TTL=1` makes that wait about 3 s.
 *
 * The status is polled (`STATUS_CHECK_MAX_AGE_MS=0`: each poll checks DNS and saves the check,
 * a transaction on the domain row and then its records) while the keys are stored and the
 * switches made, which write the same rows. Regression: those took them in the other order
 * and deadlocked now and then on PostgreSQL; the key then waited for the generator's next sweep
 * (30 s), the switch for its claim's lease (120 s). No process may log a failure.
 *
 * Always on PostgreSQL (a private cluster): SQLite is one process.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type BindServer, startBind } from './test-support/bind.js';
import { activeOf, type DkimStatusView, states, switchTarget } from './test-support/dkim-status.js';
import { type PostgresServer, startPostgres } from './test-support/postgres.js';
import { callApi, runCli, type ServerProcess, serverFleet } from './test-support/processes.js';
import { waitUntil } from './test-support/wait.js';
import {
  startWebhookReceiver,
  verifiedEvents,
  type WebhookReceiver,
} from './test-support/webhook-receiver.js';

const ZONE = 'customer.test';
const NAMES = Array.from({ length: 12 }, (_, i) => `d${i}.${ZONE}`);
/**
 * A bound only broken behaviour reaches: a switch lands within a tick of being asked for, or of
 * its next key's TTL wait (3 s) ending. Slowness is not what this file tests (issue 41: 36 keys
 * took over 25 s on a loaded 2-core run, and over 90 s at a load average of 20, their generator
 * running at the lowest priority); a deadlock or a lost claim is, and every process's log is
 * searched for those at the end.
 */
const SWITCH_DEADLINE_MS = 240_000;
/** Shared by the server processes and the CLI, which opens the sealed private keys to sign. */
const SECRET_KEY = randomBytes(32).toString('base64');

interface DomainResult {
  domain: string;
  status: string;
  dkim: DkimStatusView;
}

let postgres: PostgresServer;
let bind: BindServer;
let receiver: WebhookReceiver;
const fleet = serverFleet('dkim-rotation-multi-', () => ({
  DNS_RESOLVERS: bind.address,
  // every status request looks at DNS again
  STATUS_CHECK_MAX_AGE_MS: '0',
  // a switch waits DNS_TTL + 2 s after the next key is confirmed served
  DNS_TTL: '1',
  SECRET_KEY,
  // The 36 keys are made at normal priority: at nice 19 (the default) they get only idle CPU,
  // which a loaded test machine may not have for a long while.
  DKIM_KEYGEN_NICE: '0',
  // the receiver is on loopback; deliveries are looked for often
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_INTERVAL_MS: '20',
}));

before(async () => {
  [postgres, bind, receiver] = await Promise.all([
    startPostgres(),
    startBind({ zones: [ZONE] }),
    startWebhookReceiver(),
  ]);
});
after(async () => {
  await fleet.stop();
  await Promise.all([postgres?.stop(), bind?.close(), receiver?.close()]);
});

/** Every domain's result, as `url` answers POST /api/public/domain/status. */
async function statuses(url: string, key: string, names = NAMES): Promise<Map<string, DomainResult>> {
  const envelopes = await callApi(url, key, 'POST', '/api/public/domain/status', { domains: names });
  assert.equal(envelopes.length, names.length);
  return new Map(
    envelopes.map((e: { status: number; data: DomainResult }) => {
      assert.equal(e.status, 200, JSON.stringify(e));
      return [e.data.domain, e.data];
    }),
  );
}

/** Read every domain with `read` until `done` holds for each; fails with the last one seen. */
async function pollAll(
  what: string,
  read: () => Promise<Map<string, DomainResult>>,
  done: (r: DomainResult) => boolean,
  timeoutMs: number,
): Promise<Map<string, DomainResult>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await read();
    assert.deepEqual([...all.keys()].sort(), [...NAMES].sort());
    if ([...all.values()].every(done)) return all;
    if (Date.now() > deadline) {
      const pending = [...all.values()].filter((r) => !done(r));
      assert.fail(`${what}: ${pending.length} domains still ${JSON.stringify(pending[0])}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The `domain.dkim_rotated` events received since `from`, each verified, with its `webhook-id`. */
function rotatedEvents(secret: string, from = 0) {
  return verifiedEvents(receiver.received.slice(from), secret).filter(
    (e) => e.event.type === 'domain.dkim_rotated',
  );
}

/** `dkim sign --domain D` with the built CLI, the message on stdin: the `s=` it signed with. */
async function cliSign(databaseUrl: string, domain: string): Promise<string> {
  const message = [
    `From: Shop <orders@${domain}>`,
    'To: someone@example.org',
    'Subject: Signed after a rotation',
    'Date: Sat, 22 Nov 2025 12:00:00 +0000',
    `Message-ID: <rotation@${domain}>`,
    '',
    'Hello.',
    '',
  ].join('\r\n');
  const signed = await runCli(
    ['dkim', 'sign', '--domain', domain],
    { DATABASE_URL: databaseUrl, SECRET_KEY, DKIM_PROVIDER_HOST: 'provider.test' },
    { input: message },
  );
  assert.equal(signed.code, 0, `dkim sign: ${signed.stderr}`);
  const header = /^DKIM-Signature:[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*/m.exec(signed.stdout)?.[0] ?? '';
  const selector = /(?:^|[;\s])s=([^;\s]+)/.exec(header.replace(/\r?\n[ \t]/g, ' '))?.[1];
  assert.ok(selector, `no s= in the signature: ${signed.stdout.slice(0, 500)}`);
  return selector;
}

/**
 * Each process answers `domain` with the same active selector as `expected`, and the CLI
 * (`dkim status --json` and `dkim sign`, against the same database) signs with it.
 */
async function assertSigningSelector(
  servers: ServerProcess[],
  key: string,
  databaseUrl: string,
  domain: string,
  expected: string,
) {
  for (const [i, server] of servers.entries()) {
    const answered = (await statuses(server.url, key, [domain])).get(domain)!;
    assert.equal(activeOf(answered.dkim), expected, `process ${i}`);
  }
  const status = await runCli(['dkim', 'status', '--domain', domain, '--json'], {
    DATABASE_URL: databaseUrl,
    SECRET_KEY,
  });
  assert.equal(status.code, 0, status.stderr);
  const rows: { selector: string; role: string; active: string }[] = JSON.parse(status.stdout).selectors;
  assert.deepEqual(
    rows.filter((r) => r.active === 'yes').map((r) => r.selector),
    [expected],
  );
  assert.equal(rows.find((r) => r.selector === expected)!.role, 'active');
  assert.equal(await cliSign(databaseUrl, domain), expected);
}

/** Each domain switched once since `before`, and its one event matches its status. */
function assertSwitchedOnce(
  before: Map<string, DomainResult>,
  after: Map<string, DomainResult>,
  events: { id: string; event: any }[],
) {
  assert.equal(events.length, NAMES.length, JSON.stringify(events.map((e) => e.event.data.domain)));
  assert.equal(new Set(events.map((e) => e.id)).size, NAMES.length, 'each event once');
  for (const name of NAMES) {
    const was = before.get(name)!.dkim;
    const now = after.get(name)!.dkim;
    assert.deepEqual(
      now.selectors.map((s) => s.selector),
      was.selectors.map((s) => s.selector),
    );
    // the old active selector retired, the switch target (as rotation-plan.ts picks it) signs
    const expected: DkimStatusView['selectors'][number]['state'][] = states(was).map((s) =>
      s === 'active' ? 'retired' : s,
    );
    expected[switchTarget(was)] = 'active';
    assert.deepEqual(states(now), expected, name);
    assert.equal(now.rotationRequestedAt, null, name);
    assert.notEqual(now.rotatedAt, was.rotatedAt, name);
    // the new active selector and the one it replaced took their roles at the switch
    const active = now.selectors.find((s) => s.state === 'active')!;
    assert.equal(active.since, now.rotatedAt, name);
    const retiredNow = now.selectors[was.selectors.findIndex((s) => s.state === 'active')]!;
    assert.equal(retiredNow.state, 'retired', name);
    assert.equal(retiredNow.since, now.rotatedAt, name);
    // the keys did not change: only the roles moved
    assert.deepEqual(
      now.selectors.map((s) => s.keyCreatedAt),
      was.selectors.map((s) => s.keyCreatedAt),
      name,
    );

    const mine = events.filter((e) => e.event.data.domain === name);
    assert.equal(mine.length, 1, `${name}: ${mine.length} domain.dkim_rotated events`);
    const data = mine[0]!.event.data;
    assert.equal(data.previous, null);
    assert.equal(data.status, 'verified');
    // The event is the domain as the switch left it, the next switch planned included.
    assert.deepEqual(data.dkim, now, name);
  }
}

test('three processes rotate each of 12 domains once per request, one event each; after a SIGKILL the two left rotate them all again', async (t) => {
  const t0 = performance.now();
  const at = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
  const databaseUrl = await postgres.createDatabase();
  const env = { DATABASE_URL: databaseUrl };
  const servers = await Promise.all([fleet.start(env), fleet.start(env), fleet.start(env)]);
  const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
  const key = (await runCli(['keys', 'create', '--name', 'rotation'], env)).stdout.trim().split('\n').at(-1)!;
  const endpoint = await callApi(a.url, key, 'POST', '/api/public/webhooks', {
    url: receiver.url,
    events: ['domain.dkim_rotated'],
  });
  const secret: string = endpoint.data.secret;
  t.diagnostic(`three processes up ${at()}`);

  // 1. Registered through A; the customer publishes the three CNAMEs of each in BIND.
  const registered = await callApi(a.url, key, 'POST', '/api/public/domain', {
    domains: NAMES.map((domain) => ({ domain, domainType: 'Transactional' })),
  });
  assert.equal(registered.length, NAMES.length);
  for (const envelope of registered) assert.equal(envelope.status, 200, JSON.stringify(envelope));
  // The customer publishes at once, and the status is polled through B while A makes the 36
  // keys (see the file comment); a deadlock shows in the processes' logs, checked at the end.
  // lost to a deadlock would wait for.
  for (const envelope of registered) {
    for (const record of envelope.data.records.filter((r: { type: string }) => r.type === 'CNAME'))
      await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  }
  // Verified, both next keys confirmed (served at once: no DNS_LISTEN) and the next switch
  // planned (the worker looked at the domain after its verification).
  const ready = await pollAll(
    'verified with two confirmed next keys',
    () => statuses(b.url, key),
    (r) =>
      r.status === 'verified' &&
      JSON.stringify(states(r.dkim)) === JSON.stringify(['active', 'next', 'next']) &&
      r.dkim.selectors.every((s) => s.since !== null) &&
      r.dkim.nextRotationAt !== null,
    SWITCH_DEADLINE_MS,
  );
  t.diagnostic(`12 domains verified, next keys confirmed ${at()}`);
  for (const r of ready.values()) {
    assert.equal(r.dkim.rotatedAt, null);
    assert.equal(r.dkim.rotationRequestedAt, null);
  }
  assert.equal(rotatedEvents(secret).length, 0);

  // 2. A rotation of every domain, asked for through the three processes in turn (each request
  // nudges that process's worker; the two others find the domains due at their next tick).
  await Promise.all(
    NAMES.map(async (domain, i) => {
      const res = await callApi(servers[i % 3]!.url, key, 'POST', '/api/public/domain/dkim/rotate', {
        domain,
      });
      assert.equal(res.data.domain, domain);
      assert.notEqual(res.data.dkim.rotationRequestedAt, null);
    }),
  );
  await pollAll(
    'the first switch of every domain',
    () => statuses(c.url, key),
    (r) => r.dkim.rotatedAt !== null && r.dkim.rotationRequestedAt === null,
    SWITCH_DEADLINE_MS,
  );
  t.diagnostic(`12 first switches ${at()}`);
  await waitUntil('12 domain.dkim_rotated deliveries', () => rotatedEvents(secret).length >= 12 || undefined);
  // Time for a duplicate (a second claim of a domain, a second delivery) to arrive.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const firstEvents = rotatedEvents(secret);
  // The status route (a DNS check, then the domain as stored) answers the switch too.
  const first = await statuses(c.url, key);
  // Position 0 signed first; one of the two next keys took over.
  assertSwitchedOnce(ready, first, firstEvents);
  for (const r of first.values())
    assert.deepEqual([...states(r.dkim)].sort(), ['active', 'next', 'retired'], r.domain);
  // Nothing more happens: one switch per request; every process answers the same.
  for (const other of [a, b]) {
    const settled = await statuses(other.url, key);
    for (const name of NAMES) assert.deepEqual(settled.get(name)!.dkim, first.get(name)!.dkim, name);
  }

  // 3. Every process answers, and the CLI signs with, the selector the status names.
  const sample = NAMES[5]!;
  await assertSigningSelector(servers, key, databaseUrl, sample, activeOf(first.get(sample)!.dkim));
  t.diagnostic(`signing selector checked ${at()}`);

  // 4. C is killed; the second round is asked for after it died, through A and B, and the two
  // left carry it out. (Killed while a round is under way, a domain C had claimed would come
  // back only when its claim's lease ends, ROTATION_LEASE_MS = 120 s: too slow here. Nothing
  // was due when C died, so it held no claim.)
  c.child.kill('SIGKILL');
  await c.exited;
  const eventsBefore = receiver.received.length;
  await Promise.all(
    NAMES.map((domain, i) =>
      callApi(servers[i % 2]!.url, key, 'POST', '/api/public/domain/dkim/rotate', { domain }),
    ),
  );
  await pollAll(
    'the second switch of every domain',
    () => statuses(a.url, key),
    (r) => r.dkim.rotatedAt !== first.get(r.domain)!.dkim.rotatedAt && r.dkim.rotationRequestedAt === null,
    SWITCH_DEADLINE_MS,
  );
  t.diagnostic(`12 second switches by the two processes left ${at()}`);
  await waitUntil(
    '12 more domain.dkim_rotated deliveries',
    () => rotatedEvents(secret, eventsBefore).length >= 12 || undefined,
  );
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const second = await statuses(b.url, key);
  assertSwitchedOnce(first, second, rotatedEvents(secret, eventsBefore));
  // The last next key signs; both others keep retired keys.
  for (const r of second.values())
    assert.deepEqual([...states(r.dkim)].sort(), ['active', 'retired', 'retired'], r.domain);
  assert.equal(rotatedEvents(secret).length, 24);
  await assertSigningSelector([a, b], key, databaseUrl, sample, activeOf(second.get(sample)!.dkim));

  for (const [i, p] of servers.entries()) {
    assert.doesNotMatch(p.output(), /DKIM rotation failed/, `process ${i} logged a rotation failure`);
    assert.doesNotMatch(p.output(), /DKIM key generation failed|deadlock/, `process ${i} logged a failure`);
  }
  t.diagnostic(`done ${at()}`);
});
