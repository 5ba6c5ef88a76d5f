import { t } from '../i18n/translate.js';
import { EDITING_ICONS } from '../icons/editing.js';
import type { UploadState } from '../nodes/define.js';
import { h, iconButton } from '../ui/dom.js';
import type { EditorUploads } from './editor-uploads.js';
import { imageKitUploader } from './imagekit.js';
import { friendlyMessage, runUpload } from './uploader.js';

/**
 * Uploads one file for `uploads` (the host's `upload`, else the ImageKit protocol, chosen at the
 * first upload), reporting progress to `onState` and the URL to `done`; an editor destroyed
 * meanwhile hears nothing more.
 */
export function uploadFile(
  uploads: EditorUploads,
  file: File,
  done: (url: string) => void,
  onState?: (s: UploadState) => void,
): void {
  const { host } = uploads;
  const o = host.options;
  uploads.uploader ??=
    o.upload ?? (o.imageServiceUrl ? imageKitUploader(o.imageServiceUrl, o.uploadFolder) : null);
  runUpload(
    uploads.uploader,
    file,
    uploads.limits,
    (e) => host.emit(e),
    (loaded, total) => onState?.({ phase: 'uploading', loaded, total }),
  ).then(
    (url) => {
      if (!host.alive()) return;
      onState?.({ phase: 'done', url });
      done(url);
    },
    (error) => {
      if (host.alive()) onState?.({ phase: 'error', message: friendlyMessage(error, host.view().dom) });
    },
  );
}

/**
 * Uploads a pasted or dropped image behind its placeholder `dom`, which shows a progress bar,
 * then the error with a Dismiss button (`dismiss` removes the placeholder); `insert` puts the
 * image in its place. (The placeholder itself is the first load's, `editor-uploads.ts`: it
 * marks the spot while this code loads; importing `placeholder.ts` here would move it and
 * `prosemirror-view` into a chunk of their own.)
 */
export function uploadInPlace(
  uploads: EditorUploads,
  file: File,
  dom: HTMLElement,
  insert: (url: string) => void,
  dismiss: () => void,
): void {
  // inside the email's content, where the chrome's words are not put in by `localize`
  const label = h('span', {}, t(dom, 'Uploading {name}…', { name: file.name }));
  const bar = h(
    'span',
    {
      class: 'sv-progress',
      role: 'progressbar',
      'aria-label': t(dom, 'Uploading {name}', { name: file.name }),
      'aria-valuemin': '0',
      'aria-valuemax': '100',
      'aria-valuenow': '0',
    },
    h('span', {}),
  );
  dom.replaceChildren(label, bar);
  uploadFile(uploads, file, insert, (state) => {
    if (state.phase === 'uploading') {
      const pct = state.total ? Math.round((state.loaded / state.total) * 100) : 0;
      bar.setAttribute('aria-valuenow', String(pct));
      (bar.firstChild as HTMLElement).style.width = `${pct}%`;
    } else if (state.phase === 'error') {
      dom.className = 'sv-upload sv-upload-error';
      dom.setAttribute('role', 'alert');
      dom.replaceChildren(
        h('span', {}, state.message),
        iconButton(EDITING_ICONS.close, t(dom, 'Dismiss'), dismiss),
      );
    }
  });
}
