/**
 * MTA-STS's rules (RFC 8461) apart from the network: the policy file, MX patterns, the TXT
 * record, and what is kept when lookups fail. Delivery under a real policy (BIND, an https
 * policy host, MXes with and without a valid certificate) is in `sending.test.ts`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MtaSts, mxMatches, parsePolicy, RECHECK_MS, stsRecordId } from './mta-sts.js';

test('a policy file is read as §3.2 says: CRLF or LF, mx repeated, max_age capped at a year', () => {
  assert.deepEqual(
    parsePolicy(
      'version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: *.Example.NET.\r\nmax_age: 99999999999\r\n',
    ),
    { error: 'max_age is not a number of seconds' },
  );
  assert.deepEqual(
    parsePolicy(
      'version: STSv1\nmode: enforce\nmx: mx1.example.com\nmx: *.Example.NET.\nmax_age: 9999999999\n',
    ),
    {
      mode: 'enforce',
      mx: ['mx1.example.com', '*.example.net'],
      maxAge: 31_557_600,
    },
  );
  assert.deepEqual(parsePolicy('version: STSv1\nmode: none\nmax_age: 0\n'), {
    mode: 'none',
    mx: [],
    maxAge: 0,
  });
  assert.deepEqual(parsePolicy('version: STSv2\nmode: enforce\nmx: a\nmax_age: 1'), {
    error: 'version is not STSv1',
  });
  assert.deepEqual(parsePolicy('version: STSv1\nmode: enforce\nmax_age: 1'), {
    error: 'mode enforce names no mx',
  });
  assert.deepEqual(parsePolicy('version: STSv1\nmode: strict\nmx: a\nmax_age: 1'), {
    error: 'mode "strict" is not enforce, testing or none',
  });
  assert.match((parsePolicy('<html>not a policy</html>') as { error: string }).error, /without "key: value"/);
});

test('a wildcard stands for exactly the leftmost label', () => {
  const patterns = ['mx.example.com', '*.mail.example.net'];
  assert.equal(mxMatches('MX.example.com.', patterns), true);
  assert.equal(mxMatches('a.mail.example.net', patterns), true);
  assert.equal(mxMatches('a.b.mail.example.net', patterns), false);
  assert.equal(mxMatches('mail.example.net', patterns), false);
  assert.equal(mxMatches('evilmail.example.net', patterns), false);
});

test('the TXT record: one v=STSv1 record with an id, else none', () => {
  assert.equal(stsRecordId(['v=STSv1; id=20261127T1;']), '20261127T1');
  assert.equal(stsRecordId(['v=spf1 -all', 'v=STSv1; id=abc']), 'abc');
  assert.equal(stsRecordId(['v=STSv1; id=a', 'v=STSv1; id=b']), null);
  assert.equal(stsRecordId(['v=STSv1; id=has-dash']), null);
  assert.equal(stsRecordId([]), null);
});

/** An MtaSts whose DNS and https answers the test sets, counting each. */
function world() {
  const state = {
    now: 1_000_000,
    txt: ['v=STSv1; id=one'] as string[] | Error,
    body: 'version: STSv1\nmode: enforce\nmx: mx.example.com\nmax_age: 3600\n',
    status: 200,
    lookups: 0,
    fetches: 0,
  };
  const sts = new MtaSts({
    now: () => state.now,
    resolveTxt: async () => {
      state.lookups++;
      if (state.txt instanceof Error) throw state.txt;
      return state.txt;
    },
    get: async () => {
      state.fetches++;
      return { status: state.status, contentType: 'text/plain', text: state.body };
    },
  });
  return { state, sts };
}

test('a policy is fetched once, kept while valid, and kept through failed lookups (§5.1)', async () => {
  const { state, sts } = world();
  const policy = await sts.policyFor('Example.com');
  assert.equal(policy?.mode, 'enforce');
  // a burst within the recheck interval asks nothing
  await Promise.all([sts.policyFor('example.com'), sts.policyFor('example.com')]);
  assert.deepEqual([state.lookups, state.fetches], [1, 1]);
  // an attacker blocking DNS, then the policy host, cannot switch enforcement off
  state.now += RECHECK_MS;
  state.txt = Object.assign(new Error('SERVFAIL'), { code: 'ESERVFAIL' });
  assert.equal((await sts.policyFor('example.com'))?.mode, 'enforce');
  state.now += RECHECK_MS;
  state.txt = ['v=STSv1; id=two'];
  state.status = 503;
  assert.equal((await sts.policyFor('example.com'))?.mode, 'enforce');
  // a new id with a new policy replaces it
  state.now += RECHECK_MS;
  state.status = 200;
  state.body = 'version: STSv1\nmode: testing\nmx: mx.example.com\nmax_age: 3600\n';
  assert.equal((await sts.policyFor('example.com'))?.mode, 'testing');
  // past max_age with no record any more: no policy
  state.now += 3_600_000;
  state.txt = [];
  assert.equal(await sts.policyFor('example.com'), null);
});

test('a domain without a record, or whose policy is unreadable, has none', async () => {
  const { state, sts } = world();
  state.txt = [];
  assert.equal(await sts.policyFor('example.com'), null);
  state.now += RECHECK_MS;
  state.txt = ['v=STSv1; id=one'];
  state.body = 'version: STSv1\nmode: enforce\nmax_age: 3600\n';
  assert.equal(await sts.policyFor('example.com'), null);
  assert.deepEqual([state.lookups, state.fetches], [2, 1]);
});
