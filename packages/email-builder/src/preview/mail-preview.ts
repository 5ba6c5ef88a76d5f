import { ServiceEditorError } from '../errors.js';
import type { PreviewDialog } from './preview-dialog.js';

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
  /**
   * Extra: sample values for the merge tags, as `renderTemplate` takes them
   * (`{ first_name: 'Ada', order: { total: '€42' } }`). A tag without one shows its fallback
   * (`{{first_name|there}}`), else nothing, as a recipient without that value would see it.
   */
  variables?: Record<string, unknown>;
  /**
   * Extra: the language of the dialog's own words, as the editor's `locale` option (`de`,
   * `ar`: right to left, …); English by default. The email keeps its own language.
   */
  locale?: string;
  /** Extra: the host's words over the catalogue's, as the editor's `messages` option. */
  messages?: Readonly<Record<string, string>>;
}

const VIEWS: readonly PreviewView[] = ['desktop', 'mobile'];

function fail(name: string, reason: string): never {
  throw new ServiceEditorError('SEB_ERR_OPTIONS', { name, reason });
}

/**
 * The email preview dialog: desktop (full width) and mobile (375 px device frame, scaled down on
 * narrower screens) views of the email, which renders in a sandboxed iframe (`srcdoc`; no
 * scripts, forms, popups or navigation of the page), never in the host page. Merge tags show
 * sample values (or their fallbacks) by default, or as written. An accessible modal: focus
 * moves in and stays there, Escape closes, focus returns to the opener. Constructing it needs
 * no browser; `show()` does. The dialog's code (`preview-dialog.ts`) loads with the first
 * `show()`, so a page that only might preview does not carry it in its first load; so does the
 * `renderTemplate` that fills the merge tags with the sample values.
 *
 * @example
 * const preview = new MailPreview({ closeOnOverlayClick: true, variables: { first_name: 'Ada' } });
 * preview.setContent(editor.getHTML());
 * preview.show();
 */
export class MailPreview {
  /** The options, with defaults. */
  readonly options: Readonly<{
    closeOnOverlayClick: boolean;
    onClose?: () => void;
    view: PreviewView;
    variables: Readonly<Record<string, unknown>>;
    locale?: string;
    messages?: Readonly<Record<string, string>>;
  }>;
  private html = '';
  private view: PreviewView;
  /** The dialog itself: its code loads with the first `show()`. */
  private dialog: PreviewDialog | null = null;
  private loading = false;
  /** Shown since the last `show()`, the dialog perhaps still loading. */
  private shown = false;
  private destroyed = false;

  constructor(options: MailPreviewOptions = {}) {
    if (!options || typeof options !== 'object') fail('options', 'expected an object');
    const { closeOnOverlayClick, onClose, view, variables, locale, messages } = options;
    if (closeOnOverlayClick !== undefined && typeof closeOnOverlayClick !== 'boolean')
      fail('closeOnOverlayClick', 'expected a boolean');
    if (onClose !== undefined && typeof onClose !== 'function') fail('onClose', 'expected a function');
    if (view !== undefined && !VIEWS.includes(view)) fail('view', 'expected "desktop" or "mobile"');
    if (
      variables !== undefined &&
      (variables === null || typeof variables !== 'object' || Array.isArray(variables))
    )
      fail('variables', 'expected an object of sample values');
    this.view = view ?? 'desktop';
    this.options = {
      closeOnOverlayClick: closeOnOverlayClick ?? true,
      onClose,
      view: this.view,
      variables: { ...variables },
      locale,
      messages,
    };
  }

  /**
   * Sets the email HTML to preview (typically `editor.getHTML()`, merge tags and all); an open
   * dialog shows it at once. The HTML is kept as given: sample values are only shown.
   */
  setContent(html: string): void {
    this.alive();
    if (typeof html !== 'string') fail('html', 'expected a string');
    this.html = html;
    this.dialog?.render();
  }

  /** The HTML last set. */
  getContent(): string {
    return this.html;
  }

  /**
   * Opens the dialog. Needs a browser (`SEB_ERR_NOT_BROWSER` otherwise). The first time, the
   * dialog's code loads first (a few ms): it shows as soon as it is there.
   */
  show(): void {
    this.alive();
    if (typeof document === 'undefined')
      throw new ServiceEditorError('SEB_ERR_NOT_BROWSER', { what: 'MailPreview.show()' });
    this.shown = true;
    if (this.dialog) this.dialog.open();
    else this.load();
  }

  /** Closes the dialog (focus returns to where it was) and calls `onClose`. */
  hide(): void {
    this.alive();
    if (!this.shown) return;
    this.shown = false;
    this.dialog?.close();
    this.options.onClose?.();
  }

  /** Whether the dialog is open (or opening, its code loading). */
  isVisible(): boolean {
    return this.shown;
  }

  /** Switches between the full-width desktop view and the 375 px mobile view. */
  setView(view: PreviewView): void {
    this.alive();
    if (!VIEWS.includes(view)) fail('view', 'expected "desktop" or "mobile"');
    this.view = view;
    this.dialog?.applyView();
  }

  /** The current view. */
  getView(): PreviewView {
    return this.view;
  }

  /** Closes the dialog if open and removes everything it added to the page. Idempotent. */
  destroy(): void {
    if (this.destroyed) return;
    if (this.shown) this.hide();
    this.destroyed = true;
    this.dialog?.destroy();
    this.dialog = null;
  }

  private alive(): void {
    if (this.destroyed) throw new ServiceEditorError('SEB_ERR_PREVIEW_DESTROYED');
  }

  private load(): void {
    if (this.loading) return;
    this.loading = true;
    import('./preview-dialog.js').then(
      ({ PreviewDialog }) => {
        this.loading = false;
        if (this.destroyed) return;
        this.dialog ??= new PreviewDialog(this);
        if (this.shown) this.dialog.open();
      },
      (error: unknown) => {
        // a chunk the host did not serve: nothing shows; the next show() tries again
        this.loading = false;
        this.shown = false;
        console.error(error);
      },
    );
  }
}
