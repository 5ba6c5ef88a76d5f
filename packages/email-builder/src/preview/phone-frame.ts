import { h } from '../ui/dom.js';

/** Width of the mobile view: the CSS width of most phones (iPhone 6–8, SE 2/3, mini). */
export const MOBILE_WIDTH = 375;

/**
 * The device frame of the preview: a box holding the device (the dark bezel in the mobile view)
 * that holds the email's iframe. In the mobile view the email is always laid out at
 * {@link MOBILE_WIDTH}, so its media queries and stacking behave as on a phone; on a screen
 * narrower than the phone frame (a phone itself, where the dialog leaves ~340 px) the device is
 * drawn smaller with a CSS transform, which changes what is painted but not the layout width.
 * The box takes the scaled size, so nothing overflows the dialog and the page scrolls the
 * scaled email.
 */
export class PhoneFrame {
  /** The element to put in the preview's stage. */
  readonly el: HTMLElement;
  private readonly device: HTMLElement;

  constructor(private readonly frame: HTMLIFrameElement) {
    this.device = h('div', { class: 'sv-preview-device' }, frame);
    this.el = h('div', { class: 'sv-preview-fit' }, this.device);
  }

  /**
   * Lays the email out for `view`, as tall as its content, and scales the phone down to
   * `available` pixels of width when it is wider. Returns the scale (1 when it fits).
   */
  fit(view: 'desktop' | 'mobile', available: number): number {
    const doc = this.frame.contentDocument;
    this.reset();
    this.frame.style.width = view === 'mobile' ? `${MOBILE_WIDTH}px` : '100%';
    if (doc?.documentElement) {
      // Shrink first: a frame taller than its content reports its own height as the content's.
      this.frame.style.height = '0';
      this.frame.style.height = `${Math.max(doc.documentElement.scrollHeight, 200)}px`;
    }
    if (view !== 'mobile') return 1;
    const width = this.device.offsetWidth;
    const scale = width > available && available > 0 ? available / width : 1;
    if (scale === 1) return 1;
    this.device.style.transform = `scale(${scale})`;
    this.el.style.width = `${width * scale}px`;
    this.el.style.height = `${this.device.offsetHeight * scale}px`;
    return scale;
  }

  private reset(): void {
    this.device.style.transform = '';
    this.el.style.width = '';
    this.el.style.height = '';
  }
}
