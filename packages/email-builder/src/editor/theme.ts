import { docSettings } from '../model/doc.js';
import type { ColorScheme, SchemeMenu } from '../ui/scheme-menu.js';

/**
 * The editor's colour scheme: the one chosen (`auto` follows the system), the one shown, and
 * the email's canvas colours for it, as CSS variables on the editor's root. The toolbar's
 * menu shows the choice; the system's changes are followed while the choice is `auto`.
 */
export class EditorTheme {
  private scheme: ColorScheme;
  private readonly media: MediaQueryList | undefined;
  private readonly onSystem = () => this.apply();

  /**
   * @param root the editor's root element (`data-theme`, `data-scheme` and the canvas variables go there)
   * @param docAttrs the document's attributes (its colours, padding, radius and width)
   * @param changed called after the scheme shown or chosen changed, and after every `apply`
   */
  constructor(
    private readonly root: HTMLElement,
    scheme: ColorScheme,
    private readonly menu: SchemeMenu,
    private readonly docAttrs: () => Record<string, unknown>,
    private readonly changed: (scheme: 'light' | 'dark', colorScheme: ColorScheme, emit: boolean) => void,
  ) {
    this.scheme = scheme;
    this.media = window.matchMedia?.('(prefers-color-scheme: dark)');
    this.media?.addEventListener('change', this.onSystem);
  }

  /** The scheme chosen: `auto`, `light` or `dark`. */
  get chosen(): ColorScheme {
    return this.scheme;
  }

  /** Chooses a scheme and shows it. */
  choose(scheme: ColorScheme): void {
    this.scheme = scheme;
    this.apply();
  }

  /** The scheme shown: the one chosen, or the system's for `auto`. */
  shown(): 'light' | 'dark' {
    if (this.scheme !== 'auto') return this.scheme;
    return this.media?.matches ? 'dark' : 'light';
  }

  /** Shows the scheme: the root's attributes, the menu, the canvas. */
  apply(): void {
    const scheme = this.shown();
    const changed = this.root.dataset.theme !== scheme || this.root.dataset.scheme !== this.scheme;
    this.root.dataset.theme = scheme;
    this.root.dataset.scheme = this.scheme;
    this.menu.show(this.scheme, scheme);
    this.applyCanvas();
    this.changed(scheme, this.scheme, changed);
  }

  /** The email's canvas (backdrop, card, border, radius, padding, width) for the scheme shown. */
  applyCanvas(): void {
    const s = docSettings(this.docAttrs());
    const dark = this.shown() === 'dark';
    const style = this.root.style;
    style.setProperty('--sv-backdrop', dark ? s.darkBackdrop : s.backdrop);
    style.setProperty('--sv-canvas', dark ? s.darkCanvas : s.canvas);
    style.setProperty('--sv-border', dark ? s.darkBorder : s.border);
    style.setProperty('--sv-radius', `${s.radius}px`);
    style.setProperty('--sv-pad', `${s.padding}px`);
    style.setProperty('--sv-width', `${s.width}px`);
  }

  /** Stops following the system's scheme. */
  destroy(): void {
    this.media?.removeEventListener('change', this.onSystem);
  }
}
