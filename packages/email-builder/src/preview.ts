import { ServiceEditorError } from './errors.js';

/** Options of {@link MailPreview}. */
export interface MailPreviewOptions {
  /** Close the dialog when the backdrop is clicked (default true). */
  closeOnOverlayClick?: boolean;
}

/**
 * The email preview dialog (desktop and mobile views in a sandboxed iframe). This release holds
 * the content only; the dialog itself arrives with the next issue, and `show()` says so with a
 * coded error rather than doing nothing.
 */
export class MailPreview {
  /** The options as given. */
  readonly options: Required<MailPreviewOptions>;
  private html = '';

  constructor(options: MailPreviewOptions = {}) {
    if (options.closeOnOverlayClick !== undefined && typeof options.closeOnOverlayClick !== 'boolean') {
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'closeOnOverlayClick',
        reason: 'expected a boolean',
      });
    }
    this.options = { closeOnOverlayClick: options.closeOnOverlayClick ?? true };
  }

  /** Sets the email HTML to preview (typically `editor.getHTML()`). */
  setContent(html: string): void {
    if (typeof html !== 'string')
      throw new ServiceEditorError('SEB_ERR_OPTIONS', { name: 'html', reason: 'expected a string' });
    this.html = html;
  }

  /** The HTML last set. */
  getContent(): string {
    return this.html;
  }

  /** Opens the dialog (next issue). */
  show(): void {
    throw new ServiceEditorError('SEB_ERR_PREVIEW_NOT_READY', { method: 'show()' });
  }
}
