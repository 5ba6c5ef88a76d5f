/**
 * The local DNS's provider zone follows the key store: a key made after the records were
 * published is answered once `syncKeys()` returns (what the sandbox calls before judging mail
 * signed with it), and a slow, older read of the store never replaces a newer one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PublishedKey } from '../store/dkim-key-store.js';
import { query, udpQuery } from '../test-support/dns-client.js';
import { LocalDns } from './local-dns.js';

const PROVIDER = 'dkim.provider.test';
const TOKEN = 'tok1';
const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA';
const record = { fqdn: `s1._domainkey.shop.test`, type: 'CNAME' as const, value: `${TOKEN}.${PROVIDER}` };

/** The TXT the local DNS answers at the token's name, as one string ('' when none). */
async function keyText(local: LocalDns): Promise<string> {
  const reply = await udpQuery(local.address!, query(`${TOKEN}.${PROVIDER}`, 'TXT'));
  return (reply.answers ?? [])
    .filter((a) => a.type === 'TXT')
    .map((a) => Buffer.concat((a.data as Buffer[]).map((b) => Buffer.from(b))).toString())
    .join('');
}

test('a key made after publishing is answered once syncKeys returns, with no wait for the timer', async () => {
  let stored: PublishedKey[] = []; // not made yet
  const local = new LocalDns({
    listen: { host: '127.0.0.1', port: 0 },
    anyFreePort: false,
    providerOrigin: PROVIDER,
    keys: async () => stored,
    // the timer would find it too, an hour later
    keyRefreshMs: 3_600_000,
  });
  await local.listen();
  try {
    await local.publish('shop.test', [record]);
    assert.equal(await keyText(local), '', 'no key yet');
    stored = [{ token: TOKEN, publicKey: KEY }];
    await local.syncKeys();
    assert.match(await keyText(local), new RegExp(`^v=DKIM1; k=rsa; p=${KEY}`));
  } finally {
    await local.close();
  }
});

test('a read of the key store that began earlier and ends later does not undo a newer one', async () => {
  const pending: ((keys: PublishedKey[]) => void)[] = [];
  const local = new LocalDns({
    listen: { host: '127.0.0.1', port: 0 },
    anyFreePort: false,
    providerOrigin: PROVIDER,
    keys: (tokens) => {
      assert.deepEqual(tokens, [TOKEN]);
      return new Promise((resolve) => pending.push(resolve));
    },
    keyRefreshMs: 3_600_000,
  });
  await local.listen();
  try {
    const published = local.publish('shop.test', [record]);
    const synced = local.syncKeys();
    assert.equal(pending.length, 2);
    // the later read (the sync) sees the key and answers first; the earlier one, without it, last
    pending[1]!([{ token: TOKEN, publicKey: KEY }]);
    await synced;
    pending[0]!([]);
    await published;
    assert.match(await keyText(local), new RegExp(`^v=DKIM1; k=rsa; p=${KEY}`));
  } finally {
    await local.close();
  }
});
