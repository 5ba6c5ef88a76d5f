/**
 * The templates API through HTTP against the real server, on SQLite and on PostgreSQL: CRUD,
 * per-item errors, limits, tenancy, scopes, CORS, and rendering with merge variables. Every
 * JSON response is checked against /openapi.json.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type PostgresServer, startPostgres } from '../../test-support/postgres.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const text = (value: string) => ({ type: 'text', text: value });
const para = (...content: object[]) => ({ type: 'paragraph', content });
const variable = (name: string, fallback = '') => ({ type: 'variable', attrs: { name, fallback } });
const doc = (...content: object[]) => ({ type: 'doc', content });

const WELCOME = doc(
  { type: 'heading', attrs: { level: 1 }, content: [text('Hello '), variable('first_name', 'friend')] },
  para(text('Your order '), variable('order.id'), text(' has shipped.')),
  { type: 'button', attrs: { text: 'Track it', href: 'https://shop.example/track?o={{order.id}}' } },
  { type: 'button', attrs: { text: 'Reset', href: '{{reset_url}}' } },
);

async function suite(backend: 'sqlite' | 'postgres') {
  let t: TestServer;
  let limited: TestServer;
  let postgres: PostgresServer | undefined;
  let key: string;
  let other: string;

  before(async () => {
    const env: Record<string, string> = {};
    if (backend === 'postgres') {
      postgres = await startPostgres();
      env.DATABASE_URL = await postgres.createDatabase();
    }
    t = await startTestServer(env);
    ({ key } = await t.createKey({ scopes: ['templates', 'images'] }));
    ({ key: other } = await t.createKey({ scopes: ['templates'] }));
    limited = await startTestServer({
      ...(postgres && { DATABASE_URL: await postgres.createDatabase() }),
      TEMPLATE_MAX_BYTES: '2048',
      TEMPLATE_BODY_LIMIT_BYTES: '8192',
      MAX_TEMPLATES_PER_ACCOUNT: '2',
      MAX_ITEMS_PER_REQUEST: '3',
    });
  });
  after(async () => {
    await t?.close();
    await limited?.close();
    await postgres?.stop();
  });

  async function call(method: string, route: string, body?: unknown, k = key, server = t) {
    const res = await server.request(method, route, { key: k, ...(body !== undefined && { body }) });
    assert.deepEqual(res.contractProblems, [], `${method} ${route}`);
    return res;
  }
  const create = async (templates: object[], k = key, server = t) =>
    (await call('POST', '/api/public/templates', { templates }, k, server)).body;

  test('saves, lists, reads, renames, replaces and deletes a template', async () => {
    const [created] = await create([{ name: '  Welcome  ', document: WELCOME }]);
    assert.equal(created.status, 200);
    assert.equal(created.error, null);
    const saved = created.data;
    assert.match(saved.id, /^tpl_[a-z2-7]+$/);
    assert.equal(saved.name, 'Welcome');
    assert.equal(saved.createdAt, saved.updatedAt);
    assert.equal(saved.document.type, 'doc');
    assert.equal(saved.size, Buffer.byteLength(JSON.stringify(saved.document)));

    const list = await call('GET', '/api/public/templates');
    assert.deepEqual(list.body.data.templates, [
      {
        id: saved.id,
        name: 'Welcome',
        size: saved.size,
        createdAt: saved.createdAt,
        updatedAt: saved.updatedAt,
      },
    ]);
    assert.equal(list.body.data.nextCursor, null);

    const read = await call('GET', `/api/public/templates/${saved.id}`);
    assert.deepEqual(read.body, { data: saved, error: null, status: 200 });

    await new Promise((r) => setTimeout(r, 5));
    const [renamed] = (
      await call('PATCH', '/api/public/templates', { templates: [{ id: saved.id, name: 'Hello' }] })
    ).body;
    assert.equal(renamed.data.name, 'Hello');
    assert.deepEqual(renamed.data.document, saved.document);
    assert.ok(renamed.data.updatedAt > saved.updatedAt);

    const replacement = doc(para(text('Second version')));
    const [replaced] = (
      await call('PATCH', '/api/public/templates', { templates: [{ id: saved.id, document: replacement }] })
    ).body;
    assert.equal(replaced.data.name, 'Hello');
    assert.equal(replaced.data.document.content[0].content[0].text, 'Second version');

    const deleted = await call('DELETE', '/api/public/templates', { ids: [saved.id, saved.id] });
    assert.deepEqual(deleted.body[0], { data: { id: saved.id, deleted: true }, error: null, status: 200 });
    assert.equal(deleted.body[1].error.code, 'TEMPLATE_NOT_FOUND');
    const gone = await call('GET', `/api/public/templates/${saved.id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'TEMPLATE_NOT_FOUND');
  });

  test('stores documents as the editor cleans them: unsafe URLs emptied, defaults filled', async () => {
    const [created] = await create([
      {
        name: 'Cleaned',
        document: doc(
          para({
            type: 'text',
            text: 'x',
            marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }],
          }),
          { type: 'image', attrs: { src: 'data:image/svg+xml;base64,PHN2Zz4=', alt: 'x', onload: 'evil()' } },
        ),
      },
    ]);
    const json = JSON.stringify(created.data.document);
    assert.ok(!json.includes('javascript:') && !json.includes('svg+xml') && !json.includes('onload'), json);
    assert.equal(created.data.document.attrs.width, 600);
  });

  test('fails bad entries alone, each with its code, and keeps their neighbours', async () => {
    const results = await create([
      { name: '', document: WELCOME },
      { name: 'x'.repeat(201), document: WELCOME },
      { name: 'tab\there', document: WELCOME },
      { name: 'Unknown block', document: doc({ type: 'marquee' }) },
      { name: 'Broken structure', document: doc({ type: 'listItem', content: [para(text('orphan'))] }) },
      { name: 'Not a doc', document: { type: 'paragraph' } },
      { name: 'Fine', document: WELCOME },
    ]);
    assert.deepEqual(
      results.map((r: any) => r.error?.code ?? r.data.name),
      [
        'TEMPLATE_NAME_INVALID',
        'TEMPLATE_NAME_INVALID',
        'TEMPLATE_NAME_INVALID',
        'TEMPLATE_DOCUMENT_INVALID',
        'TEMPLATE_DOCUMENT_INVALID',
        'TEMPLATE_DOCUMENT_INVALID',
        'Fine',
      ],
    );
    assert.deepEqual(
      results.slice(0, 6).map((r: any) => r.status),
      [400, 400, 400, 400, 400, 400],
    );
    assert.match(results[3].error.message, /marquee/);
  });

  test('refuses a malformed condition or repeats nested too deep, saying what and where (issue 38)', async () => {
    const repeat = (...content: object[]) => ({ type: 'repeat', attrs: { each: 'items' }, content });
    const results = await create([
      { name: 'Bad op', document: doc({ type: 'paragraph', attrs: { showIf: { var: 'plan', op: 'is' } } }) },
      { name: 'Too deep', document: doc(repeat(repeat(repeat(para(text('x')))))) },
      {
        name: 'Good',
        document: doc({ type: 'paragraph', attrs: { showIf: { var: 'plan', op: 'exists' } } }),
      },
    ]);
    assert.deepEqual(
      results.map((r: any) => r.error?.code ?? r.data.name),
      ['TEMPLATE_DOCUMENT_INVALID', 'TEMPLATE_DOCUMENT_INVALID', 'Good'],
    );
    assert.match(
      results[0].error.message,
      /doc\.content\[0\] \(paragraph\): op: must be one of exists, empty/,
    );
    assert.match(results[1].error.message, /repeats nest one level deep/);
    assert.deepEqual(results[2].data.document.content[0].attrs.showIf, { var: 'plan', op: 'exists' });
  });

  test('refuses shapes that are wrong for the whole request', async () => {
    for (const body of [
      { templates: [] },
      { templates: [{ name: 'x' }] },
      { templates: [{ name: 'x', document: 'not an object' }] },
      { templates: [{ name: 'x', document: {}, extra: 1 }] },
      { template: [] },
    ]) {
      const res = await call('POST', '/api/public/templates', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'REQUEST_INVALID');
    }
    const noChange = await call('PATCH', '/api/public/templates', { templates: [{ id: 'tpl_x' }] });
    assert.equal(noChange.body.error.code, 'REQUEST_INVALID');
  });

  test('enforces the document size, the body size, the batch size and the account’s template limit', async () => {
    const { key: small } = await limited.createKey({ scopes: ['templates'] });
    const big = doc(para(text('x'.repeat(3000))));
    const [tooLarge] = await create([{ name: 'Big', document: big }], small, limited);
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.error.code, 'TEMPLATE_TOO_LARGE');

    const body = await limited.request('POST', '/api/public/templates', {
      key: small,
      body: { templates: [{ name: 'Huge', document: doc(para(text('y'.repeat(9000)))) }] },
    });
    assert.equal(body.status, 413);
    assert.equal(body.body.error.code, 'REQUEST_BODY_TOO_LARGE');

    const many = await limited.request('POST', '/api/public/templates', {
      key: small,
      body: { templates: Array.from({ length: 4 }, (_, i) => ({ name: `n${i}`, document: doc() })) },
    });
    assert.equal(many.body.error.code, 'REQUEST_TOO_MANY_ITEMS');
    assert.match(many.body.error.message, /^templates holds more than 3 entries/);

    const filled = await create(
      ['a', 'b', 'c'].map((name) => ({ name, document: doc() })),
      small,
      limited,
    );
    assert.deepEqual(
      filled.map((r: any) => r.error?.code ?? 'ok'),
      ['ok', 'ok', 'ACCOUNT_TEMPLATE_LIMIT'],
    );
    assert.equal(filled[2].status, 409);
  });

  test('holds the account’s template limit exactly under concurrent creates', async () => {
    // Without a lock, concurrent transactions all count 0 and all insert: on PostgreSQL one
    // round of this race overshoots about one time in three, so several rounds are run.
    for (let round = 0; round < 6; round++) {
      const { key: racer } = await limited.createKey({ scopes: ['templates'] });
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          create(
            [0, 1].map((j) => ({ name: `race ${i}.${j}`, document: doc() })),
            racer,
            limited,
          ),
        ),
      );
      const codes = answers.flat().map((r: any) => r.error?.code ?? 'ok');
      assert.equal(codes.filter((c) => c === 'ok').length, 2, `round ${round}: ${codes.join(' ')}`);
      assert.equal(codes.filter((c) => c === 'ACCOUNT_TEMPLATE_LIMIT').length, 58);
      const listed = await call('GET', '/api/public/templates', undefined, racer, limited);
      assert.equal(listed.body.data.templates.length, 2);
    }
  });

  test('pages the listing newest first with an opaque cursor', async () => {
    const { key: pager } = await t.createKey({ scopes: ['templates'] });
    const names = ['one', 'two', 'three', 'four', 'five'];
    for (const name of names) {
      await create([{ name, document: doc() }], pager);
      await new Promise((r) => setTimeout(r, 3));
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const route: string = `/api/public/templates?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call('GET', route, undefined, pager);
      assert.ok(page.body.data.templates.length <= 2);
      seen.push(...page.body.data.templates.map((x: any) => x.name));
      cursor = page.body.data.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, [...names].reverse());
    const bad = await call('GET', '/api/public/templates?cursor=bm9wZQ', undefined, pager);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'REQUEST_INVALID');
  });

  test('keeps accounts apart: another account’s template does not exist for you', async () => {
    const [mine] = await create([{ name: 'Mine', document: doc() }]);
    const id = mine.data.id;
    const read = await call('GET', `/api/public/templates/${id}`, undefined, other);
    assert.equal(read.status, 404);
    const [rename] = (
      await call('PATCH', '/api/public/templates', { templates: [{ id, name: 'Stolen' }] }, other)
    ).body;
    assert.equal(rename.error.code, 'TEMPLATE_NOT_FOUND');
    const [remove] = (await call('DELETE', '/api/public/templates', { ids: [id] }, other)).body;
    assert.equal(remove.error.code, 'TEMPLATE_NOT_FOUND');
    const [render] = (await call('POST', '/api/public/templates/render', { templates: [{ id }] }, other))
      .body;
    assert.equal(render.error.code, 'TEMPLATE_NOT_FOUND');
    const list = await call('GET', '/api/public/templates', undefined, other);
    assert.ok(!list.body.data.templates.some((x: any) => x.id === id));
    assert.equal((await call('GET', `/api/public/templates/${id}`)).status, 200);
  });

  test('renders a stored template with its variables filled and escaped, and reports the missing', async () => {
    const [saved] = await create([{ name: 'Render me', document: WELCOME }]);
    const [rendered] = (
      await call('POST', '/api/public/templates/render', {
        templates: [
          {
            id: saved.data.id,
            variables: { order: { id: 'A&B 7' }, reset_url: 'javascript:alert(1)', unused: 1 },
          },
        ],
      })
    ).body;
    assert.equal(rendered.status, 200);
    const { html, text: plain, missing, defaulted, unsafe } = rendered.data;
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, />Hello friend<\/h1>/);
    assert.match(html, /Your order A&amp;B 7 has shipped\./);
    assert.match(html, /href="https:\/\/shop\.example\/track\?o=A%26B%207"/);
    // the editor's data-attrs markers keep the template's tags; everything else is filled
    const visible = html.replace(/ data-attrs="[^"]*"/g, '');
    assert.ok(!visible.includes('javascript:'), 'a whole-URL variable must be a safe link');
    assert.ok(!visible.includes('{{'), 'every tag filled');
    assert.match(plain, /Hello friend/);
    assert.match(plain, /Your order A&B 7 has shipped\./);
    assert.deepEqual(missing, []);
    assert.deepEqual(defaulted, ['first_name']);
    assert.deepEqual(unsafe, ['reset_url']);

    const [bare] = (
      await call('POST', '/api/public/templates/render', { templates: [{ id: saved.data.id }] })
    ).body;
    assert.deepEqual(bare.data.missing.sort(), ['order.id', 'reset_url']);
  });

  test('needs a key with the templates scope: a full key works, others are refused', async () => {
    const { key: images } = await t.createKey({ scopes: ['images'] });
    const { key: full } = await t.createKey({ scopes: ['*'] });
    const refused = await call('GET', '/api/public/templates', undefined, images);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'AUTH_SCOPE');
    assert.equal((await call('GET', '/api/public/templates', undefined, full)).status, 200);
    const missing = await t.request('GET', '/api/public/templates');
    assert.equal(missing.status, 401);
    // and the scoped browser key cannot reach the domain API
    const domains = await call('POST', '/api/public/domain', { domains: [] }, key);
    assert.equal(domains.status, 403);
    assert.equal(domains.body.error.code, 'AUTH_SCOPE');
  });

  test('opens CORS on the templates routes only, Authorization allowed', async () => {
    const preflight = (route: string) =>
      fetch(`${t.url}${route}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    for (const route of [
      '/api/public/templates',
      '/api/public/templates/render',
      '/api/public/templates/tpl_x',
    ]) {
      const res = await preflight(route);
      assert.equal(res.status, 204, route);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('access-control-allow-headers')!, /Authorization/);
    }
    const closed = await preflight('/api/public/domain');
    assert.equal(closed.headers.get('access-control-allow-origin'), null);
    const answer = await fetch(`${t.url}/api/public/templates`, {
      headers: { origin: 'https://app.example' },
    });
    assert.equal(answer.status, 401);
    assert.equal(
      answer.headers.get('access-control-allow-origin'),
      '*',
      'errors are readable by the page too',
    );
    const domain = await fetch(`${t.url}/api/public/domain`, {
      headers: { origin: 'https://app.example', authorization: key },
    });
    assert.equal(domain.headers.get('access-control-allow-origin'), null);
  });
}

describe('templates API on SQLite', () => suite('sqlite'));
describe('templates API on PostgreSQL', () => suite('postgres'));

describe('CORS_ORIGINS', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ CORS_ORIGINS: 'https://app.example,https://admin.example' });
  });
  after(() => t?.close());

  test('allows only the listed origins', async () => {
    const ask = (origin: string) =>
      fetch(`${t.url}/api/public/templates`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
    assert.equal(
      (await ask('https://admin.example')).headers.get('access-control-allow-origin'),
      'https://admin.example',
    );
    assert.equal((await ask('https://evil.example')).headers.get('access-control-allow-origin'), null);
  });
});
