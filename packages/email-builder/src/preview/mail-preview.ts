import { ServiceEditorError } from '../errors.js';
import { h } from '../ui/dom.js';
import { ICONS } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';

/** The two preview sizes: the container's full width, or a 375 px phone. */
export type PreviewView = 'desktop' | 'mobile';

/** Options of {@link MailPreview} (the spec's preview dialog options, plus extras). */
export interface MailPreviewOptions {
  /** Close the dialog when the backdrop is clicked (default true). */
  closeOnOverlayClick?: boolean;
  /** Extra: called after the dialog closed (Escape, close button, overlay, `hide()`). */
  onClose?: () => void;
  /** Extra: the view shown first (default `desktop`). */
  view?: PreviewView;
}

/** Width of the mobile view: the CSS width of most phones (iPhone 6–8, SE 2/3, mini). */
export const MOBILE_WIDTH = 375;

const VIEWS: readonly PreviewView[] = ['desktop', 'mobile'];

function fail(name: string, reason: string): never {
  throw new ServiceEditorError('SEB_ERR_OPTIONS', { name, reason });
}

/**
 * The email preview dialog: desktop (full width) and mobile (375 px device frame) views of the
 * email, which renders in a sandboxed iframe (`srcdoc`; no scripts, forms, popups or navigation
 * of the page), never in the host page. An accessible modal: focus moves in and stays there,
 * Escape closes, focus returns to the opener. Constructing it needs no browser; `show()` does.
 *
 * @example
 * const preview = new MailPreview({ closeOnOverlayClick: true });
 * preview.setContent(editor.getHTML());
 * preview.show();
 */
export class MailPreview {
  /** The options, with defaults. */
  readonly options: Readonly<{ closeOnOverlayClick: boolean; onClose?: () => void; view: PreviewView }>;
  private html = '';
  private view: PreviewView;
  private modal: Modal | null = null;
  private frame: HTMLIFrameElement | null = null;
  private stage: HTMLElement | null = null;
  private toggles: HTMLButtonElement[] = [];
  private destroyed = false;
  private readonly onResize = () => this.fit();

  constructor(options: MailPreviewOptions = {}) {
    if (!options || typeof options !== 'object') fail('options', 'expected an object');
    const { closeOnOverlayClick, onClose, view } = options;
    if (closeOnOverlayClick !== undefined && typeof closeOnOverlayClick !== 'boolean')
      fail('closeOnOverlayClick', 'expected a boolean');
    if (onClose !== undefined && typeof onClose !== 'function') fail('onClose', 'expected a function');
    if (view !== undefined && !VIEWS.includes(view)) fail('view', 'expected "desktop" or "mobile"');
    this.view = view ?? 'desktop';
    this.options = { closeOnOverlayClick: closeOnOverlayClick ?? true, onClose, view: this.view };
  }

  /** Sets the email HTML to preview (typically `editor.getHTML()`); an open dialog shows it at once. */
  setContent(html: string): void {
    this.alive();
    if (typeof html !== 'string') fail('html', 'expected a string');
    this.html = html;
    if (this.frame) this.frame.srcdoc = html;
  }

  /** The HTML last set. */
  getContent(): string {
    return this.html;
  }

  /** Opens the dialog. Needs a browser (`SEB_ERR_NOT_BROWSER` otherwise). */
  show(): void {
    this.alive();
    if (typeof document === 'undefined') throw new ServiceEditorError('SEB_ERR_NOT_BROWSER');
    this.modal ??= this.build();
    const modal = this.modal;
    if (modal.isOpen) return;
    this.frame!.srcdoc = this.html;
    modal.open(this.toggles[VIEWS.indexOf(this.view)]);
    window.addEventListener('resize', this.onResize);
  }

  /** Closes the dialog (focus returns to where it was) and calls `onClose`. */
  hide(): void {
    this.alive();
    if (!this.modal?.isOpen) return;
    window.removeEventListener('resize', this.onResize);
    this.modal.close();
    this.options.onClose?.();
  }

  /** Whether the dialog is open. */
  isVisible(): boolean {
    return !!this.modal?.isOpen;
  }

  /** Switches between the full-width desktop view and the 375 px mobile view. */
  setView(view: PreviewView): void {
    this.alive();
    if (!VIEWS.includes(view)) fail('view', 'expected "desktop" or "mobile"');
    this.view = view;
    this.applyView();
  }

  /** The current view. */
  getView(): PreviewView {
    return this.view;
  }

  /** Closes the dialog if open and removes everything it added to the page. Idempotent. */
  destroy(): void {
    if (this.destroyed) return;
    if (this.modal?.isOpen) this.hide();
    this.destroyed = true;
    this.modal?.overlay.remove();
    this.modal = null;
    this.frame = null;
    this.stage = null;
    this.toggles = [];
  }

  private alive(): void {
    if (this.destroyed) throw new ServiceEditorError('SEB_ERR_PREVIEW_DESTROYED');
  }

  private build(): Modal {
    const modal = new Modal({
      title: 'Email preview',
      className: 'sv-preview',
      closeOnOverlayClick: this.options.closeOnOverlayClick,
      onRequestClose: () => this.hide(),
    });
    this.toggles = VIEWS.map((view) => {
      const b = h(
        'button',
        { type: 'button', class: 'sv-seg-btn', 'aria-pressed': 'false', 'data-view': view },
        h('span', { html: view === 'desktop' ? ICONS.desktop : ICONS.mobile }),
        view === 'desktop' ? 'Desktop' : 'Mobile',
      );
      b.addEventListener('click', () => this.setView(view));
      return b;
    });
    modal.tools.append(
      h('div', { class: 'sv-seg', role: 'group', 'aria-label': 'Preview size' }, ...this.toggles),
    );
    // sandbox without allow-scripts: no script in the email runs, no form submits, no popup opens
    // and the page cannot be navigated. allow-same-origin (safe without scripts) only lets this
    // code read the email's height, so the page scrolls it instead of a frame in a frame.
    const frame = h('iframe', {
      class: 'sv-preview-frame',
      title: 'Email content',
      sandbox: 'allow-same-origin',
      referrerpolicy: 'no-referrer',
      tabindex: '-1',
    });
    frame.addEventListener('load', () => {
      this.fit();
      // Keys pressed after a click into the email happen in the frame's document: Escape must
      // still close and Tab must not wander off.
      frame.contentDocument?.addEventListener('keydown', (e) => {
        if (e.key === 'Tab') {
          e.preventDefault();
          (e.shiftKey ? modal.focusables().at(-1) : modal.focusables()[0])?.focus();
        } else modal.key(e);
      });
    });
    this.frame = frame;
    this.stage = h('div', { class: 'sv-preview-stage' }, h('div', { class: 'sv-preview-device' }, frame));
    modal.body.append(this.stage);
    modal.body.setAttribute('tabindex', '0');
    modal.body.setAttribute('role', 'region');
    modal.body.setAttribute('aria-label', 'Email (scroll with the arrow keys)');
    this.applyView();
    return modal;
  }

  private applyView(): void {
    if (!this.stage) return;
    this.stage.dataset.view = this.view;
    for (const b of this.toggles) b.setAttribute('aria-pressed', String(b.dataset.view === this.view));
    this.fit();
  }

  /** Sizes the frame to the email's height (after a load, a view change or a window resize). */
  private fit(): void {
    const frame = this.frame;
    const doc = frame?.contentDocument;
    if (!frame || !doc?.documentElement) return;
    frame.style.width = this.view === 'mobile' ? `${MOBILE_WIDTH}px` : '100%';
    // Shrink first: a frame taller than its content reports its own height as the content's.
    frame.style.height = '0';
    frame.style.height = `${Math.max(doc.documentElement.scrollHeight, 200)}px`;
  }
}
