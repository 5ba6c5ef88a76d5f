import { ERRORS, ServiceEditorError } from '../errors.js';
import { t } from '../i18n/translate.js';
import type { UploadFunction } from '../options.js';
import { safeImageUrl } from '../primitives/url.js';
import type { UploadEvent } from './types.js';

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** What the editor accepts: its image types and its size limit in bytes. */
export interface UploadLimits {
  types: readonly string[];
  maxSize: number;
}

/** Checks type and size before anything is sent; throws the coded error to show inline. */
export function checkImageFile(file: File, { types, maxSize }: UploadLimits): void {
  if (!types.includes(file.type)) {
    throw new ServiceEditorError('SEB_ERR_UPLOAD_TYPE', {
      name: file.name,
      accepted: 'PNG, JPEG, GIF, WebP',
    });
  }
  if (file.size > maxSize) {
    throw new ServiceEditorError('SEB_ERR_UPLOAD_SIZE', {
      name: file.name,
      size: formatSize(file.size),
      limit: formatSize(maxSize),
    });
  }
}

/**
 * Runs one upload: checks the file, calls the configured uploader, checks the URL it returns
 * (http or https only) and reports each phase to `emit`. Resolves to the URL; rejects with a
 * {@link ServiceEditorError} whose message is shown inline.
 */
export async function runUpload(
  upload: UploadFunction | null,
  file: File,
  limits: UploadLimits,
  emit: (event: UploadEvent) => void,
  onProgress?: (loaded: number, total: number) => void,
): Promise<string> {
  const info = { name: file.name, size: file.size, type: file.type };
  try {
    if (!upload) throw new ServiceEditorError('SEB_ERR_UPLOAD_NOT_CONFIGURED');
    checkImageFile(file, limits);
    emit({ phase: 'start', file: info, loaded: 0, total: file.size });
    const result = await upload(file, (loaded, total) => {
      onProgress?.(loaded, total);
      emit({ phase: 'progress', file: info, loaded, total });
    });
    const url = safeImageUrl(result?.url);
    if (!url || url.startsWith('data:')) throw new ServiceEditorError('SEB_ERR_UPLOAD_RESPONSE');
    emit({ phase: 'done', file: info, url });
    return url;
  } catch (cause) {
    const error =
      cause instanceof ServiceEditorError ? cause : new ServiceEditorError('SEB_ERR_UPLOAD_NETWORK');
    emit({ phase: 'error', file: info, error });
    throw error;
  }
}

/**
 * The message shown to people: the catalogue message without its code, in the language of
 * `where` (an element of the editor; the catalogue's message is the key).
 */
export function friendlyMessage(error: unknown, where?: Element): string {
  if (error instanceof ServiceEditorError) return t(where, ERRORS[error.code], error.details);
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^SEB_ERR_[A-Z_]+: /, '');
}
