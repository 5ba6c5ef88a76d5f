/**
 * Image uploads for the editor: the file is identified by its bytes, its declared dimensions
 * are checked before anything decodes it, it is decoded and encoded again (`image-decoder.ts`),
 * counted against the account's quota, and stored once under the new content's hash. Accounts
 * list and delete their images; a file goes when the last account holding it deletes it.
 */
import { createHash } from 'node:crypto';
import type { ImageLimits } from '../config.js';
import { sniffImage } from '../domain/image-type.js';
import { type Envelope, failed, ok } from '../envelope.js';
import type { ImageFiles } from '../store/image-files.js';
import type { ImageCursor, ImageRecord, ImageStore, ImageUsage } from '../store/image-store.js';
import { decodeImage, ImageDecodeError } from './image-decoder.js';

/** Longest side accepted, whatever the pixel budget: the limit of most decoders and of WebP. */
export const MAX_SIDE = 16_384;

/** The upload's answer, in ImageKit's shape (`url` is what the editor reads). */
export interface UploadedImage {
  fileId: string;
  name: string;
  url: string;
  filePath: string;
  size: number;
  width: number;
  height: number;
  fileType: 'image';
  mime: string;
}

export interface ImageServiceOptions {
  store: ImageStore;
  files: ImageFiles;
  limits: ImageLimits;
  now?: () => number;
}

/** An account's images and what they add up to against its quota. */
export interface ImageUsageView extends ImageUsage {
  maxCount: number;
  maxBytes: number;
}

/** A client's file name, made safe to echo: no path, no control characters, at most 200 characters. */
function cleanName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping them is the point
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return clean || fallback;
}

export class ImageService {
  private readonly now: () => number;

  /** Where the files are (the public GET route serves them from there). */
  readonly files: ImageFiles;

  /**
   * Per content hash, the upload or deletion under way in this process: a deletion that finds
   * itself the last holder removes the file, and must not do so while another account's
   * upload of the same bytes has just recorded its row and found the file present.
   */
  private readonly busy = new Map<string, Promise<unknown>>();

  constructor(private readonly options: ImageServiceOptions) {
    this.now = options.now ?? Date.now;
    this.files = options.files;
  }

  private exclusive<T>(hash: string, work: () => Promise<T>): Promise<T> {
    const previous = this.busy.get(hash) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => {});
    this.busy.set(hash, settled);
    void settled.then(() => {
      if (this.busy.get(hash) === settled) this.busy.delete(hash);
    });
    return run;
  }

  /** The view of a stored image, as the upload answered it. */
  private view(image: ImageRecord, publicBase: string): UploadedImage {
    const file = `${image.hash}.${image.ext}`;
    return {
      fileId: image.hash,
      name: image.name,
      url: `${publicBase}/images/${file}`,
      filePath: `/images/${file}`,
      size: image.size,
      width: image.width,
      height: image.height,
      fileType: 'image',
      mime: image.mime,
    };
  }

  /** `GET /api/public/images`: newest first, with the account's usage against its quota. */
  async list(
    accountId: string,
    options: { after?: ImageCursor; limit: number; publicBase: string },
  ): Promise<{ images: UploadedImage[]; next: ImageCursor | undefined; usage: ImageUsageView }> {
    const [page, usage] = await Promise.all([
      this.options.store.list(accountId, options),
      this.options.store.usage(accountId),
    ]);
    return {
      images: page.images.map((image) => this.view(image, options.publicBase)),
      next: page.next,
      usage: { ...usage, maxCount: this.options.limits.quotaCount, maxBytes: this.options.limits.quotaBytes },
    };
  }

  /**
   * `DELETE /api/public/images/{fileId}`: the account stops holding the image; the file is
   * removed when no account holds it any more. IMAGE_NOT_FOUND when the account has no such image.
   */
  async delete(accountId: string, hash: string): Promise<Envelope<{ fileId: string; deleted: true }>> {
    return this.exclusive(hash, async () => {
      const removed = await this.options.store.delete(accountId, hash);
      if (!removed) return failed('IMAGE_NOT_FOUND', 'this account holds no image with this fileId');
      if (removed.lastHolder) await this.options.files.remove(`${hash}.${removed.deleted.ext}`);
      return ok({ fileId: hash, deleted: true as const });
    });
  }

  /**
   * Checks, re-encodes and stores one upload, as the services answer: an envelope holding the
   * uploaded image, or IMAGE_TYPE_UNSUPPORTED, IMAGE_INVALID, IMAGE_DIMENSIONS_TOO_LARGE or
   * ACCOUNT_IMAGE_QUOTA (the size limit is enforced while the body streams in).
   */
  async upload(
    accountId: string,
    bytes: Buffer,
    meta: { fileName?: string; folder?: string; publicBase: string },
  ): Promise<Envelope<UploadedImage>> {
    const sniffed = sniffImage(bytes);
    if (!sniffed.ok)
      return failed(
        sniffed.reason === 'corrupt' ? 'IMAGE_INVALID' : 'IMAGE_TYPE_UNSUPPORTED',
        sniffed.message,
      );
    const { image } = sniffed;
    const { maxPixels } = this.options.limits;
    if (image.width === 0 || image.height === 0)
      return failed('IMAGE_INVALID', `the image declares a size of ${image.width} × ${image.height}`);
    if (image.width > MAX_SIDE || image.height > MAX_SIDE || image.width * image.height > maxPixels) {
      return failed(
        'IMAGE_DIMENSIONS_TOO_LARGE',
        `the image declares ${image.width} × ${image.height} pixels; the limit is ${maxPixels} pixels and ${MAX_SIDE} per side`,
      );
    }
    let decoded: Awaited<ReturnType<typeof decodeImage>>;
    try {
      decoded = await decodeImage(bytes, image.format, maxPixels);
    } catch (error) {
      if (error instanceof ImageDecodeError) return failed('IMAGE_INVALID', error.message);
      throw error;
    }
    const stored = decoded.bytes;
    const hash = createHash('sha256').update(stored).digest('hex');
    const record: ImageRecord = {
      accountId,
      hash,
      ext: image.ext,
      mime: image.mime,
      size: stored.length,
      width: decoded.width,
      height: decoded.height,
      name: cleanName(meta.fileName, `${hash}.${image.ext}`),
      folder: (meta.folder ?? '/').slice(0, 200),
      createdAt: this.now(),
    };
    return this.exclusive(hash, async () => {
      const { quotaCount, quotaBytes } = this.options.limits;
      // The row first, then the file: a deletion by another account, which removes the file
      // only when it finds no row left, then always finds this one.
      const outcome = await this.options.store.recordWithinQuota(record, {
        count: quotaCount,
        bytes: quotaBytes,
      });
      if (!outcome.recorded) {
        const { usage } = outcome;
        return failed(
          'ACCOUNT_IMAGE_QUOTA',
          `the account holds ${usage.count} images of ${usage.bytes} bytes; the quota is ${quotaCount} images and ${quotaBytes} bytes. Delete images (DELETE /api/public/images/{fileId}) to make room`,
        );
      }
      await this.options.files.put(`${hash}.${image.ext}`, stored);
      return ok(this.view(record, meta.publicBase));
    });
  }
}
