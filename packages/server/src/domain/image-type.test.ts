// What an upload really is, from its bytes: real files from Chromium's encoders, and headers
// built byte by byte for the cases an encoder at hand does not produce (VP8, VP8L, bombs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sniffImage } from './image-type.js';

const fixture = (name: string) => readFileSync(new URL(`../test-support/images/${name}`, import.meta.url));
const bytes = (...parts: (number[] | string | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const u16le = (n: number) => [n & 0xff, n >> 8];
const u32le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
const u32be = (n: number) => [n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];

const png = (w: number, h: number) =>
  bytes(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    u32be(13),
    'IHDR',
    u32be(w),
    u32be(h),
    [8, 6, 0, 0, 0],
  );
const riff = (chunk: string, payload: number[]) =>
  bytes('RIFF', u32le(payload.length + 12), 'WEBP', chunk, u32le(payload.length), payload);

describe('sniffImage', () => {
  it('reads type and size of real PNG, JPEG, GIF and WebP files', () => {
    assert.deepEqual(sniffImage(fixture('logo.png')), {
      ok: true,
      image: { format: 'png', mime: 'image/png', ext: 'png', width: 48, height: 30 },
    });
    assert.deepEqual(sniffImage(fixture('photo.jpg')), {
      ok: true,
      image: { format: 'jpeg', mime: 'image/jpeg', ext: 'jpg', width: 48, height: 30 },
    });
    assert.deepEqual(sniffImage(fixture('dot.gif')), {
      ok: true,
      image: { format: 'gif', mime: 'image/gif', ext: 'gif', width: 1, height: 1 },
    });
    assert.deepEqual(sniffImage(fixture('photo.webp')), {
      ok: true,
      image: { format: 'webp', mime: 'image/webp', ext: 'webp', width: 48, height: 30 },
    });
  });

  it('reads the three WebP variants: lossy VP8, lossless VP8L, extended VP8X', () => {
    const vp8 = riff('VP8 ', [0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(640), ...u16le(480), 0, 0]);
    assert.deepEqual(sniffImage(vp8), {
      ok: true,
      image: { format: 'webp', mime: 'image/webp', ext: 'webp', width: 640, height: 480 },
    });
    const bits = (1000 - 1) | ((750 - 1) << 14);
    const vp8l = riff('VP8L', [0x2f, ...u32le(bits), 0, 0, 0, 0, 0]);
    assert.deepEqual((sniffImage(vp8l) as any).image, {
      format: 'webp',
      mime: 'image/webp',
      ext: 'webp',
      width: 1000,
      height: 750,
    });
    const vp8x = riff('VP8X', [0x10, 0, 0, 0, 0x3f, 0x42, 0x0f, 0x3f, 0x42, 0x0f, 0, 0]);
    assert.deepEqual((sniffImage(vp8x) as any).image.width, 1_000_000);
  });

  it('reads a JPEG frame after other segments (EXIF, comments) and skips fill bytes', () => {
    const jpeg = bytes(
      [0xff, 0xd8],
      [0xff, 0xe1, 0x00, 0x08],
      'Exif\0\0',
      [0xff, 0xff, 0xfe, 0x00, 0x04, 0x41, 0x42],
      [0xff, 0xc2, 0x00, 0x11, 0x08, 0x0b, 0xb8, 0x0f, 0xa0, 0x03],
    );
    assert.deepEqual((sniffImage(jpeg) as any).image, {
      format: 'jpeg',
      mime: 'image/jpeg',
      ext: 'jpg',
      width: 4000,
      height: 3000,
    });
  });

  it('reports the dimensions a bomb declares, without decoding anything', () => {
    const result = sniffImage(png(100_000, 100_000));
    assert.ok(result.ok);
    assert.equal(result.image.width * result.image.height, 10_000_000_000);
  });

  it('refuses SVG however it starts, naming the reason', () => {
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<svg>',
      '  <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<SVG viewBox="0 0 1 1">',
    ]) {
      const result = sniffImage(Buffer.from(svg, 'utf8'));
      assert.equal(result.ok, false, svg);
      assert.equal(!result.ok && result.reason, 'svg');
    }
  });

  it('refuses everything else, whatever its name', () => {
    for (const other of [
      Buffer.from('<html><script>alert(1)</script></html>'),
      Buffer.from('%PDF-1.7\n'),
      bytes('RIFF', u32le(4), 'WAVE'),
      Buffer.alloc(0),
      Buffer.from([0x42, 0x4d, 0, 0]), // BMP
    ]) {
      const result = sniffImage(other);
      assert.equal(!result.ok && result.reason, 'unsupported', other.toString('latin1'));
    }
  });

  it('calls a truncated or malformed header corrupt instead of guessing', () => {
    for (const broken of [
      fixture('logo.png').subarray(0, 20),
      bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32be(13), 'IDAT', u32be(1), u32be(1)),
      bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      bytes([0xff, 0xd8, 0xff, 0xda, 0x00, 0x04, 0, 0]),
      bytes('GIF89a', [1]),
      riff('VP8 ', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
      riff('ALPH', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ]) {
      const result = sniffImage(broken);
      assert.equal(!result.ok && result.reason, 'corrupt', broken.toString('hex').slice(0, 40));
    }
  });
});
