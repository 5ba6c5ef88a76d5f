import type { EditorView } from 'prosemirror-view';
import type { UploadState } from '../nodes/define.js';
import type { ServiceEditorOptions, UploadFunction } from '../options.js';
import { h, iconButton } from '../ui/dom.js';
import { ICONS } from '../ui/icons.js';
import { addPlaceholder, findPlaceholder, removePlaceholder } from './placeholder.js';
import { ACCEPTED_TYPES, type UploadEvent } from './types.js';

/** What the uploads need from the editor that owns them. */
export interface UploadHost {
  view(): EditorView;
  /** Where the hidden file input goes. */
  readonly root: HTMLElement;
  readonly options: ServiceEditorOptions;
  readonly maxImageSize: number;
  /** False once the editor is destroyed: late uploads then change nothing. */
  alive(): boolean;
  emit(event: UploadEvent): void;
}

/**
 * Every way an image reaches the editor besides a URL: the file picker (image blocks, settings
 * fields), and images pasted or dropped into the text, each behind an inline placeholder with a
 * progress bar until its URL is known. The upload code itself loads with the first upload.
 */
export class EditorUploads {
  /** The host's `upload`, else the ImageKit protocol; chosen with the first upload. */
  private uploader: UploadFunction | null | undefined;
  private count = 0;

  constructor(private readonly host: UploadHost) {}

  /** Opens the system file picker and uploads the chosen image. */
  pick(done: (url: string) => void, onState?: (s: UploadState) => void): void {
    const input = h('input', { type: 'file', accept: ACCEPTED_TYPES.join(','), hidden: true });
    this.host.root.append(input);
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      input.remove();
      if (file) this.upload(file, done, onState);
    });
    input.click();
  }

  /** Uploads one file, reporting progress to `onState` and the URL to `done`. */
  upload(file: File, done: (url: string) => void, onState?: (s: UploadState) => void): void {
    const { host } = this;
    onState?.({ phase: 'uploading', loaded: 0, total: file.size });
    const failed = (message: string) => {
      if (host.alive()) onState?.({ phase: 'error', message });
    };
    // The upload code comes with the first upload: most editing sessions never upload.
    import('./upload-code.js').then(
      ({ runUpload, friendlyMessage, imageKitUploader }) => {
        const o = host.options;
        this.uploader ??=
          o.upload ?? (o.imageServiceUrl ? imageKitUploader(o.imageServiceUrl, o.uploadFolder) : null);
        return runUpload(
          this.uploader,
          file,
          { types: ACCEPTED_TYPES, maxSize: host.maxImageSize },
          (e) => host.emit(e),
          (loaded, total) => onState?.({ phase: 'uploading', loaded, total }),
        ).then(
          (url) => {
            if (!host.alive()) return;
            onState?.({ phase: 'done', url });
            done(url);
          },
          (error) => failed(friendlyMessage(error)),
        );
      },
      () => failed('The upload could not start: the editor’s upload code did not load.'),
    );
  }

  /** `handlePaste`: pasted image files (not an HTML paste that carries images) are uploaded at the cursor. */
  paste(event: ClipboardEvent): boolean {
    const files = imageFiles(event.clipboardData?.files);
    if (files.length === 0 || event.clipboardData?.getData('text/html')) return false;
    const pos = this.host.view().state.selection.from;
    for (const file of files) this.uploadAt(file, pos);
    return true;
  }

  /** `handleDrop`: dropped image files are uploaded where they were dropped. */
  drop(view: EditorView, event: DragEvent): boolean {
    const files = imageFiles(event.dataTransfer?.files);
    if (files.length === 0) return false;
    const pos =
      view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? view.state.doc.content.size;
    event.preventDefault();
    for (const file of files) this.uploadAt(file, pos);
    return true;
  }

  /** Uploads a pasted or dropped image behind a placeholder, then inserts it where the placeholder went. */
  private uploadAt(file: File, pos: number): void {
    const view = this.host.view();
    const id = `upload-${++this.count}`;
    const label = h('span', {}, `Uploading ${file.name}…`);
    const bar = h(
      'span',
      {
        class: 'sv-progress',
        role: 'progressbar',
        'aria-label': `Uploading ${file.name}`,
        'aria-valuemin': '0',
        'aria-valuemax': '100',
        'aria-valuenow': '0',
      },
      h('span', {}),
    );
    const dom = h('span', { class: 'sv-upload', contenteditable: 'false' }, label, bar);
    addPlaceholder(view, id, pos, dom);
    this.upload(
      file,
      (url) => {
        const at = findPlaceholder(view, id) ?? view.state.doc.content.size;
        removePlaceholder(view, id);
        const image = view.state.schema.nodes.image!.create({
          src: url,
          alt: file.name.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' '),
        });
        view.dispatch(view.state.tr.replaceRangeWith(at, at, image));
      },
      (state) => {
        if (state.phase === 'uploading') {
          const pct = state.total ? Math.round((state.loaded / state.total) * 100) : 0;
          bar.setAttribute('aria-valuenow', String(pct));
          (bar.firstChild as HTMLElement).style.width = `${pct}%`;
        } else if (state.phase === 'error') {
          dom.className = 'sv-upload sv-upload-error';
          dom.setAttribute('role', 'alert');
          dom.replaceChildren(
            h('span', {}, state.message),
            iconButton(ICONS.close, 'Dismiss', () => removePlaceholder(view, id)),
          );
        }
      },
    );
  }
}

function imageFiles(list: FileList | undefined | null): File[] {
  return [...(list ?? [])].filter((f) => f.type.startsWith('image/'));
}
