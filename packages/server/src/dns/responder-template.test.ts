// test-backends: sqlite
/**
 * The responder's ready answers (`answer-template.ts`) over the wire, from a key cache in front
 * of a real store and its change feed: every answer the same bytes `answerMessage` makes for the
 * message sent, whatever its spelling and EDNS, as dig sees them too; a key revoked or deleted
 * in the database is answered so once the feed reports it; rate limiting still applies.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import dnsPacket from 'dns-packet';
import { newToken } from '../domain/token.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { openStore } from '../store/open.js';
import { query, udpExchange } from '../test-support/dns-client.js';
import { waitUntil } from '../test-support/wait.js';
import { answerMessage } from './answer.js';
import { KeyCache } from './key-cache.js';
import { type DnsResponder, startDnsResponder } from './responder.js';
import { ZonePublisher } from './zone-publisher.js';

const ORIGIN = 'dkim.provider.test';
let dataDir: string;
let store: KyselyStore;
let keys: DkimKeyStore;
let publisher: ZonePublisher;
let responder: DnsResponder;
let limited: DnsResponder;
/** A domain's tokens and their public keys: the first is revoked and deleted by a test. */
let tokens: Map<string, string>;
let others: Map<string, string>;
let accountId: string;

/** Registers `name` and stores a key for each of its tokens; returns them and their keys. */
async function withKeys(name: string): Promise<Map<string, string>> {
  const [outcome] = await store.registerDomains(accountId, [{ name, type: 'Marketing' }], {
    maxDomains: 10,
    now: Date.now(),
    newToken,
  });
  assert.ok(outcome?.ok);
  const held = new Map<string, string>();
  for (const record of outcome.domain.records) {
    if (!record.token) continue;
    const publicKey = randomBytes(294).toString('base64');
    assert.ok(
      await keys.insertKey({ token: record.token, publicKey, privateKeyEnc: 'x', createdAt: Date.now() }),
    );
    held.set(record.token, publicKey);
  }
  return held;
}

before(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'responder-template-'));
  store = await openStore({ dataDir, databaseUrl: undefined });
  keys = new DkimKeyStore(store.db);
  accountId = (await store.createApiKey({ name: 't', keyHash: newToken(), keyPrefix: 't', scopes: ['*'] }))
    .accountId;
  tokens = await withKeys('one.example.test');
  others = await withKeys('two.example.test');
  publisher = new ZonePublisher({
    keys,
    cache: new KeyCache({ keys }),
    zone: { origin: ORIGIN, nameServers: ['ns.provider.test'], soaContact: 'h.provider.test', ttl: 60 },
    secondaries: [],
    pollMs: 50,
    minReloadGapMs: 0,
  });
  await publisher.start();
  const options = {
    listen: { host: '127.0.0.1', port: 0 },
    zone: () => publisher.current(),
    transferAllowed: () => false,
  };
  responder = await startDnsResponder({ ...options, responseRateLimit: false });
  limited = await startDnsResponder({ ...options, responseRateLimit: { perSecond: 2, slip: 0 } });
});
after(async () => {
  await responder?.close();
  await limited?.close();
  await publisher?.stop();
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function dig(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'dig',
      ['@127.0.0.1', '-p', String(responder.address.port), '+time=2', '+tries=2', ...args],
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

/** `name` with every other letter upper case (as 0x20 randomisation might send it). */
const mixed = (name: string) => [...name].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');

/** Sends `message`, asks `answerMessage` the same of the zone served, and compares the bytes. */
async function sameAsSlowPath(message: Buffer): Promise<Buffer> {
  const reply = await udpExchange(responder.address, message);
  assert.ok(reply, 'an answer');
  assert.deepEqual(
    reply,
    answerMessage(message, publisher.current(), { transport: 'udp', transferAllowed: false })[0],
  );
  return reply;
}

/** Queries of many shapes for `name`: spellings, EDNS payloads, DO, RD. */
function shapes(name: string, type = 'TXT'): Buffer[] {
  const out: Buffer[] = [];
  for (const spelling of [name, name.toUpperCase(), mixed(name)])
    for (const edns of [undefined, 512, 1232, 4096])
      for (const dnssecOk of [false, true]) {
        const packet = query(spelling, type, {
          id: out.length + 1,
          flags: out.length % 2 ? dnsPacket.RECURSION_DESIRED : 0,
          ...(edns !== undefined && { edns }),
        });
        if (edns === undefined && dnssecOk) continue;
        if (dnssecOk) (packet.additionals![0] as { flags: number }).flags = dnsPacket.DNSSEC_OK;
        out.push(dnsPacket.encode(packet));
      }
  return out;
}

test('over the wire, every shape of question answered as answerMessage answers it, before and after a revocation and a deletion', async () => {
  const [first, second] = [...tokens.keys()];
  const name = (token: string) => `${token}.${ORIGIN}`;
  // twice: the first loads the key, then the answers are the ready ones
  for (const message of [
    ...shapes(name(first!)),
    ...shapes(name(first!), 'A'),
    ...shapes(`${newToken()}.${ORIGIN}`),
    ...shapes(ORIGIN, 'SOA'),
    ...shapes('example.org'),
  ])
    for (let i = 0; i < 2; i++) await sameAsSlowPath(message);

  const text = async (token: string) =>
    (await dig('+short', mixed(name(token)), 'TXT')).trim().replace(/" "/g, '').replace(/"/g, '');
  assert.equal(await text(first!), `v=DKIM1; k=rsa; p=${tokens.get(first!)}`);
  assert.ok(await keys.revoke(first!, Date.now()));
  publisher.nudge();
  await waitUntil('the revocation served', async () => (await text(first!)) === 'v=DKIM1; k=rsa; p=');
  for (const message of shapes(name(first!))) await sameAsSlowPath(message);

  assert.equal(await text(second!), `v=DKIM1; k=rsa; p=${tokens.get(second!)}`);
  await store.deleteDomains(accountId, ['one.example.test']);
  publisher.nudge();
  await waitUntil('the deletion served', async () =>
    /status: NXDOMAIN/.test(await dig(name(second!), 'TXT')),
  );
  for (const message of shapes(name(second!))) await sameAsSlowPath(message);
});

test('dig sees the ready answers’ flags: AA, RD echoed, TC without EDNS (then TCP), DO echoed', async () => {
  const [token] = [...others.keys()];
  const name = mixed(`${token}.${ORIGIN}`);
  // asked once first, so the answers below come ready
  await dig(name, 'TXT');
  assert.match(await dig(name, 'TXT'), /flags: qr aa rd;/);
  assert.match(await dig('+norecurse', name, 'TXT'), /flags: qr aa;/);
  const truncated = await dig('+noedns', '+ignore', name, 'TXT');
  assert.match(truncated, /flags: qr aa tc rd;/);
  assert.match(truncated, /ANSWER: 0/);
  assert.match(await dig('+noedns', name, 'TXT'), /Truncated, retrying in TCP mode/);
  assert.match(await dig('+bufsize=512', '+ignore', name, 'TXT'), /flags: qr aa tc rd;/);
  assert.match(await dig('+dnssec', name, 'TXT'), /EDNS: version: 0, flags: do; udp: 1232/);
  assert.match(await dig(name, 'TXT'), /EDNS: version: 0, flags:; udp: 1232/);
  // RFC 7873: the client cookie comes back with a server cookie, and dig sees it is its own
  const cookie = await dig('+cookie', name, 'TXT');
  assert.match(cookie, /; COOKIE: [0-9a-f]{48} \(good\)/);
  assert.match(cookie, /ANSWER: 1,/);
});

test('the rate limiter still counts the ready answers', async () => {
  const [token] = [...others.keys()];
  const message = dnsPacket.encode(query(`${token}.${ORIGIN}`, 'TXT', { edns: 1232 }));
  // the first answer loads the key; then 2 a second pass and the rest are dropped (slip 0)
  assert.ok(await udpExchange(limited.address, message));
  let answered = 0;
  const replies = await Promise.all(
    Array.from({ length: 20 }, () => udpExchange(limited.address, message, { tries: 1, firstWaitMs: 300 })),
  );
  for (const reply of replies) if (reply) answered++;
  assert.ok(answered < 20, `${answered} of 20 answered`);
});
