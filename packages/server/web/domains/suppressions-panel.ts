/**
 * The dashboard's Suppressions section (issue 40): the addresses the account no longer sends
 * to (hard bounces, complaints, unsubscribes), by address, 100 a page with "Show more", each
 * with why, for which mail and since when, and Remove, after which later messages reach the
 * address again. Read with the domains and at each status poll (a sandbox bounce shows up
 * within seconds).
 */
import type { ServiceClient, Suppression } from '@service/client';
import { ServiceApiError } from '@service/client';
import { el } from '../lib/dom.js';
import { keepFocusIn, placeInOrder, setText } from './patch.js';
import { shortTime } from './webhook-deliveries.js';

/** The API's page size for suppressions. */
const PAGE = 100;

export interface SuppressionsHost {
  client(): ServiceClient | undefined;
}

/** Which mail a suppression stops, in words. */
function scopeText(scope: Suppression['scope']): string {
  return scope === 'all' ? 'all mail' : `${scope} mail`;
}

export class SuppressionsPanel {
  private suppressions: Suppression[] = [];
  /** Whether the last page read was full: there may be more after it. */
  private more = false;
  private readonly rows = new Map<string, HTMLLIElement>();
  /** Where the focus goes when the row that had it leaves at a refresh. */
  private readonly title = el('h2', { id: 'suppressions-title', textContent: 'Suppressions', tabIndex: -1 });
  private readonly list = el('ul', { className: 'capture-list', id: 'suppression-list' });
  private readonly empty = el('p', {
    className: 'hint',
    id: 'suppressions-empty',
    textContent: 'No suppressed addresses. A hard bounce, a spam complaint or an unsubscribe puts one here.',
  });
  private readonly notice = el('p', { id: 'suppressions-notice', className: 'banner info', role: 'status' });
  private readonly moreButton = el('button', {
    type: 'button',
    className: 'small',
    textContent: 'Show more',
  });

  constructor(
    section: HTMLElement,
    private readonly host: SuppressionsHost,
  ) {
    section.setAttribute('aria-labelledby', this.title.id);
    this.moreButton.addEventListener('click', () => void this.showMore());
    // Where the focus goes when the removed row (and its button) leaves.
    this.notice.tabIndex = -1;
    section.replaceChildren(
      this.title,
      el('p', {
        className: 'hint',
        textContent:
          'Addresses your messages skip (their recipient status is "suppressed"). Remove one only when you know it works again: sending to addresses that bounce or complain harms your domains’ reputation.',
      }),
      this.notice,
      this.list,
      this.empty,
      this.moreButton,
    );
  }

  /** Reads the first page again (with as many more as were shown); failures are the page's to handle. */
  async load(client: ServiceClient): Promise<void> {
    const shown = Math.max(PAGE, this.suppressions.length);
    const read: Suppression[] = [];
    let page: Suppression[];
    do {
      page = await client.listSuppressions(read.length ? { after: read.at(-1)!.address } : {});
      read.push(...page);
    } while (page.length === PAGE && read.length < shown);
    if (this.host.client() !== client) return;
    this.suppressions = read;
    this.more = page.length === PAGE;
    this.render();
  }

  clear(): void {
    this.suppressions = [];
    this.rows.clear();
    this.list.replaceChildren();
    setText(this.notice, '');
  }

  private async showMore(): Promise<void> {
    const client = this.host.client();
    const last = this.suppressions.at(-1);
    if (!client || !last) return;
    const page = await client.listSuppressions({ after: last.address });
    this.suppressions.push(...page);
    this.more = page.length === PAGE;
    this.render();
  }

  private render(): void {
    keepFocusIn(this.list, this.title, () => this.renderRows());
  }

  private renderRows(): void {
    const listed = new Set(this.suppressions.map((s) => s.address));
    for (const address of this.rows.keys()) if (!listed.has(address)) this.rows.delete(address);
    for (const s of this.suppressions) if (!this.rows.has(s.address)) this.rows.set(s.address, this.row(s));
    placeInOrder(
      this.list,
      this.suppressions.map((s) => this.rows.get(s.address)!),
    );
    this.list.hidden = this.suppressions.length === 0;
    this.empty.hidden = this.suppressions.length > 0;
    this.moreButton.hidden = !this.more;
  }

  private row(s: Suppression): HTMLLIElement {
    const remove = el('button', { type: 'button', className: 'small', textContent: 'Remove' });
    remove.setAttribute('aria-label', `Remove ${s.address} from the suppression list`);
    remove.addEventListener('click', () => void this.remove(s.address, remove));
    return el(
      'li',
      { className: 'capture', dataset: { address: s.address } },
      el(
        'div',
        { className: 'capture-head' },
        el('span', { className: 'capture-subject', textContent: s.address }),
        el('span', {
          className: 'webhook-meta',
          textContent: `${scopeText(s.scope)} · since ${shortTime(s.createdAt)} · ${s.reason}`,
        }),
        el('span', { className: 'webhook-actions' }, remove),
      ),
    );
  }

  private async remove(address: string, button: HTMLButtonElement): Promise<void> {
    const client = this.host.client();
    if (!client || button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    try {
      await client.removeSuppression(address);
      setText(this.notice, `${address} is off the list: later messages reach it again.`);
    } catch (error) {
      if (!(error instanceof ServiceApiError && error.code === 'SUPPRESSION_NOT_FOUND')) {
        setText(this.notice, `${address} was not removed: ${(error as Error).message}`);
        button.removeAttribute('aria-disabled');
        return;
      }
      setText(this.notice, `${address} was already off the list.`);
    }
    this.suppressions = this.suppressions.filter((s) => s.address !== address);
    this.render();
    // The focus was on the row's button, now gone: keep it in the section.
    (this.moreButton.hidden ? this.notice : this.moreButton).focus();
  }
}
