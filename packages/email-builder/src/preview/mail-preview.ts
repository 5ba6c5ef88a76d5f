import { ServiceEditorError } from '../errors.js';
import { h } from '../ui/dom.js';
import { ICONS } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { renderTemplate } from '../variables/render-template.js';
import { PhoneFrame } from './phone-frame.js';

export { MOBILE_WIDTH } from './phone-frame.js';

/** The two preview sizes: the container's full width, or a 375 px phone. */
export type PreviewView = 'desktop' | 'mobile';

/** How the preview shows merge tags: filled with sample values, or as written (`{{first_name}}`). */
type MergeTagView = 'sample' | 'tags';

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
}

const VIEWS: readonly PreviewView[] = ['desktop', 'mobile'];

function fail(name: string, reason: string): never {
  throw new ServiceEditorError('SEB_ERR_OPTIONS', { name, reason });
}

/** A group of toggle buttons (`aria-pressed`), one per value, each calling `pick` with its value. */
function toggleGroup<T extends string>(
  label: string,
  key: string,
  choices: readonly (readonly [value: T, text: string, icon?: string])[],
  pick: (value: T) => void,
): { group: HTMLElement; buttons: HTMLButtonElement[] } {
  const buttons = choices.map(([value, text, icon]) =>
    h(
      'button',
      {
        type: 'button',
        class: 'sv-seg-btn',
        'aria-pressed': 'false',
        [`data-${key}`]: value,
        onclick: () => pick(value),
      },
      icon && h('span', { html: icon }),
      text,
    ),
  );
  return { group: h('div', { class: 'sv-seg', role: 'group', 'aria-label': label }, ...buttons), buttons };
}

function press(buttons: HTMLButtonElement[], key: string, value: string): void {
  for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset[key] === value));
}

/**
 * The email preview dialog: desktop (full width) and mobile (375 px device frame, scaled down on
 * narrower screens) views of the email, which renders in a sandboxed iframe (`srcdoc`; no
 * scripts, forms, popups or navigation of the page), never in the host page. Merge tags show
 * sample values (or their fallbacks) by default, or as written. An accessible modal: focus
 * moves in and stays there, Escape closes, focus returns to the opener. Constructing it needs
 * no browser; `show()` does.
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
  }>;
  private html = '';
  private view: PreviewView;
  private merge: MergeTagView = 'sample';
  private modal: Modal | null = null;
  private frame: HTMLIFrameElement | null = null;
  private phone: PhoneFrame | null = null;
  private stage: HTMLElement | null = null;
  private note: HTMLElement | null = null;
  private mergeGroup: HTMLElement | null = null;
  private toggles: HTMLButtonElement[] = [];
  private mergeToggles: HTMLButtonElement[] = [];
  private destroyed = false;
  private readonly onResize = () => this.fit();

  constructor(options: MailPreviewOptions = {}) {
    if (!options || typeof options !== 'object') fail('options', 'expected an object');
    const { closeOnOverlayClick, onClose, view, variables } = options;
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
    this.render();
  }

  /** The HTML last set. */
  getContent(): string {
    return this.html;
  }

  /** Opens the dialog. Needs a browser (`SEB_ERR_NOT_BROWSER` otherwise). */
  show(): void {
    this.alive();
    if (typeof document === 'undefined')
      throw new ServiceEditorError('SEB_ERR_NOT_BROWSER', { what: 'MailPreview.show()' });
    this.modal ??= this.build();
    const modal = this.modal;
    if (modal.isOpen) return;
    this.render();
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
    this.phone = null;
    this.stage = null;
    this.note = null;
    this.mergeGroup = null;
    this.toggles = [];
    this.mergeToggles = [];
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
    const views = toggleGroup(
      'Preview size',
      'view',
      [
        ['desktop', 'Desktop', ICONS.desktop],
        ['mobile', 'Mobile', ICONS.mobile],
      ],
      (view) => this.setView(view),
    );
    const merge = toggleGroup(
      'Merge tags',
      'merge',
      [
        ['sample', 'Sample values'],
        ['tags', 'Merge tags'],
      ],
      (value) => this.setMergeView(value),
    );
    this.toggles = views.buttons;
    this.mergeToggles = merge.buttons;
    this.mergeGroup = merge.group;
    modal.tools.append(views.group, merge.group);
    const frame = this.buildFrame(modal);
    this.frame = frame;
    this.phone = new PhoneFrame(frame);
    this.note = h('p', { class: 'sv-preview-note', hidden: true });
    this.stage = h('div', { class: 'sv-preview-stage' }, this.note, this.phone.el);
    modal.body.append(this.stage);
    modal.body.setAttribute('tabindex', '0');
    modal.body.setAttribute('role', 'region');
    modal.body.setAttribute('aria-label', 'Email (scroll with the arrow keys)');
    press(this.mergeToggles, 'merge', this.merge);
    this.applyView();
    return modal;
  }

  private buildFrame(modal: Modal): HTMLIFrameElement {
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
    return frame;
  }

  private setMergeView(value: MergeTagView): void {
    this.merge = value;
    press(this.mergeToggles, 'merge', value);
    this.render();
  }

  /**
   * Puts the email in the frame: merge tags filled with the sample values (or their fallbacks)
   * with `renderTemplate`, the way the service fills them for a recipient, or left as written.
   * Tags that stay empty are named above the email, so an author sees what has no value.
   */
  private render(): void {
    if (!this.frame) return;
    const filled = renderTemplate(this.html, this.options.variables, { format: 'html' });
    const sample = this.merge === 'sample';
    this.frame.srcdoc = sample ? filled.output : this.html;
    this.mergeGroup!.hidden = filled.used.length === 0;
    const empty = sample ? filled.missing : [];
    this.note!.hidden = empty.length === 0;
    this.note!.textContent =
      `No sample value or fallback, shown empty: ${empty.map((n) => `{{${n}}}`).join(', ')}`;
  }

  private applyView(): void {
    if (!this.stage) return;
    this.stage.dataset.view = this.view;
    press(this.toggles, 'view', this.view);
    this.fit();
  }

  /** Sizes the frame to the email (after a load, a view change or a window resize). */
  private fit(): void {
    const stage = this.stage;
    if (!stage || !this.phone) return;
    const style = getComputedStyle(stage);
    const available = stage.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    this.phone.fit(this.view, available);
  }
}
