/**
 * Every upload is decoded and encoded again with sharp (libvips) before it is stored: what we
 * serve is an image we made, never the bytes a client sent. That removes what rides along in
 * an image file (trailing HTML or script in a polyglot, data after the end marker, and the
 * metadata phone photos carry: GPS position, camera serial, thumbnails), turns EXIF orientation
 * into real pixels (email clients ignore the tag), and refuses what does not decode. The pixel
 * limit holds during decoding too, so a bomb that lies in its header still stops there.
 */
import pLimit from 'p-limit';
import type { Metadata } from 'sharp';
import type { ImageFormat } from '../domain/image-type.js';
import { lazy } from '../lazy.js';

const sharpModule = lazy(() => import('sharp'));

/** A decoded and re-encoded image. */
export interface DecodedImage {
  bytes: Buffer;
  width: number;
  /** Of one frame, for animations. */
  height: number;
  frames: number;
}

/** The upload does not decode as the format its header names, or breaks a decoding limit. */
export class ImageDecodeError extends Error {}

/**
 * Decodes at once per process. Decoding runs on libuv's threads, not the event loop; this
 * bounds the memory a burst of large uploads can take (a 50-megapixel image decodes to
 * 200 MB of pixels).
 */
const decoding = pLimit(2);

/** JPEG and lossy WebP quality on re-encoding: no visible loss for photographs. */
const QUALITY = 90;

export function decodeImage(bytes: Buffer, format: ImageFormat, maxPixels: number): Promise<DecodedImage> {
  return decoding(async () => {
    const animated = format === 'gif' || format === 'webp';
    // failOn 'warning': a truncated file or one with data past its end is refused, not patched up.
    const { default: sharp } = await sharpModule();
    const input = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'warning', animated });
    let meta: Metadata;
    try {
      meta = await input.metadata();
    } catch (error) {
      throw new ImageDecodeError(`the file does not decode as an image: ${reason(error)}`);
    }
    if (meta.format !== format) {
      throw new ImageDecodeError(
        `the file starts like a ${format} but decodes as ${meta.format ?? 'nothing known'}`,
      );
    }
    const frames = meta.pages ?? 1;
    // Orientation is applied to the pixels (one frame only: animations carry no EXIF).
    let pipeline = frames === 1 ? input.rotate() : input;
    if (format === 'png') pipeline = pipeline.png({ palette: meta.isPalette === true });
    else if (format === 'jpeg') pipeline = pipeline.jpeg({ quality: QUALITY });
    else if (format === 'gif') pipeline = pipeline.gif();
    else pipeline = pipeline.webp(isLosslessWebp(bytes) ? { lossless: true } : { quality: QUALITY });
    try {
      // sharp keeps no metadata unless asked (`withMetadata`); the ICC profile is converted to sRGB.
      const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
      return { bytes: data, width: info.width, height: info.pageHeight ?? info.height, frames };
    } catch (error) {
      throw new ImageDecodeError(`the image could not be decoded: ${reason(error)}`);
    }
  });
}

/** A WebP whose image data is VP8L (lossless): logos and screenshots stay lossless. */
function isLosslessWebp(bytes: Buffer): boolean {
  return bytes.includes('VP8L', 12, 'latin1') && !bytes.includes('VP8 ', 12, 'latin1');
}

/** sharp's message without its library prefix noise. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim().slice(0, 200);
}
