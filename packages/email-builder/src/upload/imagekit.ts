import { ServiceEditorError } from '../errors.js';
import type { ImageServiceConfig, UploadFunction } from '../options.js';

/**
 * Uploads through ImageKit's upload API (the one image service of the original product), or any
 * server speaking the same protocol, such as the service's own upload endpoint:
 * `POST` multipart/form-data with fields `file`, `fileName`, `folder` (and
 * `useUniqueFileName=true`), header `Authorization: Basic base64(token + ":")`; the answer is JSON
 * whose `url` is the image's public address. Errors answer JSON `{ message }` (ImageKit) or the
 * service's envelope `{ error: { code, message } }`.
 * XMLHttpRequest, not fetch, because only it reports upload progress.
 */
export function imageKitUploader(config: ImageServiceConfig, folder = '/email-builder'): UploadFunction {
  return (file, onProgress) =>
    new Promise((resolve, reject) => {
      const form = new FormData();
      form.append('file', file, file.name);
      form.append('fileName', file.name || 'image');
      form.append('folder', folder);
      form.append('useUniqueFileName', 'true');
      const xhr = new XMLHttpRequest();
      xhr.open('POST', config.url);
      xhr.setRequestHeader('Authorization', `Basic ${btoa(`${config.token}:`)}`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
      xhr.onerror = () => reject(new ServiceEditorError('SEB_ERR_UPLOAD_NETWORK'));
      xhr.onload = () => {
        let body: { url?: unknown; message?: unknown; error?: { message?: unknown } } | null = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {}
        if (xhr.status < 200 || xhr.status >= 300) {
          // ImageKit answers { message }; the service's own endpoint its error envelope
          const message =
            typeof body?.message === 'string'
              ? body.message
              : typeof body?.error?.message === 'string'
                ? body.error.message
                : xhr.statusText || 'upload failed';
          reject(new ServiceEditorError('SEB_ERR_UPLOAD_HTTP', { status: xhr.status, message }));
          return;
        }
        if (typeof body?.url !== 'string') {
          reject(new ServiceEditorError('SEB_ERR_UPLOAD_RESPONSE'));
          return;
        }
        resolve({ url: body.url });
      };
      xhr.send(form);
    });
}
