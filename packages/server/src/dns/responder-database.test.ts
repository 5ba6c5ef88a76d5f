/**
 * Issue 39: the responder answers from the database through a key cache smaller than the zone.
 * Over the wire, from a running server (`DNS_LISTEN`, its responder thread): every key as the
 * database holds it; a BIND secondary transfers the whole zone, streamed from the database; a
 * change written by another connection (as another process writes) reaches the answers; and
 * while the database cannot be reached, what the cache holds is still answered and the rest is
 * SERVFAIL, never NXDOMAIN, until it comes back.
 *
 * "Cannot be reached": on PostgreSQL the database refuses connections and the ones open are
 * ended (`ALLOW_CONNECTIONS false`, `pg_terminate_backend`), as a stopped server's clients
 * see it; on SQLite, a file the process already holds open, the key table is renamed away, so
 * every read of it fails.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import dnsPacket from 'dns-packet';
import { sql } from 'kysely';
import pg from 'pg';
import { newToken } from '../domain/token.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import { type BindServer, findFreeDnsPort, startBind } from '../test-support/bind.js';
import { type DnsReply, decodeReply, query, tcpQuery, udpExchange } from '../test-support/dns-client.js';
import { type PostgresServer, startPostgres } from '../test-support/postgres.js';
import { startTestServer, TEST_BACKEND, type TestServer } from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';

const ORIGIN = 'dkim.provider.test';
/** Smaller than the zone's 60 keys. */
const CACHE = 7;

let postgres: PostgresServer | undefined;
let databaseUrl: string | undefined;
let api: TestServer;
let bind: BindServer;
let accountId: string;
/** Every key token, by domain. */
const domains = new Map<string, string[]>();

before(async () => {
  if (TEST_BACKEND === 'postgres') {
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase();
  }
  const bindPort = await findFreeDnsPort();
  api = await startTestServer({
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    DNS_LISTEN: '127.0.0.1:0',
    DNS_SECONDARIES: `127.0.0.1:${bindPort}`,
    DNS_NS: 'ns1.provider.test',
    DNS_KEY_CACHE_SIZE: String(CACHE),
    DNS_RATE_LIMIT: '0',
    // The rotation worker checks that each domain's next keys are served by asking this
    // responder, which loads them into the 7-key cache: on a loaded run those checks came while
    // the last test held its keys, and evicted one (SERVFAIL with the database cut). What this
    // file counts on is the cache holding exactly what its own questions put there.
    DKIM_ROTATION_ENABLED: 'false',
  });
  accountId = (await api.createKey()).accountId;
  for (let i = 0; i < 20; i++)
    domains.set(`d${i}.example.test`, await registerWithKeys(`d${i}.example.test`));
  bind = await startBind({
    port: bindPort,
    secondaries: [{ zone: ORIGIN, primary: `127.0.0.1:${api.server.dkim.responder!.address.port}` }],
  });
});
after(async () => {
  await bind?.close();
  await api?.close();
  await postgres?.stop();
});

/** Registers `name` with keys for its three selectors (random key text: only served, never signed with). */
async function registerWithKeys(name: string): Promise<string[]> {
  const store = api.server.store;
  const [outcome] = await store.registerDomains(accountId, [{ name, type: 'Marketing' }], {
    maxDomains: 1000,
    now: Date.now(),
    newToken: () => newToken(),
  });
  assert.ok(outcome?.ok);
  const tokens = outcome.domain.records.flatMap((r) => (r.token ? [r.token] : []));
  const keys = new DkimKeyStore(store.db);
  // the server's key generator may store one first: either way the token has a key
  for (const token of tokens)
    await keys.insertKey({
      token,
      publicKey: randomBytes(294).toString('base64'),
      privateKeyEnc: 'x',
      createdAt: Date.now(),
    });
  return tokens;
}

const allTokens = () => [...domains.values()].flat();
/** The TXT text the database says `token` publishes, or `undefined` for none. */
async function expected(token: string): Promise<string | undefined> {
  const [key] = await new DkimKeyStore(api.server.store.db).publishedKeys([token]);
  return key && `v=DKIM1; k=rsa; p=${key.publicKey ?? ''}`;
}

/** Our responder's answer to TXT at `token`, over UDP (`spelling` varies the case, past the answer cache). */
async function ask(token: string, spelling: (name: string) => string = (n) => n): Promise<DnsReply> {
  const reply = await udpExchange(
    api.server.dkim.responder!.address,
    dnsPacket.encode(
      query(spelling(`${token}.${ORIGIN}`), 'TXT', { id: Math.floor(Math.random() * 65_536), edns: 1232 }),
    ),
  );
  assert.ok(reply, `an answer for ${token}; the server logged:\n${api.logLines().join('\n')}`);
  return decodeReply(reply);
}
const text = (reply: DnsReply) =>
  reply.rcode === 'NOERROR' && reply.answers?.[0]?.type === 'TXT'
    ? (reply.answers[0].data as Buffer[]).map((b) => b.toString()).join('')
    : reply.rcode;
const upper = (name: string) => name.toUpperCase();

test('a cache of 7 keys answers each of 60 keys as the database holds it, twice over, and NXDOMAIN for names without one', async () => {
  assert.equal(allTokens().length, 60);
  for (let round = 0; round < 2; round++)
    for (const token of allTokens()) assert.equal(text(await ask(token)), await expected(token), token);
  for (let i = 0; i < 5; i++) assert.equal((await ask(newToken())).rcode, 'NXDOMAIN');
});

test('a BIND secondary transfers every key, streamed from the database, and serves each as the database holds it', async () => {
  const resolver = bind.resolver();
  const last = allTokens().at(-1)!;
  await waitUntil('the zone transferred', async () =>
    (await resolver.resolve(`${last}.${ORIGIN}`, 'TXT').catch(() => undefined))?.[0]?.join(''),
  );
  for (const token of allTokens())
    assert.equal(
      (await resolver.resolve(`${token}.${ORIGIN}`, 'TXT'))[0]!.join(''),
      await expected(token),
      token,
    );
});

test('a key revoked or deleted through another connection stops being served once the change feed has it', async () => {
  const [revoked] = domains.get('d0.example.test')!;
  const gone = domains.get('d1.example.test')!;
  // in the cache first
  for (const token of [revoked!, ...gone]) assert.match(text(await ask(token)), /p=.+/);
  const store = api.server.store;
  // written as another process writes: no nudge reaches this responder, only its poll of the feed
  await new DkimKeyStore(store.db).revoke(revoked!, Date.now());
  await store.deleteDomains(accountId, ['d1.example.test']);
  domains.delete('d1.example.test');
  await waitUntil('the revocation served', async () => text(await ask(revoked!)).endsWith('p='));
  for (const token of gone)
    await waitUntil(`${token} gone`, async () => (await ask(token)).rcode === 'NXDOMAIN');
  // and a key made now is served, though its name was just answered NXDOMAIN
  const before = newToken();
  assert.equal((await ask(before)).rcode, 'NXDOMAIN');
  const next = [before];
  const [outcome] = await store.registerDomains(
    accountId,
    [{ name: 'late.example.test', type: 'Marketing' }],
    {
      maxDomains: 1000,
      now: Date.now(),
      newToken: () => next.shift() ?? newToken(),
    },
  );
  assert.ok(outcome?.ok);
  await new DkimKeyStore(store.db).insertKey({
    token: before,
    publicKey: randomBytes(294).toString('base64'),
    privateKeyEnc: 'x',
    createdAt: Date.now(),
  });
  await waitUntil('the new key served', async () => text(await ask(before)) === (await expected(before)));
});

test('the database unreachable: cached keys still answered, the rest SERVFAIL (never NXDOMAIN), then answered again', async () => {
  const tokens = allTokens();
  const want = new Map<string, string | undefined>();
  for (const token of tokens) want.set(token, await expected(token));
  // the last 7 keys asked are the ones held (least recently used go first); d2's were asked
  // last in the first test, 60 questions ago
  const held = [...domains.get('d10.example.test')!, ...domains.get('d11.example.test')!];
  const notHeld = domains.get('d2.example.test')!;
  for (const token of held) assert.equal(text(await ask(token)), want.get(token));

  const restore = await cutDatabase();
  try {
    for (const token of held) assert.equal(text(await ask(token, upper)), want.get(token), `${token} cached`);
    for (const token of notHeld) assert.equal((await ask(token)).rcode, 'SERVFAIL', `${token} not cached`);
    assert.equal((await ask(newToken())).rcode, 'SERVFAIL', 'a name never asked');
    const tcp = await tcpQuery(api.server.dkim.responder!.address, query(`${notHeld[0]}.${ORIGIN}`, 'TXT'));
    assert.equal(tcp.rcode, 'SERVFAIL', 'over TCP too');
  } finally {
    await restore();
  }
  for (const token of notHeld)
    await waitUntil(`${token} answered again`, async () => text(await ask(token)) === want.get(token));
});

/** Make the database unreachable for the server; resolves with the way back. */
async function cutDatabase(): Promise<() => Promise<void>> {
  if (postgres) {
    const name = new URL(databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`alter database "${name}" allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    return async () => {
      await admin.query(`alter database "${name}" allow_connections true`);
      await admin.end();
    };
  }
  const db = api.server.store.db;
  await sql`alter table dkim_keys rename to dkim_keys_away`.execute(db);
  return async () => {
    await sql`alter table dkim_keys_away rename to dkim_keys`.execute(db);
  };
}
