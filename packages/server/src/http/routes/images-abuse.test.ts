/**
 * Issue 15's upload attacks through HTTP: bytes that only start like an image, polyglots, a
 * PNG that claims 1×1 over a huge stream, phone-photo metadata, and an account filling the
 * disk. Every upload is decoded and encoded again; accounts have quotas, and list and delete
 * their images.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const fixture = (name: string) => readFileSync(new URL(`../../test-support/images/${name}`, import.meta.url));

/** A distinct PNG per colour. */
const solid = (background: string) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background } })
    .png()
    .toBuffer();

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

describe('image uploads under attack', () => {
  let t: TestServer;
  let quota: TestServer;
  let key: string;

  async function upload(bytes: Buffer, server = t, k = key, name = 'image') {
    const form = new FormData();
    form.append('file', new Blob([bytes]), name);
    form.append('fileName', name);
    const res = await fetch(`${server.url}/api/public/images`, {
      method: 'POST',
      body: form,
      headers: { authorization: k },
    });
    const body: any = await res.json();
    assert.deepEqual((await server.openapi()).check('POST', '/api/public/images', res.status, body), []);
    return { status: res.status, body };
  }
  const served = async (server: TestServer, filePath: string) =>
    Buffer.from(await (await fetch(`${server.url}${filePath}`)).arrayBuffer());
  const storedFiles = (server: TestServer) => {
    const dir = path.join(server.dataDir, 'images');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  before(async () => {
    t = await startTestServer();
    ({ key } = await t.createKey({ scopes: ['templates', 'images'] }));
    quota = await startTestServer({ IMAGE_QUOTA_COUNT: '2', IMAGE_QUOTA_BYTES: '1024' });
  });
  after(async () => {
    await t?.close();
    await quota?.close();
  });

  test('a PNG header followed by anything else is refused, and nothing is stored', async () => {
    const header = fixture('logo.png').subarray(0, 25);
    const before = storedFiles(t);
    for (const tail of [
      Buffer.alloc(512 * 1024, 0x5a),
      Buffer.from('<html><body><script>alert(document.domain)</script></body></html>'),
    ]) {
      const res = await upload(Buffer.concat([header, tail]));
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'IMAGE_INVALID');
      assert.match(res.body.error.message, /does not decode/);
    }
    assert.deepEqual(storedFiles(t), before);
  });

  test('a GIF/JavaScript polyglot is stored as the image alone', async () => {
    const polyglot = Buffer.concat([fixture('dot.gif'), Buffer.from('*/=1;alert(document.cookie)//')]);
    const res = await upload(polyglot, t, key, 'x.gif');
    assert.equal(res.status, 200);
    const bytes = await served(t, res.body.filePath);
    assert.ok(!bytes.includes('alert'), 'the script is gone');
    assert.equal((await sharp(bytes).metadata()).format, 'gif');
  });

  test('a PNG that claims 1×1 over a 64 MB stream is stored as a 1×1 image of a few bytes', async () => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(1, 0);
    ihdr.writeUInt32BE(1, 4);
    ihdr[8] = 8;
    ihdr[9] = 6;
    const bomb = Buffer.concat([
      fixture('logo.png').subarray(0, 8),
      pngChunk('IHDR', ihdr),
      pngChunk('IDAT', deflateSync(Buffer.alloc(64 * 1024 * 1024))),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
    assert.ok(bomb.length > 50_000);
    const res = await upload(bomb, t, key, 'bomb.png');
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.width, res.body.height], [1, 1]);
    assert.ok(res.body.size < 1024, `stored ${res.body.size} bytes`);
    assert.equal((await served(t, res.body.filePath)).length, res.body.size);
  });

  test('metadata is dropped and the EXIF orientation is applied to the pixels', async () => {
    const photo = await sharp({ create: { width: 48, height: 30, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Artist: 'Ann Example' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
      })
      .toBuffer();
    assert.ok(photo.includes('Ann Example'));
    const res = await upload(photo, t, key, 'phone.jpg');
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.width, res.body.height], [30, 48], 'rotated as the tag said');
    const bytes = await served(t, res.body.filePath);
    assert.ok(!bytes.includes('Ann Example'));
    const meta = await sharp(bytes).metadata();
    assert.equal(meta.exif, undefined);
    assert.deepEqual([meta.width, meta.height, meta.orientation ?? 1], [30, 48, 1]);
  });

  test('an account’s quota holds for count and bytes; a repeat costs nothing; deleting makes room', async () => {
    const { key: k } = await quota.createKey({ scopes: ['images'] });
    // Noise stays large however it is encoded again.
    const big = await sharp(randomBytes(32 * 32 * 3), { raw: { width: 32, height: 32, channels: 3 } })
      .png()
      .toBuffer();
    const first = await upload(await solid('#ff0000'), quota, k);
    assert.equal(first.status, 200);
    const tooBig = await upload(big, quota, k);
    assert.equal(tooBig.status, 409);
    assert.equal(tooBig.body.error.code, 'ACCOUNT_IMAGE_QUOTA');
    assert.match(tooBig.body.error.message, /the quota is 2 images and 1024 bytes/);
    assert.equal((await upload(await solid('#00ff00'), quota, k)).status, 200);
    const third = await upload(await solid('#0000ff'), quota, k);
    assert.equal(third.status, 409);
    assert.match(third.body.error.message, /holds 2 images/);
    assert.equal((await upload(await solid('#ff0000'), quota, k)).status, 200, 'the same image again');
    const removed = await quota.request('DELETE', `/api/public/images/${first.body.fileId}`, { key: k });
    assert.equal(removed.status, 200);
    assert.equal((await upload(await solid('#0000ff'), quota, k)).status, 200);
  });

  test('lists an account’s images newest first with its usage, page by page', async () => {
    const { key: k } = await t.createKey({ scopes: ['images'] });
    const ids: string[] = [];
    for (const colour of ['#010101', '#020202', '#030303'])
      ids.push((await upload(await solid(colour), t, k)).body.fileId);
    const first = await t.request('GET', '/api/public/images?limit=2', { key: k });
    assert.equal(first.status, 200);
    assert.deepEqual(first.contractProblems, []);
    const usage = first.body.data.usage;
    assert.equal(usage.count, 3);
    assert.equal(usage.maxCount, 10_000);
    const second = await t.request('GET', `/api/public/images?limit=2&cursor=${first.body.data.nextCursor}`, {
      key: k,
    });
    assert.equal(second.body.data.nextCursor, null);
    const listed = [...first.body.data.images, ...second.body.data.images];
    assert.deepEqual(new Set(listed.map((i: { fileId: string }) => i.fileId)), new Set(ids));
    assert.equal(
      usage.bytes,
      listed.reduce((sum: number, i: { size: number }) => sum + i.size, 0),
    );
    const bad = await t.request('GET', '/api/public/images?cursor=bm9wZQ', { key: k });
    assert.equal(bad.status, 400);
  });

  test('deleting removes the file only when no other account holds the same image', async () => {
    const { key: a } = await t.createKey({ scopes: ['images'] });
    const { key: b } = await t.createKey({ scopes: ['images'] });
    const png = await solid('#abcdef');
    const mine = await upload(png, t, a);
    const theirs = await upload(png, t, b);
    assert.equal(mine.body.fileId, theirs.body.fileId);

    const notMine = await t.request('DELETE', `/api/public/images/${'0'.repeat(64)}`, { key: a });
    assert.equal(notMine.status, 404);
    assert.equal(notMine.body.error.code, 'IMAGE_NOT_FOUND');
    assert.deepEqual(notMine.contractProblems, []);

    const gone = await t.request('DELETE', `/api/public/images/${mine.body.fileId}`, { key: a });
    assert.deepEqual(gone.body, {
      data: { fileId: mine.body.fileId, deleted: true },
      error: null,
      status: 200,
    });
    assert.deepEqual(gone.contractProblems, []);
    assert.equal((await fetch(`${t.url}${mine.body.filePath}`)).status, 200, 'b still holds it');
    assert.equal(
      (await t.request('DELETE', `/api/public/images/${mine.body.fileId}`, { key: a })).status,
      404,
    );

    assert.equal(
      (await t.request('DELETE', `/api/public/images/${mine.body.fileId}`, { key: b })).status,
      200,
    );
    assert.equal((await fetch(`${t.url}${mine.body.filePath}`)).status, 404, 'the last holder deleted it');
    const list = await t.request('GET', '/api/public/images', { key: b });
    assert.equal(list.body.data.usage.count, 0);
  });
});
