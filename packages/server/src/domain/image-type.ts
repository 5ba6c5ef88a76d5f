/**
 * What an uploaded file really is, from its bytes (never from its name or declared type): PNG,
 * JPEG, GIF or WebP, the raster formats every major email client shows, and the dimensions its
 * header declares. SVG and everything else is refused: SVG can carry script, and Gmail and
 * Outlook do not show it. Pure; no decoding, so a decompression bomb is refused by the
 * dimensions it declares before anything would inflate it.
 */

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageInfo {
  format: ImageFormat;
  mime: `image/${ImageFormat}`;
  /** The file extension used for stored files. */
  ext: 'png' | 'jpg' | 'gif' | 'webp';
  width: number;
  height: number;
}

export type SniffResult =
  | { ok: true; image: ImageInfo }
  | { ok: false; reason: 'unsupported' | 'svg' | 'corrupt'; message: string };

const info = (format: ImageFormat, width: number, height: number): SniffResult => ({
  ok: true,
  image: { format, mime: `image/${format}`, ext: format === 'jpeg' ? 'jpg' : format, width, height },
});
const corrupt = (format: string): SniffResult => ({
  ok: false,
  reason: 'corrupt',
  message: `the file starts like a ${format} but its header is truncated or invalid`,
});

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/** PNG: the 8-byte signature, then IHDR first, width and height as big-endian uint32 (RFC 2083 §11.2.2). */
function png(b: Uint8Array, view: DataView): SniffResult {
  if (b.length < 24 || ascii(b, 12, 16) !== 'IHDR') return corrupt('PNG');
  return info('png', view.getUint32(16), view.getUint32(20));
}

/** GIF87a/89a: the logical screen width and height, little-endian uint16 (GIF89a spec §18). */
function gif(b: Uint8Array, view: DataView): SniffResult {
  if (b.length < 10) return corrupt('GIF');
  return info('gif', view.getUint16(6, true), view.getUint16(8, true));
}

/**
 * JPEG: walk the marker segments to the first start-of-frame (SOF0–SOF15 except DHT, JPG, DAC),
 * whose height and width are big-endian uint16 (ITU T.81 §B.2.2).
 */
function jpeg(b: Uint8Array, view: DataView): SniffResult {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return corrupt('JPEG');
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    const length = view.getUint16(at + 2);
    if (length < 2) return corrupt('JPEG');
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > b.length) return corrupt('JPEG');
      return info('jpeg', view.getUint16(at + 7), view.getUint16(at + 5));
    }
    if (marker === 0xd9 || marker === 0xda) return corrupt('JPEG'); // end or scan before any frame
    at += 2 + length;
  }
  return corrupt('JPEG');
}

/**
 * WebP (RIFF container, RFC 9649): VP8 (lossy, 14-bit sizes after the key-frame start code),
 * VP8L (lossless, 14-bit sizes minus one) or VP8X (extended, 24-bit sizes minus one).
 */
function webp(b: Uint8Array, view: DataView): SniffResult {
  if (b.length < 30) return corrupt('WebP');
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8 ') {
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return corrupt('WebP');
    return info('webp', view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return corrupt('WebP');
    const bits = view.getUint32(21, true);
    return info('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    const w = (b[24]! | (b[25]! << 8) | (b[26]! << 16)) + 1;
    const h = (b[27]! | (b[28]! << 8) | (b[29]! << 16)) + 1;
    return info('webp', w, h);
  }
  return corrupt('WebP');
}

/** Identifies an image by its content; see the module comment. */
export function sniffImage(bytes: Uint8Array): SniffResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png(bytes, view);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes, view);
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return gif(bytes, view);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return webp(bytes, view);
  // SVG is text: after an optional BOM, whitespace, XML declaration, comments or doctype comes <svg.
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .toLowerCase();
  if (/<svg[\s>]/.test(head) && /^\s*</.test(head))
    return {
      ok: false,
      reason: 'svg',
      message: 'SVG images are refused: they can carry script and email clients do not show them',
    };
  return { ok: false, reason: 'unsupported', message: 'the file is not a PNG, JPEG, GIF or WebP image' };
}
