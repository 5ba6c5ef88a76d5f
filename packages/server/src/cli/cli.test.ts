/** The key administration CLI, run as a user runs it: `npm run --silent cli -- keys ...`. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../test-support/processes.js';
import { startTestServer, testDatabaseUrl } from '../test-support/test-server.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'cli-test-'));
const databaseUrl = await testDatabaseUrl();
/** The CLI and the server share one database, as on a real machine. */
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
};
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('keys create prints the key as the last line; it works, shows in keys list, and revoke disables it', async () => {
  // exactly the README's command, through npm; the other calls run the built CLI directly
  const created = await runCli(['keys', 'create', '--name', 'ci-key'], env, { viaNpm: true });
  assert.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim().split('\n').at(-1)!;
  assert.match(key, /^sk_[A-Za-z0-9_-]{43}$/);

  // The server reuses a key lookup for KEY_CACHE_TTL_MS; a revocation from another
  // process (this CLI) applies within that time.
  const server = await startTestServer({ ...env, KEY_CACHE_TTL_MS: '300' });
  try {
    const ok = await server.request('GET', '/api/public/domain', { key });
    assert.equal(ok.status, 200);

    const listed = await runCli(['keys', 'list'], env);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /ci-key/);
    assert.ok(listed.stdout.includes(key.slice(0, 11)), 'the prefix identifies the key');
    assert.ok(!listed.stdout.includes(key), 'the key itself is never shown again');

    const json = JSON.parse((await runCli(['keys', 'list', '--json'], env)).stdout);
    const row = json.find((k: { name: string }) => k.name === 'ci-key');
    assert.equal(row.revoked, '');
    assert.equal(JSON.stringify(json).includes(key), false);

    const revoked = await runCli(['keys', 'revoke', row.prefix], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const refused = await server.request('GET', '/api/public/domain', { key });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'AUTH_INVALID');
  } finally {
    await server.close();
  }
});

test('keys create --account adds a key to an existing account; --scope limits it', async () => {
  const first = JSON.parse((await runCli(['keys', 'create', '--name', 'owner', '--json'], env)).stdout);
  const second = await runCli(
    [
      'keys',
      'create',
      '--name',
      'browser',
      '--account',
      first.accountId,
      '--scope',
      'templates,images',
      '--json',
    ],
    env,
  );
  assert.equal(second.code, 0, second.stderr);
  const parsed = JSON.parse(second.stdout);
  assert.equal(parsed.accountId, first.accountId);
  assert.deepEqual(parsed.scopes, ['templates', 'images']);
  // or name the account by one of its keys, as the quick start does with "$KEY"
  const third = await runCli(['keys', 'create', '--name', 'by key', '--account', first.key, '--json'], env);
  assert.equal(third.code, 0, third.stderr);
  assert.equal(JSON.parse(third.stdout).accountId, first.accountId);
  const unknown = await runCli(['keys', 'create', '--name', 'x', '--account', 'sk_not_a_key_of_ours'], env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown or revoked/);
});

test('keys create --domains makes a sending key for domains of the account; a domain it does not hold is refused', async () => {
  const owner = JSON.parse((await runCli(['keys', 'create', '--name', 'platform', '--json'], env)).stdout);
  const server = await startTestServer(env);
  try {
    const registered = await server.request('POST', '/api/public/domain', {
      key: owner.key,
      body: { domains: [{ domain: 'mail.tenant.test', domainType: 'Transactional' }] },
    });
    assert.equal(registered.body[0].status, 200, JSON.stringify(registered.body));
    const made = await runCli(
      [
        'keys',
        'create',
        '--name',
        'tenant',
        '--account',
        owner.key,
        '--domains',
        'Mail.Tenant.test',
        '--json',
      ],
      env,
    );
    assert.equal(made.code, 0, made.stderr);
    const limited = JSON.parse(made.stdout);
    assert.deepEqual(
      [limited.accountId, limited.scopes, limited.domains],
      [owner.accountId, ['sending'], ['mail.tenant.test']],
    );
    assert.equal((await server.request('GET', '/api/public/emails', { key: limited.key })).status, 200);
    const refused = await server.request('GET', '/api/public/suppressions', { key: limited.key });
    assert.equal(refused.body.error.code, 'AUTH_SCOPE');

    const unknown = await runCli(
      ['keys', 'create', '--name', 'x', '--account', owner.key, '--domains', 'other.tenant.test'],
      env,
    );
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /other\.tenant\.test is not a registered domain of this account/);
    const alone = await runCli(['keys', 'create', '--name', 'x', '--domains', 'mail.tenant.test'], env);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /give --account too/);
  } finally {
    await server.close();
  }
});

test('mistakes exit 2 with a helpful message and change nothing', async () => {
  const before = (await runCli(['keys', 'list', '--json'], env)).stdout;
  const cases: [string[], RegExp][] = [
    [['keys', 'create'], /--name/],
    [['keys', 'create', '--name', 'x', '--scope', 'root'], /unknown scope root/],
    [['keys', 'create', '--name', 'x', '--account', 'acc_missing'], /no account acc_missing/],
    [['keys', 'revoke'], /key id or prefix/],
    [['keys', 'revoke', 'sk_nothing'], /no single key/],
    [['keys', 'rotate'], /unknown keys command/],
    [['frobnicate'], /unknown command/],
    [['keys', 'create', '--bogus'], /Unknown option/],
  ];
  for (const [args, message] of cases) {
    const result = await runCli(args, env);
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.stderr, message);
  }
  assert.equal((await runCli(['keys', 'list', '--json'], env)).stdout, before);
});

test('a bad configuration is reported with the variable at fault', async () => {
  const result = await runCli(['keys', 'list'], { ...env, PORT: 'eighty' });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /PORT must be an integer/);
});

test('domain-connect template prints the template for the public repository, named as it must be', async () => {
  const result = await runCli(['domain-connect', 'template'], {
    ...env,
    DKIM_PROVIDER_HOST: 'sender.example',
    DOMAIN_CONNECT_REDIRECT_DOMAINS: 'app.sender.example',
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /save as sender\.example\.sending-domain\.json/);
  const template = JSON.parse(result.stdout);
  assert.deepEqual(
    [template.providerId, template.serviceId, template.syncPubKeyDomain, template.syncRedirectDomain],
    ['sender.example', 'sending-domain', 'dkim.sender.example', 'app.sender.example'],
  );
  assert.deepEqual(
    template.records.map((r: { type: string; host: string }) => `${r.type} ${r.host}`),
    [
      'CNAME %dkimkey1%._domainkey',
      'CNAME %dkimkey2%._domainkey',
      'CNAME %dkimkey3%._domainkey',
      'TXT _dmarc',
      'CNAME bounces',
      'CNAME track',
    ],
  );
  assert.equal(template.version, 3);
  const wrong = await runCli(['domain-connect', 'publish'], env);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /domain-connect takes one subcommand: template/);
});
