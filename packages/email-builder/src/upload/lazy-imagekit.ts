import type { ImageServiceConfig, UploadFunction } from '../options.js';

/**
 * The ImageKit-protocol uploader, its code loaded with the first upload (most editing sessions
 * never upload; the upload itself takes far longer than loading a small chunk). A failed load
 * is retried at the next upload.
 */
export function lazyImageKitUploader(config: ImageServiceConfig, folder?: string): UploadFunction {
  let uploader: Promise<UploadFunction> | null = null;
  return async (file, onProgress) => {
    uploader ??= import('./upload-code.js').then(
      (module) => module.imageKitUploader(config, folder),
      (error: unknown) => {
        uploader = null;
        throw error;
      },
    );
    return (await uploader)(file, onProgress);
  };
}
