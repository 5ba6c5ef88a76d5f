import type { LinkRange } from '../marks/link/range.js';
import { VARIABLE_ONLY } from '../variables/syntax.js';
import { h, iconButton } from './dom.js';
import { ICONS, svg } from './icons.js';
import { followViewport, place } from './place.js';

/** Lucide's "external-link": opens in a new tab. */
const OPEN = svg('<path d="M15 3h6v6M10 14 21 3M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6"/>');
/** Lucide's "unlink". */
const UNLINK = svg(
  '<path d="m18.84 12.25 1.72-1.71a5 5 0 0 0-7.07-7.07l-1.72 1.71M5.17 11.75l-1.71 1.71a5 5 0 0 0 7.07 7.07l1.71-1.71M8 2v3M2 8h3M16 22v-3M22 16h-3"/>',
);

/** What the card's controls do, given by {@link LinkHover}. */
export interface LinkCardActions {
  /** Opens the link prompt on the link. */
  edit(): void;
  /** Takes the link off its text. */
  remove(): void;
  /** Gives the keyboard back to the text: Shift-Tab from the first control, or Escape (`dismiss`). */
  back(dismiss: boolean): void;
  /** The focus left the card for somewhere outside the editor's text. */
  blur(): void;
  /** The pointer came onto the card, or left it. */
  enter(): void;
  leave(): void;
}

/** What the card is for: the link, where positions are on screen, and the editor's text. */
interface Target {
  link: LinkRange;
  coords(pos: number): { left: number; top: number; bottom: number };
  dom: Element;
}

/**
 * The link card, loaded the first time a link needs it: the address (whole in its tooltip),
 * Open (a real link: a new tab, `rel="noopener noreferrer"`; not offered for a merge variable,
 * which is no address until the email is sent), Edit (the link prompt) and Remove. A group of
 * buttons in the tab order right after the cursor; below the link, else above it, inside the
 * window and below the sticky toolbar, following the page as it scrolls.
 */
export class LinkCard {
  readonly el: HTMLElement;
  private readonly url: HTMLElement;
  private readonly open: HTMLAnchorElement;
  private target: Target | null = null;
  private unfollow: (() => void) | null = null;

  constructor(
    private readonly container: HTMLElement,
    private readonly header: HTMLElement | null,
    actions: LinkCardActions,
  ) {
    this.url = h('span', { class: 'sv-link-url' });
    this.open = h('a', {
      class: 'sv-icon-btn',
      target: '_blank',
      rel: 'noopener noreferrer',
      'aria-label': 'Open link in a new tab',
      title: 'Open in a new tab',
      html: OPEN,
    });
    this.el = h(
      'div',
      { class: 'sv-popover sv-link-card', role: 'group', 'aria-label': 'Link', hidden: true },
      this.url,
      this.open,
      iconButton(ICONS.edit, 'Edit link', () => actions.edit()),
      iconButton(UNLINK, 'Remove link', () => actions.remove()),
    );
    // a click keeps the focus (and the cursor) in the text, as the formatting bubble's do
    this.el.addEventListener('mousedown', (e) => {
      if (!(e.target as Element).closest('a')) e.preventDefault();
    });
    this.el.addEventListener('mouseenter', () => actions.enter());
    this.el.addEventListener('mouseleave', () => actions.leave());
    this.el.addEventListener('keydown', (e) => {
      const first = this.controls()[0];
      if (e.key === 'Escape' || (e.key === 'Tab' && e.shiftKey && document.activeElement === first)) {
        e.preventDefault();
        actions.back(e.key === 'Escape');
      }
    });
    this.el.addEventListener('focusout', (e) => {
      const to = e.relatedTarget as Node | null;
      if (!this.el.contains(to) && !this.target?.dom.contains(to)) actions.blur();
    });
    container.append(this.el);
  }

  /** Shows the card for `target.link`, placed against it. */
  show(target: Target): void {
    const { href } = target.link;
    this.target = target;
    this.url.textContent = href;
    this.url.title = href;
    const variable = VARIABLE_ONLY.test(href);
    this.open.hidden = variable;
    if (!variable) this.open.href = href;
    this.position();
    this.unfollow ??= followViewport(this.el, () => this.position());
  }

  /** Hides the card. */
  hide(): void {
    this.el.hidden = true;
    this.target = null;
    this.unfollow?.();
    this.unfollow = null;
  }

  /** Moves the focus to the card's first control. */
  focus(): void {
    this.controls()[0]?.focus();
  }

  /** Removes the card from the page. */
  destroy(): void {
    this.hide();
    this.el.remove();
  }

  private controls(): HTMLElement[] {
    return [...this.el.querySelectorAll<HTMLElement>('a:not([hidden]), button')];
  }

  private position(): void {
    const t = this.target;
    if (!t) return;
    const start = t.coords(t.link.from);
    const end = t.coords(t.link.to);
    place(
      this.el,
      this.container,
      { left: start.left, top: start.top, bottom: end.bottom },
      { prefer: 'below', target: t.dom, header: this.header },
    );
  }
}
