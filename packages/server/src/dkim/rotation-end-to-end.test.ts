/**
 * Issue 23 end to end, with real DNS servers and an outside verifier: messages signed before,
 * during and after two rotations all verify with mailauth through the customer's CNAMEs, our
 * responder and a BIND secondary fed by AXFR, including a message signed just before a switch
 * and verified after it. A BIND 9 pulls the provider zone from our responder by AXFR (kept
 * fresh by NOTIFY) and is also the customer's authoritative server, holding the three CNAMEs;
 * mailauth resolves through it. `DNS_TTL=1` makes the wait before a switch about 3 s.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dkimKeyRecord } from '../dns/key-record.js';
import type { BindServer } from '../test-support/bind.js';
import { type DkimStatusView, states, switchTarget } from '../test-support/dkim-status.js';
import { type KeyZone, startKeyZone } from '../test-support/key-zone.js';
import type { TestServer } from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';
import {
  startWebhookReceiver,
  verifiedEvents,
  type WebhookReceiver,
} from '../test-support/webhook-receiver.js';
import { UNCONFIRMED_RETRY_MS } from './rotation-plan.js';

const DOMAIN = 'mail.customer.test';
/** Generous: a switch takes about `DNS_TTL` + 2 s once its key is confirmed served. */
const SWITCH_DEADLINE_MS = 30_000;

let zone: KeyZone;
let api: TestServer;
let bind: BindServer;
let receiver: WebhookReceiver;
let key: string;
let webhookSecret: string;
let tokens: string[];
let records: { fqdn: string; value: string }[];

/** A distinct message for each moment of the story. */
function message(name: string): string {
  return [
    'From: Shop <orders@mail.customer.test>',
    'To: someone@example.org',
    `Subject: Message ${name}`,
    'Date: Sat, 22 Nov 2025 12:00:00 +0000',
    `Message-ID: <${name}@mail.customer.test>`,
    '',
    `This is message ${name}.`,
    '',
  ].join('\n');
}

/** mailauth's verdict, its resolver asking only the loopback BIND. */
const verify = (signed: Buffer) => zone.verify(signed);

/** Every message verifies (signed by its selector, for the domain). */
async function assertAllPass(signed: Record<string, { message: Buffer; selector: string }>) {
  for (const [name, s] of Object.entries(signed)) {
    const result = await verify(s.message);
    assert.equal(result.status.result, 'pass', `message ${name}: ${JSON.stringify(result.status)}`);
    assert.equal(result.signingDomain, DOMAIN);
    assert.equal(result.selector, s.selector, `message ${name}`);
  }
}

/** The domain's result, as POST /api/public/domain/status answers it (checked against the contract). */
async function status(): Promise<{ status: string; dkim: DkimStatusView }> {
  const res = await api.request('POST', '/api/public/domain/status', { key, body: { domains: [DOMAIN] } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.contractProblems, []);
  return res.body[0].data;
}

/** Poll the status until `done` holds; fails with the last one seen after `timeoutMs`. */
async function pollStatus(
  what: string,
  done: (s: { status: string; dkim: DkimStatusView }) => boolean,
  timeoutMs = SWITCH_DEADLINE_MS,
): Promise<{ status: string; dkim: DkimStatusView }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await status();
    if (done(s)) return s;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(s)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function rotate() {
  return api.request('POST', '/api/public/domain/dkim/rotate', { key, body: { domain: DOMAIN } });
}

async function sign(name: string) {
  return api.server.dkim.signer.sign(message(name), { domain: DOMAIN });
}

/** The secondary serves each selector's current key (the one in the database). */
async function assertSecondaryServesKeys() {
  for (const token of tokens) {
    const stored = await api.server.dkim.keys.findKey(token);
    const expected = dkimKeyRecord(stored!.publicKey);
    const [txt] = await bind.waitFor(
      `${token}.dkim.provider.test`,
      'TXT',
      (a) => a.length === 1 && a[0]!.join('') === expected,
      20_000,
    );
    assert.match(txt!.join(''), /^v=DKIM1; k=rsa; p=MIIBIjAN[A-Za-z0-9+/]+=*$/);
  }
}

/** The `domain.dkim_rotated` events received, each verified with the Standard Webhooks package. */
function rotatedEvents() {
  return verifiedEvents(receiver.received, webhookSecret).map((e) => e.event);
}

before(async () => {
  receiver = await startWebhookReceiver();
  zone = await startKeyZone({
    // a switch waits DNS_TTL + 2 s after the next key is confirmed served
    DNS_TTL: '1',
    // the receiver is on loopback; deliveries are looked for often
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_INTERVAL_MS: '20',
  });
  ({ api, bind } = zone);
  ({ key } = await api.createKey());
  const endpoint = await api.request('POST', '/api/public/webhooks', {
    key,
    body: { url: receiver.url, events: ['domain.dkim_rotated'] },
  });
  assert.equal(endpoint.status, 200, JSON.stringify(endpoint.body));
  webhookSecret = endpoint.body.data.secret;
});
after(async () => {
  await zone?.close();
  await receiver?.close();
});

const signed: Record<string, { message: Buffer; selector: string }> = {};
/** Selector positions: the one signing first, then the targets of the two switches. */
let first: number;
let second: number;
let third: number;

test('registered, published and verified: selector 0 signs, the two others wait as next keys confirmed served', async (t) => {
  const t0 = performance.now();
  const registered = await api.request('POST', '/api/public/domain', {
    key,
    body: { domains: [{ domain: DOMAIN, domainType: 'Transactional' }] },
  });
  assert.equal(registered.status, 200);
  assert.deepEqual(registered.contractProblems, []);
  records = registered.body[0].data.records.filter((r: any) => r.type === 'CNAME');
  tokens = records.map((r: any) => r.record);
  assert.equal(tokens.length, 3);
  await api.server.dkim.generator.idle();
  t.diagnostic(`all three keys ${(performance.now() - t0).toFixed(0)} ms`);
  // NOTIFY brings each key to the secondary; no retransfer is forced here.
  await assertSecondaryServesKeys();
  // The customer publishes the CNAMEs exactly as the API gave them.
  for (const record of records) await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  await pollStatus('verified', (s) => s.status === 'verified', 20_000);
  // A next key not found served at the first look is looked at again after UNCONFIRMED_RETRY_MS.
  const ready = await pollStatus(
    'two next keys confirmed served',
    (s) =>
      JSON.stringify(states(s.dkim)) === JSON.stringify(['active', 'next', 'next']) &&
      s.dkim.selectors.every((x) => x.since !== null),
    UNCONFIRMED_RETRY_MS + 15_000,
  );
  t.diagnostic(`next keys confirmed served ${(performance.now() - t0).toFixed(0)} ms after registration`);
  assert.equal(ready.dkim.rotatedAt, null);
  assert.equal(ready.dkim.rotationRequestedAt, null);
  // verified (whether before or after the keys were confirmed): the next rotation is planned,
  // 90 days after the first key began signing
  const planned = await pollStatus(
    'the next rotation planned',
    (s) => s.dkim.nextRotationAt !== null,
    10_000,
  );
  const activeSince = Date.parse(planned.dkim.selectors[0]!.since!);
  assert.equal(Date.parse(planned.dkim.nextRotationAt!), activeSince + 90 * 86_400_000);
  assert.deepEqual(
    ready.dkim.selectors.map((s) => s.selector),
    tokens,
  );
  first = 0;
  second = switchTarget(ready.dkim);
  third = 3 - second;
  t.diagnostic(`the first switch goes to selector ${second}, the second to selector ${third}`);

  signed.A = await sign('A');
  assert.equal(signed.A.selector, tokens[first]);
  await assertAllPass(signed);
});

test('rotation asked for: a message signed before the switch verifies after it; the next selector signs', async (t) => {
  // The rotation worker is the only thing that switches signing: held for the few
  // milliseconds between the request and signing B, B is signed just before the switch
  // whatever the timing. Without the hold the switch lands at once when the next key has
  // been served longer than DNS_TTL + 2 s already, and B would race it.
  const rotator = api.server.dkim.rotator!;
  await rotator.stop();
  const t0 = performance.now();
  let res: Awaited<ReturnType<typeof rotate>>;
  try {
    res = await rotate();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.contractProblems, []);
    signed.B = await sign('B');
  } finally {
    rotator.start();
  }
  assert.equal(res.body.status, 200);
  assert.equal(res.body.error, null);
  assert.equal(res.body.data.domain, DOMAIN);
  const answered: DkimStatusView = res.body.data.dkim;
  assert.notEqual(answered.rotationRequestedAt, null);
  assert.notEqual(answered.nextRotationAt, null);
  assert.deepEqual(states(answered), ['active', 'next', 'next']);
  assert.equal(signed.B.selector, tokens[first]);

  const after = await pollStatus('the first switch', (s) => s.dkim.rotatedAt !== null);
  t.diagnostic(
    `switch 1: rotatedAt ${Date.parse(after.dkim.rotatedAt!) - Date.parse(answered.rotationRequestedAt!)} ms after the request (the worker held for signing B); seen after ${(performance.now() - t0).toFixed(0)} ms`,
  );
  const expected: (string | null)[] = ['retired', 'next', 'next'];
  expected[second] = 'active';
  assert.deepEqual(states(after.dkim), expected);
  assert.equal(after.dkim.rotationRequestedAt, null);
  assert.equal(after.dkim.selectors[first]!.since, after.dkim.rotatedAt);
  assert.equal(after.dkim.selectors[second]!.since, after.dkim.rotatedAt);
  assert.ok(Date.parse(after.dkim.rotatedAt!) >= Date.parse(answered.rotationRequestedAt!));
  // The keys did not change: the secondary serves the same three, the retired one included.
  await assertSecondaryServesKeys();

  signed.C = await sign('C');
  assert.equal(signed.C.selector, tokens[second]);
  // A and B (signed with the now retired key) still verify: its key stays published.
  await assertAllPass(signed);
});

test('a second rotation moves signing to the third selector; every message signed so far verifies', async (t) => {
  const before = await status();
  const t0 = performance.now();
  const res = await rotate();
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.contractProblems, []);
  assert.notEqual(res.body.data.dkim.rotationRequestedAt, null);

  const after = await pollStatus('the second switch', (s) => s.dkim.rotatedAt !== before.dkim.rotatedAt);
  t.diagnostic(
    `switch 2: rotatedAt ${Date.parse(after.dkim.rotatedAt!) - Date.parse(res.body.data.dkim.rotationRequestedAt)} ms after the request; seen after ${(performance.now() - t0).toFixed(0)} ms`,
  );
  const expected: (string | null)[] = ['retired', 'retired', 'retired'];
  expected[third] = 'active';
  assert.deepEqual(states(after.dkim), expected);
  assert.equal(after.dkim.rotationRequestedAt, null);
  // the first retired key is kept from its retirement on, not from the second switch
  assert.equal(after.dkim.selectors[first]!.since, before.dkim.rotatedAt);
  assert.equal(after.dkim.selectors[second]!.since, after.dkim.rotatedAt);
  await assertSecondaryServesKeys();

  signed.D = await sign('D');
  assert.equal(signed.D.selector, tokens[third]);
  // Both retired keys are still published: A, B (selector 0) and C verify along with D.
  await assertAllPass(signed);
});

test('a third rotation is refused while both other selectors keep retired keys, and changes nothing', async () => {
  const before = await status();
  const res = await rotate();
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.deepEqual(res.contractProblems, []);
  assert.equal(res.body.status, 409);
  assert.equal(res.body.data, null);
  assert.equal(res.body.error.code, 'DKIM_ROTATION_UNAVAILABLE');
  // Until the key retired first (at the first switch) has been kept DKIM_RETIRED_KEY_DAYS (7).
  const until = new Date(Date.parse(before.dkim.selectors[first]!.since!) + 7 * 24 * 3_600_000).toISOString();
  assert.ok(
    res.body.error.message.includes(`until ${until}`),
    `expected "until ${until}" in: ${res.body.error.message}`,
  );
  // The worker had its chance to act on anything the request might have written.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const now = await status();
  assert.deepEqual(now.dkim, before.dkim);
  assert.equal(now.dkim.rotationRequestedAt, null);
  assert.equal((await sign('E')).selector, tokens[third]);
  await assertSecondaryServesKeys();
  await assertAllPass(signed);
});

test('the endpoint subscribed to domain.dkim_rotated received the two switches, each with the roles after it', async () => {
  await waitUntil('two domain.dkim_rotated deliveries', () => receiver.received.length >= 2 || undefined);
  // Time for a duplicate or a stray event to arrive.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const events = rotatedEvents();
  assert.equal(events.length, 2, JSON.stringify(events));
  const afterFirst: (string | null)[] = ['retired', 'next', 'next'];
  afterFirst[second] = 'active';
  const afterSecond: (string | null)[] = ['retired', 'retired', 'retired'];
  afterSecond[third] = 'active';
  const final = await status();
  for (const [i, event] of events.entries()) {
    assert.equal(event.type, 'domain.dkim_rotated');
    assert.equal(event.data.domain, DOMAIN);
    assert.equal(event.data.previous, null);
    assert.deepEqual(
      event.data.dkim.selectors.map((s: DkimStatusView['selectors'][number]) => s.selector),
      tokens,
    );
    assert.deepEqual(states(event.data.dkim), i === 0 ? afterFirst : afterSecond);
    assert.equal(event.data.dkim.rotationRequestedAt, null);
  }
  assert.equal(events[1].data.dkim.rotatedAt, final.dkim.rotatedAt);
  assert.ok(Date.parse(events[0].data.dkim.rotatedAt) < Date.parse(events[1].data.dkim.rotatedAt));
});

test('rotating a domain the account has not registered answers 404 DKIM_ROTATION_DOMAIN_UNKNOWN', async () => {
  const res = await api.request('POST', '/api/public/domain/dkim/rotate', {
    key,
    body: { domain: 'nobody.customer.test' },
  });
  assert.equal(res.status, 404, JSON.stringify(res.body));
  assert.deepEqual(res.contractProblems, []);
  assert.equal(res.body.error.code, 'DKIM_ROTATION_DOMAIN_UNKNOWN');
  const other = (await api.createKey()).key;
  const foreign = await api.request('POST', '/api/public/domain/dkim/rotate', {
    key: other,
    body: { domain: DOMAIN },
  });
  assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
  assert.deepEqual(foreign.contractProblems, []);
  assert.equal(foreign.body.error.code, 'DKIM_ROTATION_DOMAIN_UNKNOWN');
});
