/**
 * Where mail goes (`mx.ts`), asked of a real BIND. Issue 33: a recipient domain whose MX (or,
 * without MX, whose own address) was loopback or private got full SMTP sessions from the
 * service, and the internal server's reply came back through the API: SSRF into port 25.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type BindServer, startBind } from '../test-support/bind.js';
import { createMailRouter } from './mx.js';

describe('the mail router', () => {
  let bind: BindServer;
  before(async () => {
    bind = await startBind({ zones: ['route.test'] });
    await bind.addRecord('mx.route.test', 'A', '93.184.215.14');
    await bind.addRecord('public.route.test', 'MX', '10 mx.route.test.');
    await bind.addRecord('inside.route.test', 'A', '127.0.0.25');
    await bind.addRecord('internal.route.test', 'MX', '10 inside.route.test.');
    await bind.addRecord('mixed.route.test', 'MX', '10 inside.route.test.');
    await bind.addRecord('mixed.route.test', 'MX', '20 mx.route.test.');
    // no MX: the domain's own address, here a private one
    await bind.addRecord('bare.route.test', 'A', '10.1.2.3');
    await bind.addRecord('meta.route.test', 'AAAA', '::ffff:169.254.169.254');
  });
  after(() => bind?.close());
  const router = (allowPrivate: boolean) =>
    createMailRouter({ servers: [bind.address], timeoutMs: 2_000, tries: 2, allowPrivate });

  test('public MX hosts are kept', async () => {
    assert.deepEqual(await router(false)('public.route.test'), {
      ok: true,
      hosts: [{ host: 'mx.route.test', addresses: ['93.184.215.14'] }],
    });
  });

  test('a domain whose mail would reach only non-public addresses is a permanent failure that names the address', async () => {
    const cases: [string, RegExp][] = [
      ['internal.route.test', /inside\.route\.test at the loopback address 127\.0\.0\.25/],
      ['bare.route.test', /bare\.route\.test at the private address 10\.1\.2\.3/],
      ['meta.route.test', /meta\.route\.test at the linkLocal address ::ffff:/],
    ];
    for (const [domain, names] of cases) {
      const route = await router(false)(domain);
      assert.equal(route.ok, false, domain);
      if (route.ok) continue;
      assert.equal(route.permanent, true, domain);
      assert.match(route.reason, names, domain);
      assert.match(route.reason, /the service delivers only to public addresses$/, domain);
    }
  });

  test('non-public hosts are dropped from a list that has public ones', async () => {
    assert.deepEqual(await router(false)('mixed.route.test'), {
      ok: true,
      hosts: [{ host: 'mx.route.test', addresses: ['93.184.215.14'] }],
    });
  });

  test('SMTP_ALLOW_PRIVATE_MX keeps them (tests, local development)', async () => {
    assert.deepEqual(await router(true)('internal.route.test'), {
      ok: true,
      hosts: [{ host: 'inside.route.test', addresses: ['127.0.0.25'] }],
    });
  });
});
