/**
 * Accepting mail (issue 21) through the real server: what is refused, with which code, before
 * anything is queued; idempotent retries; the account's sending rate. The worker is off here:
 * delivery, signing and bounces are tested against Postfix in `sending.test.ts`.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type BindServer, startBind } from '../../test-support/bind.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { waitUntil } from '../../test-support/wait.js';

let bind: BindServer;
let t: TestServer;
let key: string;
const VERIFIED = 'news.shop.test';
const PENDING = 'pending.shop.test';

async function call(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.request(method, route, { key, ...(body !== undefined && { body }), headers });
  assert.deepEqual(res.contractProblems, [], JSON.stringify(res.body));
  return res;
}

/** A server that accepts mail and sends none (the worker is off), verifying through the test BIND. */
const acceptingServer = (env: Record<string, string>) =>
  startTestServer({
    DNS_RESOLVERS: bind.address,
    STATUS_CHECK_MAX_AGE_MS: '0',
    SENDING_ENABLED: 'false',
    ...env,
  });

/** A new account on `server` with `domain` registered, its CNAMEs published and verified; its key. */
async function accountWithVerified(server: TestServer, domain: string) {
  const fresh = await server.createKey();
  const registered = await server.request('POST', '/api/public/domain', {
    key: fresh.key,
    body: { domains: [{ domain, domainType: 'Transactional' }] },
  });
  for (const record of registered.body[0].data.records.filter((r: { type: string }) => r.type === 'CNAME'))
    await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  const [status] = (
    await server.request('POST', '/api/public/domain/status', { key: fresh.key, body: { domains: [domain] } })
  ).body;
  assert.equal(status.data.status, 'verified');
  return fresh;
}

/**
 * A POST of `text` to the send route over plain node:http, which shows what fetch hides: the
 * `Connection` header, a body sent in 16 KiB chunks without `Content-Length` (`chunked`), or a
 * `Content-Length` declared for a body never sent (`declared`).
 */
function rawSend(
  server: TestServer,
  key: string,
  text: string,
  options: { chunked?: boolean; declared?: number } = {},
): Promise<{ status?: number; connection?: string; code?: string }> {
  return new Promise((resolve, reject) => {
    const length = options.declared ?? (options.chunked ? undefined : Buffer.byteLength(text));
    const req = httpRequest(
      `${server.url}/api/public/emails`,
      {
        method: 'POST',
        headers: {
          authorization: key,
          'content-type': 'application/json',
          ...(length !== undefined && { 'content-length': length }),
        },
      },
      (res) => {
        let answer = '';
        res.on('data', (d) => (answer += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            connection: res.headers.connection,
            code: JSON.parse(answer).error?.code,
          }),
        );
      },
    );
    req.on('error', reject);
    if (options.declared === undefined)
      for (let i = 0; i < text.length; i += 16_384) req.write(text.slice(i, i + 16_384));
    req.end();
  });
}

const message = (extra: Record<string, unknown> = {}) => ({
  from: `Shop <hello@${VERIFIED}>`,
  to: ['ann@example.org'],
  subject: 'Hello',
  html: '<p>Hello <b>Ann</b></p>',
  ...extra,
});

before(async () => {
  bind = await startBind({ zones: ['shop.test'] });
  t = await acceptingServer({
    MAX_RECIPIENTS_PER_EMAIL: '3',
    MAX_EMAIL_BYTES: '4096',
    MAX_EMAILS_PER_MINUTE: '1000',
  });
  ({ key } = await t.createKey());
  const registered = await call('POST', '/api/public/domain', {
    domains: [
      { domain: VERIFIED, domainType: 'Transactional' },
      { domain: PENDING, domainType: 'Transactional' },
    ],
  });
  for (const record of registered.body[0].data.records.filter((r: { type: string }) => r.type === 'CNAME'))
    await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  // a check whose DNS answer came late on a loaded machine leaves the status as it was: poll
  const status = () => call('POST', '/api/public/domain/status', { domains: [VERIFIED] });
  await waitUntil(`${VERIFIED} verified`, async () => (await status()).body[0].data.status === 'verified', {
    seen: async () => (await status()).body[0].data,
  });
});
after(async () => {
  await t?.close();
  await bind?.close();
});

describe('POST /api/public/emails', () => {
  test('a message from a verified domain is queued, and its status lists each recipient once', async () => {
    const res = await call(
      'POST',
      '/api/public/emails',
      message({
        to: ['ann@example.org', 'Bob <bob@example.org>'],
        cc: ['ANN@example.org'],
        bcc: ['carol@example.org'],
      }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.status, 'queued');
    assert.match(res.body.data.id, /^eml_/);
    const read = await call('GET', `/api/public/emails/${res.body.data.id}`);
    assert.equal(read.status, 200);
    const email = read.body.data;
    assert.equal(email.status, 'queued');
    assert.equal(email.from, `hello@${VERIFIED}`);
    assert.deepEqual(
      email.recipients.map((r: any) => [r.address, r.kind, r.status, r.attempts, r.events.length]),
      [
        ['ann@example.org', 'to', 'queued', 0, 0],
        ['bob@example.org', 'to', 'queued', 0, 0],
        ['carol@example.org', 'bcc', 'queued', 0, 0],
      ],
    );
  });

  test('from a domain that is not verified, or not this account’s: EMAIL_FROM_NOT_VERIFIED', async () => {
    for (const from of [`a@${PENDING}`, 'a@other.shop.test']) {
      const res = await call('POST', '/api/public/emails', message({ from }));
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'EMAIL_FROM_NOT_VERIFIED');
    }
    const other = await t.createKey();
    const res = await t.request('POST', '/api/public/emails', { key: other.key, body: message() });
    assert.equal(res.status, 403);
    assert.match(res.body.error.message, /not a registered domain of this account/);
  });

  test('addresses, headers and content that could not be sent as given are refused, naming the field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { to: ['ann@example.org\r\nBcc: victim@example.org'] },
        'EMAIL_ADDRESS_INVALID',
        /to\[0\] must not contain line breaks/,
      ],
      [{ to: ['not an address'] }, 'EMAIL_ADDRESS_INVALID', /to\[0\]/],
      [{ cc: ['a@b@example.org'] }, 'EMAIL_ADDRESS_INVALID', /cc\[0\]/],
      [
        { from: 'Shop <hello@news.shop.test>, evil@example.org' },
        'EMAIL_ADDRESS_INVALID',
        /from must be one address/,
      ],
      [{ to: ['ann@localhost'] }, 'EMAIL_ADDRESS_INVALID', /to\[0\]/],
      // UTF-8 is taken (RFC 6531), but not invisible characters, nor past 64 octets
      [
        { to: ['ann\u200blee@example.org'] },
        'EMAIL_ADDRESS_INVALID',
        /to\[0\]: .* is not an address we can send to/,
      ],
      [
        { to: [`${'ü'.repeat(33)}@example.org`] },
        'EMAIL_ADDRESS_INVALID',
        /to\[0\]: .* is not an address we can send to/,
      ],
      [{ headers: { 'X-Campaign': 'a\r\nBcc: victim@example.org' } }, 'EMAIL_HEADER_INVALID', /one line/],
      [{ headers: { From: 'ceo@bank.example' } }, 'EMAIL_HEADER_INVALID', /From is set by the service/],
      [{ headers: { 'Bad Name': 'x' } }, 'EMAIL_HEADER_INVALID', /not a header name/],
      // issue 33: trace and authentication headers were accepted and delivered
      ...[
        'Authentication-Results',
        'ARC-Seal',
        'Received-SPF',
        'Resent-From',
        'X-Original-From',
        'Return-Path',
        'delivered-to',
      ].map((name): [Record<string, unknown>, string, RegExp] => [
        { headers: { [name]: 'mx.bank.example; dkim=pass' } },
        'EMAIL_HEADER_INVALID',
        new RegExp(`${name} is written by the mail servers a message passes through`),
      ]),
      ...['Content-Disposition', 'DKIM-Signature', 'content-type'].map(
        (name): [Record<string, unknown>, string, RegExp] => [
          { headers: { [name]: 'attachment' } },
          'EMAIL_HEADER_INVALID',
          new RegExp(`${name} is set by the service`),
        ],
      ),
      [
        { attachments: [{ filename: 'setup.exe', content: 'TVo=' }] },
        'EMAIL_ATTACHMENT_BLOCKED',
        /attachments\[0\]: "setup\.exe" is a \.exe file/,
      ],
      [
        { attachments: [{ filename: 'invoice.pdf', content: Buffer.from('MZ....').toString('base64') }] },
        'EMAIL_ATTACHMENT_BLOCKED',
        /holds a Windows executable/,
      ],
      [
        { attachments: [{ filename: 'a.txt', content: '%%%' }] },
        'EMAIL_ATTACHMENT_INVALID',
        /attachments\[0\]: content is not base64/,
      ],
      [{ html: undefined }, 'EMAIL_CONTENT_MISSING', /exactly one of html and templateId/],
      [{ templateId: 'tpl_x' }, 'EMAIL_CONTENT_MISSING', /exactly one/],
      [
        { to: ['a@example.org', 'b@example.org'], cc: ['c@example.org'], bcc: ['d@example.org'] },
        'EMAIL_TOO_MANY_RECIPIENTS',
        /4 different addresses; at most 3/,
      ],
    ];
    for (const [extra, code, text] of cases) {
      const res = await call('POST', '/api/public/emails', message(extra));
      assert.equal(res.body.error?.code, code, JSON.stringify(extra));
      assert.match(res.body.error.message, text);
    }
    // attachments count decoded, before anything is composed: a 4,100-byte file is over 4,096
    const attached = await call(
      'POST',
      '/api/public/emails',
      message({ attachments: [{ filename: 'a.bin', content: Buffer.alloc(4_100).toString('base64') }] }),
    );
    assert.equal(attached.status, 413);
    assert.match(
      attached.body.error.message,
      /^html, text and attachments hold 41\d\d bytes; a message holds at most 4096/,
    );
    const big = await call('POST', '/api/public/emails', message({ html: `<p>${'x'.repeat(5000)}</p>` }));
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, 'EMAIL_TOO_LARGE');
    assert.match(big.body.error.message, /^html and text hold 5007 bytes/);
    // under the limit as given, over it with the text part and the headers
    const composed = await call(
      'POST',
      '/api/public/emails',
      message({ html: `<p>${'x'.repeat(3000)}</p>` }),
    );
    assert.equal(composed.status, 413);
    assert.match(composed.body.error.message, /^the message is \d+ bytes once composed; at most 4096$/);
    const noTemplate = await call(
      'POST',
      '/api/public/emails',
      message({ html: undefined, templateId: 'tpl_nope' }),
    );
    assert.equal(noTemplate.status, 404);
    assert.equal(noTemplate.body.error.code, 'TEMPLATE_NOT_FOUND');
    const missing = await call('GET', '/api/public/emails/eml_nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'EMAIL_NOT_FOUND');
  });

  test('an Idempotency-Key retry answers the first message; the key with another body is refused', async () => {
    const headers = { 'idempotency-key': 'order-1234' };
    const first = await call('POST', '/api/public/emails', message(), headers);
    const again = await call('POST', '/api/public/emails', message(), headers);
    assert.equal(again.status, 200);
    assert.equal(again.body.data.id, first.body.data.id);
    const changed = await call('POST', '/api/public/emails', message({ subject: 'Other' }), headers);
    assert.equal(changed.status, 409);
    assert.equal(changed.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
    const bad = await call('POST', '/api/public/emails', message(), { 'idempotency-key': 'has space' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'IDEMPOTENCY_KEY_INVALID');
    // Ten retries at once: one message.
    const racing = await Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', '/api/public/emails', message(), { 'idempotency-key': 'race-1' }),
      ),
    );
    assert.equal(new Set(racing.map((r) => r.body.data.id)).size, 1);
  });

  test('browser keys cannot send', async () => {
    const browser = await t.createKey({ scopes: ['templates', 'images'] });
    const res = await t.request('POST', '/api/public/emails', { key: browser.key, body: message() });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'AUTH_SCOPE');
  });
});

test('a key limited to one domain (issue 37) sends from it alone and reads only its mail; the suppressions are not its', async () => {
  const OTHER = 'other.shop.test';
  const registered = await call('POST', '/api/public/domain', {
    domains: [{ domain: OTHER, domainType: 'Transactional' }],
  });
  for (const record of registered.body[0].data.records.filter((r: { type: string }) => r.type === 'CNAME'))
    await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  const status = () => call('POST', '/api/public/domain/status', { domains: [OTHER] });
  await waitUntil(`${OTHER} verified`, async () => (await status()).body[0].data.status === 'verified');

  const made = await call('POST', '/api/public/keys', {
    name: 'customer',
    domains: [`${VERIFIED.toUpperCase()}.`],
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.deepEqual([made.body.data.scopes, made.body.data.domains], [['sending'], [VERIFIED]]);
  const limited = made.body.data.key as string;
  const as = async (k: string, method: string, route: string, body?: unknown) => {
    const res = await t.request(method, route, { key: k, ...(body !== undefined && { body }) });
    assert.deepEqual(res.contractProblems, [], JSON.stringify(res.body));
    return res;
  };

  const own = await as(limited, 'POST', '/api/public/emails', message({ subject: 'Mine' }));
  assert.equal(own.status, 200, JSON.stringify(own.body));
  const notOwn = await as(limited, 'POST', '/api/public/emails', message({ from: `hi@${OTHER}` }));
  assert.equal(notOwn.status, 403);
  assert.equal(notOwn.body.error.code, 'EMAIL_FROM_NOT_ALLOWED');
  assert.match(notOwn.body.error.message, new RegExp(`only from ${VERIFIED.replace(/\./g, '\\.')}`));
  const batch = await as(limited, 'POST', '/api/public/emails/batch', {
    emails: [message({ subject: 'Mine too' }), message({ from: `hi@${OTHER}` })],
  });
  assert.deepEqual(
    batch.body.map((e: any) => e.error?.code ?? e.data.status),
    ['queued', 'EMAIL_FROM_NOT_ALLOWED'],
  );

  // the full key's message from the other domain does not exist for the limited key
  const theirs = await as(
    key,
    'POST',
    '/api/public/emails',
    message({ from: `hi@${OTHER}`, subject: 'Theirs' }),
  );
  const later = await as(
    key,
    'POST',
    '/api/public/emails',
    message({ from: `hi@${OTHER}`, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }),
  );
  for (const [method, route] of [
    ['GET', `/api/public/emails/${theirs.body.data.id}`],
    ['GET', `/api/public/emails/${theirs.body.data.id}/content`],
    ['POST', `/api/public/emails/${later.body.data.id}/cancel`],
  ] as const) {
    const hidden = await as(limited, method, route);
    assert.equal(hidden.status, 404, route);
    assert.equal(hidden.body.error.code, 'EMAIL_NOT_FOUND', route);
  }
  const moved = await as(limited, 'PATCH', `/api/public/emails/${later.body.data.id}`, {
    scheduledAt: new Date(Date.now() + 7_200_000).toISOString(),
  });
  assert.equal(moved.body.error.code, 'EMAIL_NOT_FOUND');
  assert.equal((await as(limited, 'GET', `/api/public/emails/${own.body.data.id}`)).status, 200);
  assert.equal((await as(limited, 'GET', `/api/public/emails/${own.body.data.id}/content`)).status, 200);
  const listed = (await as(limited, 'GET', '/api/public/emails?limit=100')).body.data.emails;
  assert.ok(listed.length >= 2);
  assert.ok(
    listed.every((e: any) => e.from.endsWith(`@${VERIFIED}`)),
    JSON.stringify(listed),
  );
  assert.deepEqual((await as(limited, 'GET', `/api/public/emails?domain=${OTHER}`)).body.data.emails, []);
  const fullList = (await as(key, 'GET', `/api/public/emails?domain=${OTHER}`)).body.data.emails;
  assert.equal(fullList.length, 2);
  for (const route of ['/api/public/suppressions', '/api/public/keys', '/api/public/webhooks']) {
    const refused = await as(limited, 'GET', route);
    assert.equal(refused.status, 403, route);
    assert.equal(refused.body.error.code, 'AUTH_SCOPE', route);
  }
  assert.equal((await as(limited, 'DELETE', '/api/public/suppressions/a%40b.test')).status, 403);
});

test('a key is limited only to domains the account holds, as a sending key', async () => {
  const refusals: [unknown, number, string][] = [
    [{ name: 'x', domains: ['not-registered.shop.test'] }, 404, 'DOMAIN_NOT_REGISTERED'],
    [{ name: 'x', domains: ['not a domain'] }, 400, 'DOMAIN_INVALID_CHARACTER'],
    [{ name: 'x', domains: [VERIFIED], scopes: ['*'] }, 400, 'REQUEST_INVALID'],
    [{ name: 'x', domains: [VERIFIED], scopes: ['templates'] }, 400, 'REQUEST_INVALID'],
    [{ name: 'x', domains: [] }, 400, 'REQUEST_INVALID'],
    [{ name: 'x', scope: ['sending'], scopes: ['sending'] }, 400, 'REQUEST_INVALID'],
  ];
  for (const [body, status, code] of refusals) {
    const res = await call('POST', '/api/public/keys', body);
    assert.equal(res.status, status, JSON.stringify(body));
    assert.equal(res.body.error.code, code, JSON.stringify(res.body));
  }
  // the issue's own spelling: `scope`, `sending`
  const spelled = await call('POST', '/api/public/keys', {
    name: 'y',
    scope: ['sending'],
    domains: [VERIFIED],
  });
  assert.equal(spelled.status, 200, JSON.stringify(spelled.body));
  assert.deepEqual([spelled.body.data.scopes, spelled.body.data.domains], [['sending'], [VERIFIED]]);
  assert.match(spelled.body.data.key, /^sk_/);
  // another account's domain is not this account's
  const other = await accountWithVerified(t, 'elsewhere.shop.test');
  const res = await t.request('POST', '/api/public/keys', {
    key: other.key,
    body: { name: 'x', domains: [VERIFIED] },
  });
  assert.equal(res.body.error.code, 'DOMAIN_NOT_REGISTERED');
  // a sending key not limited sends from any domain of the account
  const sending = await call('POST', '/api/public/keys', { name: 'sender', scope: ['sending'] });
  assert.deepEqual([sending.body.data.scopes, sending.body.data.domains], [['sending'], null]);
  const sent = await t.request('POST', '/api/public/emails', { key: sending.body.data.key, body: message() });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
});

test('past MAX_EMAILS_PER_MINUTE in a minute an account gets 429 ACCOUNT_SENDING_RATE with Retry-After until the next', async () => {
  const limited = await acceptingServer({
    MAX_EMAILS_PER_MINUTE: '3',
  });
  try {
    const domain = 'rate.shop.test';
    const fresh = await accountWithVerified(limited, domain);
    const send = () =>
      limited.request('POST', '/api/public/emails', {
        key: fresh.key,
        body: message({ from: `a@${domain}` }),
      });
    // The count is per clock minute: start well inside one.
    if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000)));
    for (let i = 0; i < 3; i++) assert.equal((await send()).status, 200);
    const refused = await send();
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'ACCOUNT_SENDING_RATE');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    // a batch takes its share at once, in order: the entries past the limit are refused alone
    const other = 'rate2.shop.test';
    const second = await accountWithVerified(limited, other);
    if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000)));
    const batch = await limited.request('POST', '/api/public/emails/batch', {
      key: second.key,
      body: { emails: Array.from({ length: 5 }, () => message({ from: `a@${other}` })) },
    });
    assert.equal(batch.status, 200, JSON.stringify(batch.body));
    assert.deepEqual(
      batch.body.map((e: any) => e.error?.code ?? e.data.status),
      ['queued', 'queued', 'queued', 'ACCOUNT_SENDING_RATE', 'ACCOUNT_SENDING_RATE'],
    );
  } finally {
    await limited.close();
  }
});

test('hostile content (issue 33): too large before any parsing, nested too deep, and an account past its composition budget', async () => {
  const MAX = 1_500_000;
  const BUDGET = 200;
  const hardened = await acceptingServer({
    MAX_EMAIL_BYTES: String(MAX),
    EMAIL_COMPOSE_BUDGET: String(BUDGET),
    // one window for the whole test: a budget that refilled mid-test would hide a refusal
    RATE_LIMIT_WINDOW_MS: '86400000',
  });
  try {
    const domain = 'hostile.shop.test';
    const fresh = await accountWithVerified(hardened, domain);
    // `text` given: the filler below must not double in size when composed
    const body = (html: string, text?: string) =>
      message({ from: `a@${domain}`, html, ...(text !== undefined && { text }) });
    /** What a request costs: one unit per started 16 KiB of its body, charged before it is read. */
    const units = (html: string, text?: string) =>
      Math.ceil(Buffer.byteLength(JSON.stringify(body(html, text))) / 16_384);
    const send = async (html: string, text?: string) => {
      const res = await hardened.request('POST', '/api/public/emails', {
        key: fresh.key,
        body: body(html, text),
      });
      assert.deepEqual(res.contractProblems, []);
      return res;
    };

    // Over MAX_EMAIL_BYTES as given: refused from its size alone, before html-to-text ran (it
    // took 20–40 s for 10 MB of this markup).
    const hugeHtml = `<p>${'word <b>x</b> '.repeat(Math.ceil(MAX / 14))}`;
    const huge = await send(hugeHtml);
    assert.equal(huge.status, 413);
    assert.equal(huge.body.error.code, 'EMAIL_TOO_LARGE');
    assert.match(huge.body.error.message, /^html and text hold \d+ bytes; a message holds at most 1500000$/);

    // 200,000 nested elements overflowed html-to-text's stack: a 500, now a documented 400.
    const deepHtml = `${'<div>'.repeat(200_000)}x`;
    const deep = await send(deepHtml);
    assert.equal(deep.status, 400, JSON.stringify(deep.body));
    assert.equal(deep.body.error.code, 'EMAIL_HTML_TOO_DEEP');

    // Both were charged by their bodies. A message whose body leaves one unit fits; then one
    // of two units does not, and one of one unit takes the last.
    const spent = units(hugeHtml) + units(deepHtml);
    const filler = (n: number) => {
      const overhead = Buffer.byteLength(JSON.stringify(body('<p></p>', 'Hello')));
      return `<p>${'y'.repeat(n * 16_384 - overhead)}</p>`;
    };
    const left = BUDGET - spent - 1;
    assert.ok(left > 2, `the budget leaves ${left} units`);
    assert.equal(units(filler(left), 'Hello'), left);
    assert.equal((await send(filler(left), 'Hello')).status, 200);
    const over = await send(filler(2), 'Hello');
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, 'RATE_LIMITED');
    assert.match(
      over.body.error.message,
      new RegExp(
        `^this account has spent ${BUDGET - 1} of its ${BUDGET} composition units in this window and this request needs 2`,
      ),
    );
    assert.equal((await send('<p>one unit</p>')).status, 200);
    // Spent: refused before its body is read (a body that is not even JSON gets the 429).
    const refused = await fetch(`${hardened.url}/api/public/emails`, {
      method: 'POST',
      headers: { authorization: fresh.key, 'content-type': 'application/json' },
      body: '{not json',
    });
    assert.equal(refused.status, 429);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    // A large body refused unread closes its connection: kept, its rest would be read and
    // thrown away on the event loop.
    const large = JSON.stringify(body(filler(5), 'Hello'));
    const closed = await rawSend(hardened, fresh.key, large);
    assert.deepEqual(closed, { status: 429, connection: 'close', code: 'RATE_LIMITED' });
  } finally {
    await hardened.close();
  }
});

test('a chunked body (no Content-Length) is charged as it arrives; a body over the limit costs nothing', async () => {
  const hardened = await acceptingServer({
    MAX_EMAIL_BYTES: '100000',
    EMAIL_COMPOSE_BUDGET: '20',
    RATE_LIMIT_WINDOW_MS: '86400000',
  });
  try {
    const fresh = await hardened.createKey();
    const chunked = async (text: string) => {
      const { status, code } = await rawSend(hardened, fresh.key, text, { chunked: true });
      return { status, code };
    };
    // Issue 33's review: a chunked body was parsed whole and, refused after, never charged.
    // Two bodies of 10 units each (160 KB, refused as too large once parsed) spend the 20.
    const body = JSON.stringify(message({ html: 'x'.repeat(80_000), text: 'y'.repeat(80_000) }));
    assert.equal(Math.ceil(Buffer.byteLength(body) / 16_384), 10);
    for (let i = 0; i < 2; i++)
      assert.deepEqual(await chunked(body), { status: 413, code: 'EMAIL_TOO_LARGE' }, `body ${i + 1}`);
    assert.deepEqual(
      await chunked('{}'),
      { status: 429, code: 'RATE_LIMITED' },
      'spent: refused before the body',
    );

    // Over the route's body limit (2 × MAX_EMAIL_BYTES): 413 at once, whatever the budget.
    const other = await hardened.createKey();
    const over = (await rawSend(hardened, other.key, '', { declared: 300_000 })).status;
    assert.equal(over, 413);
  } finally {
    await hardened.close();
  }
});
