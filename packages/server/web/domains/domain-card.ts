/**
 * One domain on the dashboard: a head line (name, status, counts, when it was checked, the
 * Records and Delete buttons) and, while open, its {@link RecordsPanel}. A card is built once
 * and then patched by `update`, so a refresh keeps keyboard focus, a text selection and the
 * scroll position; the page used to rebuild every card every 5 s and lost all three.
 */
import type { DomainResult } from '@service/client';
import { el } from '../lib/dom.js';
import { setBadge, setText } from './patch.js';
import { RecordsPanel } from './records-panel.js';

/** What the card's buttons ask the page to do. */
export interface CardActions {
  /** Open this domain's records (closing any other), or close them. */
  toggle(name: string): void;
  /** Ask to delete the domain; `button` gets the focus back if the user changes their mind. */
  remove(name: string, button: HTMLButtonElement): void;
  /** Ask for a DKIM rotation now; the page says what the API answered. */
  rotate(name: string, button: HTMLButtonElement): void;
  /** Whether the server has a development local DNS (issue 40). */
  localDnsAvailable(): boolean;
  /** Publish a `.test` domain's records in the development local DNS, or remove them. */
  publishLocal(name: string, button: HTMLButtonElement): void;
  unpublishLocal(name: string, button: HTMLButtonElement): void;
}

/** "checked 23 s ago": how old the statuses are, refreshed every second by the page. */
function timeAgo(iso: string | null, now = Date.now()): string {
  if (!iso) return 'not checked yet';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `checked ${seconds} s ago`;
  if (seconds < 3600) return `checked ${Math.round(seconds / 60)} min ago`;
  return `checked ${Math.round(seconds / 3600)} h ago`;
}

/** The head line's summary: type, DKIM and DMARC progress, and the age of the last check. */
function summary(domain: DomainResult): string {
  const dkim = domain.records.filter((r) => r.type === 'CNAME');
  const dkimVerified = dkim.filter((r) => r.status === 'verified').length;
  const dmarc = domain.records.find((r) => r.type === 'TXT');
  return `${domain.type} · DKIM ${dkimVerified}/${dkim.length} · DMARC ${dmarc?.status ?? '–'} · ${timeAgo(domain.lastCheckedAt)}`;
}

/** A domain's card, patched in place by every refresh. */
export class DomainCard {
  readonly element: HTMLElement;
  private readonly badge = el('span');
  private readonly meta = el('span', { className: 'domain-meta' });
  private readonly toggle = el('button', { type: 'button', className: 'small' });
  private panel: RecordsPanel | undefined;

  constructor(
    private domain: DomainResult,
    private readonly actions: CardActions,
  ) {
    const name = domain.domain;
    const remove = el('button', { type: 'button', className: 'small danger', textContent: 'Delete' });
    remove.setAttribute('aria-label', `Delete ${name}`);
    remove.addEventListener('click', () => actions.remove(name, remove));
    this.toggle.addEventListener('click', () => actions.toggle(name));
    this.element = el(
      'article',
      { className: 'card domain', dataset: { domain: name } },
      el(
        'div',
        { className: 'domain-head' },
        el('h3', { className: 'domain-name', textContent: name }),
        this.badge,
        this.meta,
        el('span', { className: 'grow' }),
        this.toggle,
        remove,
      ),
    );
  }

  /** Shows `domain`'s latest state, its records open or closed. */
  update(domain: DomainResult, open: boolean): void {
    this.domain = domain;
    setBadge(this.badge, domain.status);
    setText(this.meta, summary(domain));
    setText(this.toggle, open ? 'Hide records' : 'Records');
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open && !this.panel) {
      const name = domain.domain;
      this.panel = new RecordsPanel(
        domain,
        `records-${name}`,
        (button) => this.actions.rotate(name, button),
        {
          available: () => this.actions.localDnsAvailable(),
          publish: (button) => this.actions.publishLocal(name, button),
          remove: (button) => this.actions.unpublishLocal(name, button),
        },
      );
      this.element.append(this.panel.element);
      this.toggle.setAttribute('aria-controls', this.panel.element.id);
    } else if (open) this.panel?.update(domain);
    else if (this.panel) {
      this.panel.element.remove();
      this.panel = undefined;
      this.toggle.removeAttribute('aria-controls');
    }
  }

  /** Marks the card as the one just registered (outlined), or not. */
  highlight(on: boolean): void {
    this.element.classList.toggle('just-registered', on);
  }

  /** Refreshes the age of the last check ("checked 23 s ago"), which changes with time alone. */
  tick(): void {
    setText(this.meta, summary(this.domain));
  }
}
