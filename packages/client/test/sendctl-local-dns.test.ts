// test-backends: sqlite (the commands read the API; the database behind it is not what this file tests)
/**
 * `sendctl domains publish-local | unpublish-local` run as a user runs them: a child process
 * against a real server in development mode with its local DNS (issue 40), no public DNS.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type ProcessResult, runProcess } from '../../server/src/test-support/processes.js';
import { startTestServer, type TestServer } from '../../server/src/test-support/test-server.js';

const bin = fileURLToPath(new URL('../bin/sendctl.mjs', import.meta.url));
let t: TestServer;
let env: Record<string, string>;

before(async () => {
  t = await startTestServer({ LOCAL_DNS_LISTEN: '127.0.0.1:0', VERIFY_GRACE_MS: '0' });
  env = { SERVICE_URL: t.url, SERVICE_API_KEY: (await t.createKey()).key };
});
after(async () => {
  await t.close();
});

const sendctl = (args: string[]): Promise<ProcessResult> => runProcess(process.execPath, [bin, ...args], env);

test('publish-local verifies a .test domain at once; unpublish-local takes a record out; other domains exit 4', async () => {
  const added = await sendctl(['domains', 'add', 'acme.test']);
  assert.equal(added.code, 0, added.stderr);

  const published = await sendctl(['domains', 'publish-local', 'acme.test']);
  assert.equal(published.code, 0, published.stderr);
  assert.match(
    published.stdout,
    /[a-z2-7]{32}\._domainkey\.acme\.test\s+CNAME\s+[a-z2-7]{32}\.dkim\.provider\.test/,
  );
  assert.match(published.stdout, /_dmarc\.acme\.test\s+TXT\s+v=DMARC1; p=none;/);
  assert.match(published.stdout, /^local DNS: 127\.0\.0\.1:\d+ \(dig @127\.0\.0\.1 -p \d+ <name> <type>\)$/m);
  assert.match(published.stdout, /^acme\.test: verified$/m);

  const status = await sendctl(['domains', 'status', 'acme.test']);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /acme\.test\s+Transactional\s+verified\s+3\/3\s+verified/);

  const removed = await sendctl([
    'domains',
    'unpublish-local',
    'acme.test',
    '--record',
    '_dmarc.acme.test',
    '--json',
  ]);
  assert.equal(removed.code, 0, removed.stderr);
  const change = JSON.parse(removed.stdout);
  assert.equal(change.records.length, 3);
  assert.ok(change.records.every((r: { type: string }) => r.type === 'CNAME'));
  const records = await sendctl(['domains', 'records', 'acme.test', '--format', 'json']);
  const dmarc = JSON.parse(records.stdout).find((r: { type: string }) => r.type === 'TXT');
  assert.equal(dmarc.reason, 'not_found');

  await sendctl(['domains', 'add', 'mail.example.com']);
  const real = await sendctl(['domains', 'publish-local', 'mail.example.com']);
  assert.equal(real.code, 4);
  assert.match(real.stderr, /^mail\.example\.com: .* \(LOCAL_DNS_NOT_TEST\)$/m);

  const usage = await sendctl(['domains', 'publish-local']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /domains publish-local needs exactly one domain/);
});
