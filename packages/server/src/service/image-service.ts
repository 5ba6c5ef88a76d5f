/**
 * Image uploads for the editor: the file is identified by its bytes, its declared dimensions
 * are checked before anything could decode it, and it is stored once under its content hash.
 */
import { createHash } from 'node:crypto';
import type { ImageLimits } from '../config.js';
import { sniffImage } from '../domain/image-type.js';
import { ApiError } from '../http/errors.js';
import type { ImageFiles } from '../store/image-files.js';
import type { ImageStore } from '../store/image-store.js';

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

  constructor(private readonly options: ImageServiceOptions) {
    this.now = options.now ?? Date.now;
    this.files = options.files;
  }

  /**
   * Checks and stores one upload. Throws `ApiError`s: IMAGE_TYPE_UNSUPPORTED, IMAGE_INVALID,
   * IMAGE_DIMENSIONS_TOO_LARGE (the size limit is enforced while the body streams in).
   */
  async upload(
    accountId: string,
    bytes: Buffer,
    meta: { fileName?: string; folder?: string; publicBase: string },
  ): Promise<UploadedImage> {
    const sniffed = sniffImage(bytes);
    if (!sniffed.ok) {
      throw new ApiError(
        sniffed.reason === 'corrupt' ? 'IMAGE_INVALID' : 'IMAGE_TYPE_UNSUPPORTED',
        sniffed.message,
      );
    }
    const { image } = sniffed;
    const { maxPixels } = this.options.limits;
    if (image.width === 0 || image.height === 0)
      throw new ApiError('IMAGE_INVALID', `the image declares a size of ${image.width} × ${image.height}`);
    if (image.width > MAX_SIDE || image.height > MAX_SIDE || image.width * image.height > maxPixels) {
      throw new ApiError(
        'IMAGE_DIMENSIONS_TOO_LARGE',
        `the image declares ${image.width} × ${image.height} pixels; the limit is ${maxPixels} pixels and ${MAX_SIDE} per side`,
      );
    }
    const hash = createHash('sha256').update(bytes).digest('hex');
    const file = `${hash}.${image.ext}`;
    await this.options.files.put(file, bytes);
    const name = cleanName(meta.fileName, file);
    const folder = (meta.folder ?? '/').slice(0, 200);
    await this.options.store.record({
      accountId,
      hash,
      ext: image.ext,
      mime: image.mime,
      size: bytes.length,
      width: image.width,
      height: image.height,
      name,
      folder,
      createdAt: this.now(),
    });
    return {
      fileId: hash,
      name,
      url: `${meta.publicBase}/images/${file}`,
      filePath: `/images/${file}`,
      size: bytes.length,
      width: image.width,
      height: image.height,
      fileType: 'image',
      mime: image.mime,
    };
  }
}
