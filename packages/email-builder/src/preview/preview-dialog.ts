import { resolveLocale } from '../i18n/locales.js';
import { localize } from '../i18n/localize.js';
import { t } from '../i18n/translate.js';
import { svg } from '../icons/chrome.js';
import { h } from '../ui/dom.js';
import { Modal } from '../ui/modal.js';
// Inlined into this module's build (build.mjs): imported as a module of its own, a host's
// esbuild would keep it in the first load, as `index.ts` re-exports it (issue 38).
import { renderTemplate } from '../variables/render-template.js';
import type { PreviewView } from './mail-preview.js';
import { PhoneFrame } from './phone-frame.js';

/** The views' icons (Lucide's "monitor" and "smartphone"), loaded with the dialog. */
const DESKTOP = svg('<rect x="2" y="3" width="20" height="14" rx="2"/><path d="M8 21h8M12 17v4"/>');
const MOBILE = svg('<rect x="6" y="2" width="12" height="20" rx="2"/><path d="M11 18h2"/>');

/** How the preview shows merge tags: filled with sample values, or as written (`{{first_name}}`). */
type MergeTagView = 'sample' | 'tags';

/** What the dialog reads from and reports to its {@link MailPreview}. */
export interface PreviewOwner {
  readonly options: Readonly<{
    closeOnOverlayClick: boolean;
    locale?: string;
    messages?: object;
    variables: Readonly<Record<string, unknown>>;
  }>;
  getContent(): string;
  getView(): PreviewView;
  setView(view: PreviewView): void;
  hide(): void;
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
 * The dialog of a {@link MailPreview}, loaded the first time one is shown (most editing sessions
 * never preview): the modal, the view and merge-tag toggles, the sandboxed frame in its phone
 * frame, and the sizing.
 */
export class PreviewDialog {
  private readonly modal: Modal;
  private readonly frame: HTMLIFrameElement;
  private readonly phone: PhoneFrame;
  private readonly stage: HTMLElement;
  private readonly note: HTMLElement;
  private readonly mergeGroup: HTMLElement;
  private readonly toggles: HTMLButtonElement[];
  private readonly mergeToggles: HTMLButtonElement[];
  private merge: MergeTagView = 'sample';
  private readonly onResize = () => this.fit();

  /**
   * @param owner the preview whose dialog this is
   */
  constructor(private readonly owner: PreviewOwner) {
    const modal = new Modal({
      title: 'Email preview',
      closeLabel: 'Close email preview',
      className: 'sv-preview',
      closeOnOverlayClick: owner.options.closeOnOverlayClick,
      onRequestClose: () => owner.hide(),
    });
    const views = toggleGroup(
      'Preview size',
      'view',
      [
        ['desktop', 'Desktop', DESKTOP],
        ['mobile', 'Mobile', MOBILE],
      ],
      (view) => owner.setView(view),
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
    this.frame = this.buildFrame(modal);
    this.phone = new PhoneFrame(this.frame);
    this.note = h('p', { class: 'sv-preview-note', hidden: true });
    this.stage = h('div', { class: 'sv-preview-stage' }, this.note, this.phone.el);
    modal.body.append(this.stage);
    modal.body.setAttribute('tabindex', '0');
    modal.body.setAttribute('role', 'region');
    modal.body.setAttribute('aria-label', 'Email (scroll with the arrow keys)');
    press(this.mergeToggles, 'merge', this.merge);
    this.modal = modal;
    this.applyView();
    // the dialog's words, in the MailPreview's locale (the editor's, for its own preview)
    const { locale, messages } = owner.options;
    if (locale !== undefined || messages !== undefined)
      resolveLocale(locale ?? 'en', messages).then(({ locale: tag, dir, texts }) => {
        modal.overlay.lang = tag;
        modal.overlay.dir = dir;
        localize(modal.overlay, { locale: tag, texts });
        this.render();
      }, console.error);
  }

  /** Whether the dialog is in the page. */
  get isOpen(): boolean {
    return this.modal.isOpen;
  }

  /** Puts the dialog in the page, focus on the current view's toggle. */
  open(): void {
    if (this.modal.isOpen) return;
    this.render();
    this.modal.open(this.toggles.find((b) => b.dataset.view === this.owner.getView()));
    window.addEventListener('resize', this.onResize);
  }

  /** Takes the dialog out of the page (focus returns to where it was). */
  close(): void {
    window.removeEventListener('resize', this.onResize);
    this.modal.close();
  }

  /** Closes the dialog and removes everything it made. */
  destroy(): void {
    this.close();
    this.modal.overlay.remove();
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
  render(): void {
    const html = this.owner.getContent();
    // merge tags filled the way the service fills them for a recipient
    const filled = renderTemplate(html, this.owner.options.variables, { format: 'html' });
    const sample = this.merge === 'sample';
    this.frame.srcdoc = sample ? filled.output : html;
    this.mergeGroup.hidden = filled.used.length === 0;
    const empty = sample ? filled.missing : [];
    this.note.hidden = empty.length === 0;
    this.note.textContent = t(this.note, 'No sample value or fallback, shown empty: {tags}', {
      tags: empty.map((n) => `{{${n}}}`).join(', '),
    });
  }

  /** Shows the owner's view (desktop or mobile). */
  applyView(): void {
    const view = this.owner.getView();
    this.stage.dataset.view = view;
    press(this.toggles, 'view', view);
    this.fit();
  }

  /** Sizes the frame to the email (after a load, a view change or a window resize). */
  private fit(): void {
    const style = getComputedStyle(this.stage);
    const available = this.stage.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    this.phone.fit(this.owner.getView(), available);
  }
}
