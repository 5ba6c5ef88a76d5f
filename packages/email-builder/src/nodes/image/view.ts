import type { Node as PMNode } from 'prosemirror-model';
import type { EditorView, NodeView } from 'prosemirror-view';
import { ICONS } from '../../icons/chrome.js';
import { normalizeImageInput } from '../../primitives/url.js';
import { PROBLEM_HINTS, type ProblemCode } from '../../problems.js';
import { type EditorHost, UPLOADS_OFF, type UploadState } from '../define.js';

/** The editor's muted prompt for a problem, as `problemHints` writes it, never part of the email. */
function hint(code: ProblemCode): HTMLElement {
  const line = el('p', 'sv-hint');
  line.dataset.problem = code;
  line.textContent = PROBLEM_HINTS[code];
  return line;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, html = ''): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = cls;
  if (html) node.innerHTML = html;
  return node;
}

/** Numbers the "uploads are off" notes, which their buttons point at with aria-describedby. */
let offIds = 0;

/**
 * The editing view of images and logos: the picture when it has a source, otherwise an inline
 * form to upload a file or embed a URL, with upload progress and errors shown in place.
 */
export function imageView(
  node: PMNode,
  view: EditorView,
  getPos: () => number | undefined,
  host: EditorHost,
): NodeView {
  const dom = el('figure', 'sv-image');
  dom.dataset.block = node.type.name;
  let current = node;
  let upload: UploadState | null = null;
  let urlError = '';

  const setAttrs = (attrs: Record<string, unknown>) => {
    const pos = getPos();
    if (pos === undefined) return;
    view.dispatch(view.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, ...attrs }));
  };

  const startUpload = () =>
    host.pickAndUpload(
      (url) => setAttrs({ src: url }),
      (state) => {
        upload = state.phase === 'done' ? null : state;
        render();
      },
    );

  function render(): void {
    const { src, darkSrc, alt, width, align, borderRadius } = current.attrs;
    dom.style.textAlign = align;
    dom.replaceChildren();
    if (src) {
      const picture = (url: string, cls: string) => {
        const img = el('img', cls);
        img.src = url;
        img.alt = alt;
        img.draggable = false;
        img.style.width = current.type.name === 'logo' ? `${width}px` : `${width}%`;
        if (borderRadius) img.style.borderRadius = `${borderRadius}px`;
        return img;
      };
      // With a dark-mode source the editor shows the one its theme calls for, as the email does
      // in clients that honour prefers-color-scheme.
      dom.append(picture(src, darkSrc ? 'sv-light-src' : ''));
      if (darkSrc) dom.append(picture(darkSrc, 'sv-dark-src'));
      return;
    }
    const box = el('div', 'sv-image-empty');
    box.contentEditable = 'false';
    if (upload?.phase === 'uploading') {
      const pct = upload.total > 0 ? Math.round((upload.loaded / upload.total) * 100) : 0;
      const bar = el('div', 'sv-progress');
      bar.setAttribute('role', 'progressbar');
      bar.setAttribute('aria-label', 'Uploading image');
      bar.setAttribute('aria-valuenow', String(pct));
      bar.setAttribute('aria-valuemin', '0');
      bar.setAttribute('aria-valuemax', '100');
      bar.append(el('span', '', ''));
      (bar.firstChild as HTMLElement).style.width = `${pct}%`;
      // the words apart from the number, as the editor's locale translates them
      box.append(el('p', 'sv-image-hint', `<span>Uploading…</span> ${pct}%`), bar);
      dom.append(box);
      return;
    }
    const title = el(
      'p',
      'sv-image-hint',
      `${ICONS.image}<span>${current.type.name === 'logo' ? 'Add a logo' : 'Add an image'}</span>`,
    );
    const row = el('div', 'sv-image-row');
    const uploadBtn = el('button', 'sv-btn sv-btn-primary', `${ICONS.upload}<span>Upload</span>`);
    uploadBtn.type = 'button';
    let off: HTMLElement | null = null;
    if (host.uploads) uploadBtn.addEventListener('click', startUpload);
    else {
      // aria-disabled, not disabled: it stays focusable, so the reason is read out with it
      off = el('p', 'sv-image-hint sv-upload-off', UPLOADS_OFF);
      off.id = `sv-upload-off-${++offIds}`;
      uploadBtn.setAttribute('aria-disabled', 'true');
      uploadBtn.setAttribute('aria-describedby', off.id);
    }
    const input = el('input', 'sv-input');
    input.type = 'url';
    input.placeholder = 'or paste an image URL';
    input.setAttribute('aria-label', 'Image URL');
    const embed = el('button', 'sv-btn', 'Embed');
    embed.type = 'button';
    const submit = () => {
      const url = normalizeImageInput(input.value);
      if (!url) {
        urlError = 'Use an http or https image address.';
        render();
        return;
      }
      urlError = '';
      setAttrs({ src: url });
    };
    embed.addEventListener('click', submit);
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        submit();
      }
    });
    row.append(uploadBtn, input, embed);
    box.append(title, row);
    if (off) box.append(off);
    box.append(hint('SEB_PROBLEM_NO_IMAGE'));
    const message = upload?.phase === 'error' ? upload.message : urlError;
    if (message) {
      const err = el('p', 'sv-error');
      err.setAttribute('role', 'alert');
      err.textContent = message;
      box.append(err);
    }
    dom.append(box);
  }

  render();
  return {
    dom,
    update(next) {
      if (next.type !== current.type) return false;
      current = next;
      render();
      return true;
    },
    selectNode: () => dom.classList.add('ProseMirror-selectednode'),
    deselectNode: () => dom.classList.remove('ProseMirror-selectednode'),
    stopEvent: (event) => {
      const target = event.target as HTMLElement | null;
      return !!target?.closest('input, button, .sv-image-empty') && event.type !== 'dragstart';
    },
    ignoreMutation: () => true,
  };
}
