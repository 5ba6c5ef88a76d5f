/**
 * The image upload endpoint through HTTP, as ImageKit clients (the editor's uploader) call it:
 * good files of each type, hostile ones (SVG, HTML, a renamed script, bombs, truncated or
 * oversized files), scopes, the Basic token form, CORS, and the files served back.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const fixture = (name: string) => readFileSync(new URL(`../../test-support/images/${name}`, import.meta.url));
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

let t: TestServer;
let small: TestServer;
let key: string;

before(async () => {
  t = await startTestServer({ PUBLIC_URL: 'https://cdn.example.test/' });
  ({ key } = await t.createKey({ scopes: ['templates', 'images'] }));
  small = await startTestServer({ IMAGE_MAX_BYTES: '2048', IMAGE_MAX_PIXELS: '10000' });
});
after(async () => {
  await t?.close();
  await small?.close();
});

interface Upload {
  bytes: Buffer;
  name?: string;
  type?: string;
  fields?: Record<string, string>;
  auth?: string | null;
  server?: TestServer;
  origin?: string;
}

/** Posts multipart/form-data the way the editor's uploader (and ImageKit's SDKs) do. */
async function upload(u: Upload) {
  const server = u.server ?? t;
  const form = new FormData();
  form.append('file', new Blob([u.bytes], { type: u.type ?? 'application/octet-stream' }), u.name ?? 'image');
  form.append('fileName', u.name ?? 'image');
  form.append('folder', '/email-builder');
  form.append('useUniqueFileName', 'true');
  for (const [k, v] of Object.entries(u.fields ?? {})) form.append(k, v);
  const headers: Record<string, string> = {};
  if (u.auth !== null) headers.authorization = u.auth ?? basic(key);
  if (u.origin) headers.origin = u.origin;
  const response = await fetch(`${server.url}/api/public/images`, { method: 'POST', body: form, headers });
  const body: any = await response.json();
  assert.deepEqual((await server.openapi()).check('POST', '/api/public/images', response.status, body), []);
  return { status: response.status, body, headers: response.headers };
}

const localUrl = (url: string) => url.replace('https://cdn.example.test', t.url);

describe('POST /api/public/images', () => {
  const cases: [string, string, string, number, number][] = [
    ['logo.png', 'image/png', 'png', 48, 30],
    ['photo.jpg', 'image/jpeg', 'jpg', 48, 30],
    ['dot.gif', 'image/gif', 'gif', 1, 1],
    ['photo.webp', 'image/webp', 'webp', 48, 30],
  ];
  for (const [file, mime, ext, width, height] of cases) {
    test(`stores a ${mime} re-encoded under its content hash and serves it back`, async () => {
      const res = await upload({ bytes: fixture(file), name: file, type: mime });
      assert.equal(res.status, 200);
      const hash = res.body.fileId;
      assert.deepEqual(res.body, {
        fileId: hash,
        name: file,
        url: `https://cdn.example.test/images/${hash}.${ext}`,
        filePath: `/images/${hash}.${ext}`,
        size: res.body.size,
        width,
        height,
        fileType: 'image',
        mime,
      });
      assert.ok(existsSync(path.join(t.dataDir, 'images', `${hash}.${ext}`)));
      const served = await fetch(localUrl(res.body.url));
      assert.equal(served.status, 200);
      const stored = Buffer.from(await served.arrayBuffer());
      // What is served is the image the service encoded, named by its own bytes.
      assert.equal(createHash('sha256').update(stored).digest('hex'), hash);
      assert.equal(stored.length, res.body.size);
      const decoded = await sharp(stored).metadata();
      assert.deepEqual(
        [decoded.format, decoded.width, decoded.height],
        [ext === 'jpg' ? 'jpeg' : ext, width, height],
      );
      assert.equal(served.headers.get('content-type'), mime);
      assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(served.headers.get('etag'), `"${hash}"`);
      const again = await fetch(localUrl(res.body.url), { headers: { 'if-none-match': `"${hash}"` } });
      assert.equal(again.status, 304);
    });
  }

  test('keeps one file for the same content, whatever the names', async () => {
    const bytes = fixture('logo.png');
    const a = await upload({ bytes, name: 'a.png' });
    const b = await upload({ bytes, name: 'b.gif', type: 'image/gif' });
    assert.equal(a.body.url, b.body.url);
    assert.equal(b.body.name, 'b.gif');
    const files = readdirSync(path.join(t.dataDir, 'images')).filter((f) => f.startsWith(a.body.fileId));
    assert.deepEqual(files, [`${a.body.fileId}.png`]);
  });

  test('echoes the file name without any path, and never uses it for storage', async () => {
    const res = await upload({ bytes: fixture('dot.gif'), name: '../../../etc/passwd.gif' });
    assert.equal(res.body.name, 'passwd.gif');
    assert.match(res.body.filePath, /^\/images\/[0-9a-f]{64}\.gif$/);
  });

  test('refuses SVG, even named .png and sent as image/png', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
    );
    const res = await upload({ bytes: svg, name: 'logo.png', type: 'image/png' });
    assert.equal(res.status, 415);
    assert.equal(res.body.error.code, 'IMAGE_TYPE_UNSUPPORTED');
    assert.match(res.body.error.message, /SVG/);
  });

  test('refuses HTML, scripts and other files by their content', async () => {
    for (const [bytes, name] of [
      [Buffer.from('<!doctype html><script>alert(1)</script>'), 'page.jpg'],
      [Buffer.from('alert(document.cookie)'), 'x.gif'],
      [Buffer.from('%PDF-1.4 trailer'), 'doc.webp'],
    ] as const) {
      const res = await upload({ bytes, name, type: 'image/jpeg' });
      assert.equal(res.status, 415, name);
      assert.equal(res.body.error.code, 'IMAGE_TYPE_UNSUPPORTED');
    }
  });

  test('refuses a truncated image', async () => {
    const res = await upload({ bytes: fixture('logo.png').subarray(0, 18), name: 'cut.png' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'IMAGE_INVALID');
  });

  test('refuses decompression bombs by their declared dimensions', async () => {
    const bomb = Buffer.from(fixture('logo.png'));
    bomb.writeUInt32BE(60_000, 16);
    bomb.writeUInt32BE(60_000, 20);
    const res = await upload({ bytes: bomb, name: 'bomb.png' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'IMAGE_DIMENSIONS_TOO_LARGE');
    const tall = Buffer.from(fixture('logo.png'));
    tall.writeUInt32BE(1, 16);
    tall.writeUInt32BE(20_000, 20);
    assert.equal(
      (await upload({ bytes: tall, name: 'tall.png' })).body.error.code,
      'IMAGE_DIMENSIONS_TOO_LARGE',
    );
    // the pixel budget is configurable
    const { key: k } = await small.createKey({ scopes: ['images'] });
    const wide = await upload({ bytes: fixture('dot.gif'), server: small, auth: basic(k) });
    assert.equal(wide.status, 200);
    const over = Buffer.from(fixture('logo.png'));
    over.writeUInt32BE(200, 16);
    over.writeUInt32BE(200, 20);
    assert.equal(
      (await upload({ bytes: over, server: small, auth: basic(k) })).body.error.code,
      'IMAGE_DIMENSIONS_TOO_LARGE',
    );
  });

  test('refuses a file over IMAGE_MAX_BYTES while it streams in', async () => {
    const { key: k } = await small.createKey({ scopes: ['images'] });
    const stored = () =>
      existsSync(path.join(small.dataDir, 'images')) ? readdirSync(path.join(small.dataDir, 'images')) : [];
    const before = stored();
    const big = Buffer.concat([fixture('logo.png'), Buffer.alloc(4096)]);
    const res = await upload({ bytes: big, server: small, auth: basic(k) });
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, 'IMAGE_TOO_LARGE');
    assert.deepEqual(stored(), before, 'nothing written');
  });

  test('needs a file part, and multipart', async () => {
    const form = new FormData();
    form.append('fileName', 'x.png');
    const none = await fetch(`${t.url}/api/public/images`, {
      method: 'POST',
      body: form,
      headers: { authorization: basic(key) },
    });
    assert.equal(none.status, 400);
    assert.equal(((await none.json()) as any).error.code, 'IMAGE_MISSING');
    const json = await t.request('POST', '/api/public/images', { key, body: { file: 'aGVsbG8=' } });
    assert.equal(json.status, 415);
    assert.equal(json.body.error.code, 'REQUEST_UNSUPPORTED_MEDIA_TYPE');
    assert.deepEqual(json.contractProblems, []);
  });

  test('authenticates the token as ImageKit sends it, or the key alone, with the images scope', async () => {
    const bytes = fixture('dot.gif');
    assert.equal((await upload({ bytes, auth: key })).status, 200);
    const wrong = await upload({ bytes, auth: basic('sk_not_a_key') });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'AUTH_INVALID');
    assert.equal((await upload({ bytes, auth: null })).body.error.code, 'AUTH_MISSING');
    const { key: templatesOnly } = await t.createKey({ scopes: ['templates'] });
    const scoped = await upload({ bytes, auth: basic(templatesOnly) });
    assert.equal(scoped.status, 403);
    assert.equal(scoped.body.error.code, 'AUTH_SCOPE');
    const { key: full } = await t.createKey({ scopes: ['*'] });
    assert.equal((await upload({ bytes, auth: basic(full) })).status, 200);
  });

  test('opens CORS for browsers, answering preflights and errors alike', async () => {
    const preflight = await fetch(`${t.url}/api/public/images`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    const ok = await upload({ bytes: fixture('dot.gif'), origin: 'https://app.example' });
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    const refused = await upload({ bytes: Buffer.from('<svg/>'), origin: 'https://app.example' });
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
  });
});

describe('GET /images/{file}', () => {
  test('answers 404 for unknown and malformed names, never a path outside the store', async () => {
    for (const name of [
      `${'0'.repeat(64)}.png`,
      '..%2F..%2Fservice.sqlite',
      '%2e%2e%2fservice.sqlite',
      `${'a'.repeat(64)}.svg`,
      'x.png',
    ]) {
      const res = await t.request('GET', `/images/${name}`);
      assert.equal(res.status, 404, name);
      assert.equal(res.body.error.code, 'IMAGE_NOT_FOUND');
    }
    // fetch would normalise `..` away before sending; node:http sends the path as written.
    const { port } = new URL(t.url);
    const dotdot = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .request({ host: '127.0.0.1', port, path: '/images/../service.sqlite' }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        })
        .on('error', reject)
        .end();
    });
    // Two segments after /images/: no route matches, so the router's 404, not the database file.
    assert.equal(dotdot.status, 404);
    assert.equal(JSON.parse(dotdot.body).error.code, 'ROUTE_NOT_FOUND');
    assert.doesNotMatch(dotdot.body, /SQLite format/);
  });

  test('serves images with headers that keep them images', async () => {
    const res = await upload({ bytes: fixture('logo.png'), name: 'logo.png' });
    const served = await fetch(localUrl(res.body.url));
    assert.equal(served.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    assert.equal(served.headers.get('access-control-allow-origin'), null, 'no CORS outside the browser API');
    const head = await fetch(localUrl(res.body.url), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(res.body.size));
  });
});
