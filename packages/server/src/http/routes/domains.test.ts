/**
 * The spec's two operations and the two beyond it, driven through HTTP against the real
 * server on a real SQLite file. Every response is also checked against /openapi.json.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let t: TestServer;
let key: string;

before(async () => {
  t = await startTestServer();
  ({ key } = await t.createKey());
});
after(() => t.close());

/** The spec's fields of a domain result (the additive diagnostics move with every check). */
function specView(data: any) {
  return {
    domain: data.domain,
    status: data.status,
    type: data.type,
    records: data.records.map((r: any) => ({
      name: r.name,
      type: r.type,
      value: r.value,
      status: r.status,
      record: r.record,
      ttl: r.ttl,
      fqdn: r.fqdn,
    })),
  };
}

async function register(domains: { domain: string; domainType: string }[], k = key) {
  const res = await t.request('POST', '/api/public/domain', { key: k, body: { domains } });
  assert.deepEqual(res.contractProblems, []);
  return res;
}

async function status(domains: string[], k = key) {
  const res = await t.request('POST', '/api/public/domain/status', { key: k, body: { domains } });
  assert.deepEqual(res.contractProblems, []);
  return res;
}

describe('POST /api/public/domain', () => {
  test('returns the spec’s domain result: pending everywhere, three DKIM CNAMEs then one DMARC TXT', async () => {
    const res = await register([{ domain: 'mail.acme.example', domainType: 'Transactional' }]);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    assert.equal(res.body.length, 1);
    const [envelope] = res.body;
    assert.deepEqual(Object.keys(envelope).sort(), ['data', 'error', 'status']);
    assert.equal(envelope.error, null);
    assert.equal(envelope.status, 200);
    const data = envelope.data;
    // The spec's fields in the spec's order, then our additive ones.
    assert.deepEqual(Object.keys(data), [
      'domain',
      'status',
      'records',
      'zoneConfirmed',
      'type',
      'lastCheckedAt',
      'nextCheckAt',
      'provider',
      'providers',
      'domainConnect',
      'dkim',
    ]);
    assert.equal(data.lastCheckedAt, null);
    assert.equal(data.zoneConfirmed, false, 'this test’s DNS shows no zone');
    assert.equal(data.provider, null, 'no DNS provider known before the first check');
    assert.deepEqual(data.providers, []);
    assert.equal(data.domainConnect, null, 'nor Domain Connect');
    // the keys are made in the background, after the answer
    assert.deepEqual(data.dkim, {
      selectors: data.records.slice(0, 3).map((r: { record: string }) => ({
        selector: r.record,
        state: null,
        keyCreatedAt: null,
        since: null,
      })),
      rotatedAt: null,
      nextRotationAt: null,
      rotationRequestedAt: null,
    });
    assert.equal(data.domain, 'mail.acme.example');
    assert.equal(data.status, 'pending');
    assert.equal(data.type, 'Transactional');
    assert.equal(data.records.length, 4);
    const tokens = new Set<string>();
    for (const record of data.records.slice(0, 3)) {
      assert.deepEqual(Object.keys(record), [
        'name',
        'type',
        'value',
        'status',
        'record',
        'ttl',
        'fqdn',
        'zone',
        'reason',
        'found',
        'detail',
        'lastCheckedAt',
        'providerHints',
      ]);
      assert.deepEqual(record.providerHints, []);
      assert.match(record.record, /^[a-z2-7]{32}$/);
      tokens.add(record.record);
      assert.equal(record.type, 'CNAME');
      assert.equal(record.name, `${record.record}._domainkey.mail`);
      assert.equal(record.value, `${record.record}.dkim.provider.test`);
      assert.equal(record.fqdn, `${record.record}._domainkey.mail.acme.example`);
      assert.equal(record.status, 'pending');
      assert.equal(record.ttl, 'Auto');
    }
    assert.equal(tokens.size, 3, 'three distinct selector tokens');
    assert.deepEqual(data.records[3], {
      name: '_dmarc.mail',
      type: 'TXT',
      value: '"v=DMARC1; p=none;"',
      status: 'pending',
      record: '"v=DMARC1; p=none;"',
      ttl: 'Auto',
      fqdn: '_dmarc.mail.acme.example',
      zone: 'acme.example',
      reason: null,
      found: null,
      detail: null,
      lastCheckedAt: null,
      providerHints: [],
    });
  });

  test('registration is idempotent: same tokens; a new domainType updates the type', async () => {
    const first = await register([{ domain: 'idem.example', domainType: 'Transactional' }]);
    const again = await register([{ domain: 'IDEM.example.', domainType: 'transactional' }]);
    assert.deepEqual(specView(again.body[0].data), specView(first.body[0].data));
    const retyped = await register([{ domain: 'idem.example', domainType: 'MARKETING' }]);
    assert.equal(retyped.body[0].data.type, 'Marketing');
    assert.deepEqual(specView(retyped.body[0].data).records, specView(first.body[0].data).records);
    const polled = await status(['idem.example']);
    assert.equal(polled.body[0].data.type, 'Marketing');
  });

  test('results come back in request order, one bad entry failing alone', async () => {
    const res = await register([
      { domain: 'one.example', domainType: 'Transactional' },
      { domain: 'co.uk', domainType: 'Transactional' },
      { domain: 'two.example', domainType: 'Newsletter' },
      { domain: 'Bücher.example', domainType: 'Marketing' },
      { domain: '192.0.2.7', domainType: 'Marketing' },
      { domain: 'аpple.example', domainType: 'Marketing' },
    ]);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((e: any) => [e.status, e.data?.domain ?? e.error.code]),
      [
        [200, 'one.example'],
        [400, 'DOMAIN_PUBLIC_SUFFIX'],
        [400, 'DOMAIN_TYPE_INVALID'],
        [200, 'xn--bcher-kva.example'],
        [400, 'DOMAIN_IP_ADDRESS'],
        [400, 'DOMAIN_MIXED_SCRIPTS'],
      ],
    );
    for (const failed of res.body.filter((e: any) => e.status !== 200)) {
      assert.equal(failed.data, null);
      assert.ok(failed.error.message.length > 0);
    }
  });

  test('the same domain twice with different types is a conflict for the second', async () => {
    const res = await register([
      { domain: 'twice.example', domainType: 'Transactional' },
      { domain: 'twice.example', domainType: 'Marketing' },
      { domain: 'twice.example', domainType: 'Transactional' },
    ]);
    assert.deepEqual(
      res.body.map((e: any) => e.status),
      [200, 409, 200],
    );
    assert.equal(res.body[1].error.code, 'DOMAIN_TYPE_CONFLICT');
    assert.deepEqual(specView(res.body[2].data), specView(res.body[0].data));
  });

  test('a batch of 100 registers in one request with unique tokens', async () => {
    const domains = Array.from({ length: 100 }, (_, i) => ({
      domain: `batch${i}.example`,
      domainType: 'Marketing',
    }));
    const res = await register(domains);
    assert.equal(res.body.filter((e: any) => e.status === 200).length, 100);
    const tokens = res.body.flatMap((e: any) => e.data.records.slice(0, 3).map((r: any) => r.record));
    assert.equal(new Set(tokens).size, 300);
  });
});

describe('POST /api/public/domain/status', () => {
  test('reflects the registration, and reports names never registered as 404 items', async () => {
    const registered = await register([{ domain: 'polled.example', domainType: 'Marketing' }]);
    const res = await status(['polled.example', 'never.example', 'not a domain', 'Polled.Example.']);
    assert.equal(res.status, 200);
    assert.deepEqual(specView(res.body[0].data), specView(registered.body[0].data));
    assert.equal(res.body[0].status, 200);
    assert.deepEqual(res.body[1], {
      data: null,
      error: { code: 'DOMAIN_NOT_REGISTERED', message: 'never.example is not registered to this account' },
      status: 404,
    });
    assert.equal(res.body[2].error.code, 'DOMAIN_INVALID_CHARACTER');
    assert.equal(res.body[2].status, 400);
    assert.deepEqual(specView(res.body[3].data), specView(registered.body[0].data));
  });

  test('an empty list gives an empty array', async () => {
    const res = await status([]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, []);
  });
});

describe('GET /api/public/domain', () => {
  test('pages through every registration in name order', async () => {
    const { key: own } = await t.createKey({ name: 'lister' });
    const names = Array.from({ length: 7 }, (_, i) => `p${i}.list.example`);
    await register(
      names.map((domain) => ({ domain, domainType: 'Transactional' })),
      own,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3';
      const res = await t.request('GET', `/api/public/domain${query}`, { key: own });
      assert.equal(res.status, 200);
      assert.deepEqual(res.contractProblems, []);
      seen.push(...res.body.data.domains.map((d: any) => d.domain));
      cursor = res.body.data.nextCursor;
      pages += 1;
    } while (cursor !== null);
    assert.deepEqual(seen, [...names].sort());
    assert.equal(pages, 3);
  });

  test('rejects a bad limit or cursor with REQUEST_INVALID', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?cursor=%25%25', '?other=1']) {
      const res = await t.request('GET', `/api/public/domain${query}`, { key });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'REQUEST_INVALID', query);
      assert.deepEqual(res.contractProblems, []);
    }
  });
});

describe('DELETE /api/public/domain', () => {
  test('deletes registrations, per item, and they are gone afterwards', async () => {
    await register([{ domain: 'doomed.example', domainType: 'Transactional' }]);
    const res = await t.request('DELETE', '/api/public/domain', {
      key,
      body: { domains: ['doomed.example', 'ghost.example'] },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.contractProblems, []);
    assert.deepEqual(res.body[0], {
      data: { domain: 'doomed.example', deleted: true },
      error: null,
      status: 200,
    });
    assert.equal(res.body[1].error.code, 'DOMAIN_NOT_REGISTERED');
    const after = await status(['doomed.example']);
    assert.equal(after.body[0].status, 404);
    const again = await register([{ domain: 'doomed.example', domainType: 'Transactional' }]);
    assert.equal(again.body[0].status, 200, 'a deleted domain can be registered again');
  });
});

describe('regression: an overlong name failed its whole batch with a request-level 400', () => {
  // The schema capped names at 1024 characters, so one overlong name made the request a
  // REQUEST_INVALID and its good neighbours were never registered, polled or deleted.
  const overlong = `${'a'.repeat(1100)}.com`;
  const longLabels = `${'b'.repeat(300)}.com`;
  const tooLong = (e: any, length: number) => {
    assert.equal(e.status, 400);
    assert.equal(e.data, null);
    assert.equal(e.error.code, 'DOMAIN_TOO_LONG');
    assert.match(e.error.message, new RegExp(`^domain is ${length} characters; at most 209 are allowed`));
  };

  test('register: the overlong entries fail alone, the good one is registered', async () => {
    const res = await register([
      { domain: 'good.overlong.example', domainType: 'Transactional' },
      { domain: overlong, domainType: 'Transactional' },
      { domain: longLabels, domainType: 'Marketing' },
      { domain: 'type.overlong.example', domainType: 'T'.repeat(100) },
    ]);
    assert.equal(res.status, 200);
    assert.equal(res.body[0].status, 200);
    assert.equal(res.body[0].data.domain, 'good.overlong.example');
    tooLong(res.body[1], 1104);
    tooLong(res.body[2], 304);
    assert.equal(res.body[3].error.code, 'DOMAIN_TYPE_INVALID');
  });

  test('status: the overlong name fails alone', async () => {
    await register([{ domain: 'polled.overlong.example', domainType: 'Transactional' }]);
    const res = await status(['polled.overlong.example', overlong]);
    assert.equal(res.status, 200);
    assert.equal(res.body[0].status, 200);
    tooLong(res.body[1], 1104);
  });

  test('delete: the overlong name fails alone, the good one is deleted', async () => {
    await register([{ domain: 'doomed.overlong.example', domainType: 'Transactional' }]);
    const res = await t.request('DELETE', '/api/public/domain', {
      key,
      body: { domains: [overlong, 'doomed.overlong.example'] },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.contractProblems, []);
    tooLong(res.body[0], 1104);
    assert.deepEqual(res.body[1].data, { domain: 'doomed.overlong.example', deleted: true });
  });
});

describe('accounts', () => {
  test('an account never sees another account’s registration of the same name; both can exist', async () => {
    const a = await t.createKey({ name: 'a' });
    const b = await t.createKey({ name: 'b' });
    const ra = await register([{ domain: 'shared.example', domainType: 'Transactional' }], a.key);
    assert.equal((await status(['shared.example'], b.key)).body[0].status, 404);
    const listB = await t.request('GET', '/api/public/domain', { key: b.key });
    assert.deepEqual(listB.body.data.domains, []);
    const delB = await t.request('DELETE', '/api/public/domain', {
      key: b.key,
      body: { domains: ['shared.example'] },
    });
    assert.equal(delB.body[0].status, 404);
    const rb = await register([{ domain: 'shared.example', domainType: 'Marketing' }], b.key);
    assert.equal(rb.body[0].status, 200);
    assert.notDeepEqual(rb.body[0].data.records, ra.body[0].data.records, 'each account has its own tokens');
    assert.deepEqual(
      specView((await status(['shared.example'], a.key)).body[0].data),
      specView(ra.body[0].data),
      'A is untouched',
    );
  });

  test('two keys of one account see the same domains', async () => {
    const first = await t.createKey({ name: 'first' });
    const second = await t.createKey({ name: 'second', accountId: first.accountId });
    const registered = await register([{ domain: 'team.example', domainType: 'Marketing' }], first.key);
    assert.deepEqual(
      specView((await status(['team.example'], second.key)).body[0].data),
      specView(registered.body[0].data),
    );
  });
});

describe('POST /api/public/domain/dkim/rotate', () => {
  const rotate = async (domain: unknown, k = key) => {
    const res = await t.request('POST', '/api/public/domain/dkim/rotate', { key: k, body: { domain } });
    assert.deepEqual(res.contractProblems, []);
    return res;
  };

  test('a name this account never registered is DKIM_ROTATION_DOMAIN_UNKNOWN (404), also another account’s', async () => {
    await register([{ domain: 'rotate-theirs.acme.example', domainType: 'Transactional' }]);
    const other = (await t.createKey()).key;
    for (const [name, k] of [
      ['never.acme.example', key],
      ['rotate-theirs.acme.example', other],
      ['not a domain', key],
    ] as const) {
      const res = await rotate(name, k);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'DKIM_ROTATION_DOMAIN_UNKNOWN');
      assert.match(res.body.error.message, /is not registered to this account/);
    }
  });

  test('a domain whose CNAMEs are not published cannot rotate: DKIM_ROTATION_UNAVAILABLE (409) says why; nothing changes', async () => {
    await register([{ domain: 'rotate-pending.acme.example', domainType: 'Transactional' }]);
    // its keys may still be being made (they queue behind this file's other registrations)
    const res = await rotate('rotate-pending.acme.example');
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'DKIM_ROTATION_UNAVAILABLE');
    assert.match(res.body.error.message, /are still being made|has a DKIM CNAME that is not in its DNS/);
    const after = (await status(['rotate-pending.acme.example'])).body[0].data.dkim;
    assert.equal(after.rotationRequestedAt, null);
    assert.equal(after.rotatedAt, null);
  });

  test('the body is exactly {domain}: anything else is REQUEST_INVALID', async () => {
    for (const body of [{}, { domain: 'a.acme.example', extra: 1 }, { domains: ['a.acme.example'] }]) {
      const res = await t.request('POST', '/api/public/domain/dkim/rotate', { key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'REQUEST_INVALID');
    }
  });
});
