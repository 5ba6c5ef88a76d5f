import type { EditorView } from 'prosemirror-view';
import type { UploadState } from '../nodes/define.js';
import type { ServiceEditorOptions, UploadFunction } from '../options.js';
import { h } from '../ui/dom.js';
import { addPlaceholder, findPlaceholder, removePlaceholder } from './placeholder.js';
import { ACCEPTED_TYPES, type UploadEvent } from './types.js';
import type * as UploadCode from './upload-code.js';
import type { UploadLimits } from './uploader.js';

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

/** Said when the upload code did not load (a chunk the host did not serve); a message key. */
export const UPLOAD_NOT_LOADED = 'The upload could not start: the editor’s upload code did not load.';

/**
 * Every way an image reaches the editor besides a URL: the file picker (image blocks, settings
 * fields), and images pasted or dropped into the text, each behind an inline placeholder with a
 * progress bar until its URL is known. This part, in the first load, only decides what is an
 * upload (a paste or drop must be answered at once); the upload itself, the placeholder's
 * progress and errors (`upload-code.ts`) load with the first upload: most editing sessions
 * never upload.
 */
export class EditorUploads {
  /** The host's `upload`, else the ImageKit protocol; chosen with the first upload. */
  uploader: UploadFunction | null | undefined;
  /** What may be uploaded (read by the upload code, which leaves `types.ts` to the first load). */
  readonly limits: UploadLimits;
  private count = 0;

  constructor(readonly host: UploadHost) {
    this.limits = { types: ACCEPTED_TYPES, maxSize: host.maxImageSize };
  }

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
    onState?.({ phase: 'uploading', loaded: 0, total: file.size });
    this.withCode(
      (code) => code.uploadFile(this, file, done, onState),
      () => {
        if (this.host.alive()) onState?.({ phase: 'error', message: UPLOAD_NOT_LOADED });
      },
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

  /**
   * Marks `pos` with a placeholder at once (it then follows the edits made while the upload
   * code loads), which the upload code fills in with progress or the error; the image takes its
   * place once uploaded.
   */
  private uploadAt(file: File, pos: number): void {
    const view = this.host.view();
    const id = `upload-${++this.count}`;
    const dom = h('span', { class: 'sv-upload', contenteditable: 'false' }, `Uploading ${file.name}…`);
    addPlaceholder(view, id, pos, dom);
    const dismiss = () => removePlaceholder(view, id);
    const insert = (url: string) => {
      const at = findPlaceholder(view, id) ?? view.state.doc.content.size;
      dismiss();
      const image = view.state.schema.nodes.image!.create({
        src: url,
        alt: file.name.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' '),
      });
      view.dispatch(view.state.tr.replaceRangeWith(at, at, image));
    };
    this.withCode(
      (code) => code.uploadInPlace(this, file, dom, insert, dismiss),
      (error) => {
        // a chunk the host did not serve: the placeholder goes, as nothing entered the document
        dismiss();
        console.error(error);
      },
    );
  }

  private withCode(run: (code: typeof UploadCode) => void, failed: (error: unknown) => void): void {
    // The upload code comes with the first upload: most editing sessions never upload.
    import('./upload-code.js').then(run, failed);
  }
}

function imageFiles(list: FileList | undefined | null): File[] {
  return [...(list ?? [])].filter((f) => f.type.startsWith('image/'));
}
