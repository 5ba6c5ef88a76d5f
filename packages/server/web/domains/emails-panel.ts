/**
 * The dashboard's Emails section (issue 40): the account's messages, newest first, filtered by
 * status and by a recipient's address, each with its status, sender, first recipients and
 * time; one opens at a time with every recipient's events (the SMTP answers, bounces,
 * complaints). Read with the domains and at each status poll, so a message's status moves on
 * by itself.
 */

import type { Email, EmailContent, ListedEmail, ServiceClient } from '@service/client';
import { EMAIL_STATUSES } from '../../src/email/status.js';
import { el } from '../lib/dom.js';
import { messageView } from './message-view.js';
import { OneOpen } from './one-open.js';
import { keepFocusIn, placeInOrder, setText } from './patch.js';
import { shortTime } from './webhook-deliveries.js';

const SHOWN = 20;
/** The filter's choices: every status a message has (the server's own list). */
const STATUSES: readonly Email['status'][] = EMAIL_STATUSES;

export interface EmailsHost {
  client(): ServiceClient | undefined;
}

/** The badge colour of a message's status. */
function tone(status: Email['status']): string {
  if (status === 'sent') return 'delivered';
  if (status === 'bounced' || status === 'failed' || status === 'canceled') return 'failed';
  return 'pending';
}

export class EmailsPanel {
  private emails: ListedEmail[] = [];
  private readonly rows = new Map<
    string,
    { element: HTMLLIElement; badge: HTMLElement; toggle: HTMLButtonElement }
  >();
  private readonly open = new OneOpen('email-detail');
  /** Where the focus goes when the row that had it leaves the list. */
  private readonly title = el('h2', { id: 'emails-title', textContent: 'Emails', tabIndex: -1 });
  private readonly list = el('ul', { className: 'capture-list', id: 'email-list' });
  private readonly empty = el('p', {
    className: 'hint',
    id: 'emails-empty',
    textContent: 'No messages yet.',
  });
  private readonly status = el('select', { id: 'emails-status' });
  private readonly recipient = el('input', {
    id: 'emails-recipient',
    type: 'search',
    className: 'grow',
    placeholder: 'ann@example.com',
    autocomplete: 'off',
  });

  constructor(
    section: HTMLElement,
    private readonly host: EmailsHost,
  ) {
    section.setAttribute('aria-labelledby', this.title.id);
    this.status.append(
      el('option', { value: '', textContent: 'Any status' }),
      ...STATUSES.map((s) => el('option', { value: s, textContent: s })),
    );
    const form = el(
      'form',
      { className: 'row sandbox-form', role: 'search' },
      el('label', { htmlFor: this.status.id, textContent: 'Status' }),
      this.status,
      el('label', { htmlFor: this.recipient.id, textContent: 'To' }),
      this.recipient,
      el('button', { type: 'submit', className: 'small', textContent: 'Filter' }),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.reload();
    });
    this.status.addEventListener('change', () => void this.reload());
    section.replaceChildren(
      this.title,
      el('p', {
        className: 'hint',
        textContent: `The ${SHOWN} newest messages that match; open one for what happened to each recipient.`,
      }),
      form,
      this.list,
      this.empty,
    );
  }

  async load(client: ServiceClient): Promise<void> {
    const recipient = this.recipient.value.trim();
    const page = await client.listEmails({
      limit: SHOWN,
      ...(this.status.value && { status: this.status.value as Email['status'] }),
      ...(recipient && { recipient }),
    });
    if (this.host.client() !== client) return;
    this.emails = page.emails;
    this.render();
    if (this.open.openId !== undefined && this.emails.some((e) => e.id === this.open.openId))
      await this.showDetail(client, this.open.openId);
  }

  clear(): void {
    this.emails = [];
    this.rows.clear();
    this.list.replaceChildren();
    this.open.close();
  }

  private async reload(): Promise<void> {
    const client = this.host.client();
    if (!client) return;
    try {
      await this.load(client);
    } catch (error) {
      this.emails = [];
      this.render();
      setText(this.empty, `Not listed: ${(error as Error).message}`);
    }
  }

  private render(): void {
    keepFocusIn(this.list, this.title, () => this.renderRows());
  }

  private renderRows(): void {
    const listed = new Set(this.emails.map((e) => e.id));
    for (const id of this.rows.keys()) if (!listed.has(id)) this.rows.delete(id);
    for (const email of this.emails) {
      let row = this.rows.get(email.id);
      if (!row) {
        row = this.row(email);
        this.rows.set(email.id, row);
      }
      const className = `badge ${tone(email.status)}`;
      if (row.badge.className !== className) row.badge.className = className;
      setText(row.badge, email.status);
    }
    this.open.place(this.rows);
    placeInOrder(
      this.list,
      this.emails.map((e) => this.rows.get(e.id)!.element),
    );
    this.list.hidden = this.emails.length === 0;
    this.empty.hidden = this.emails.length > 0;
    setText(this.empty, 'No messages match.');
  }

  private row(email: ListedEmail) {
    const badge = el('span');
    const toggle = this.open.toggleButton(
      () => void this.toggle(email.id),
      `Open the message “${email.subject}”`,
    );
    const more = email.to.length === 10 ? ' and more' : '';
    const element = el(
      'li',
      { className: 'capture', dataset: { id: email.id } },
      el(
        'div',
        { className: 'capture-head' },
        el('span', { className: 'capture-subject', textContent: email.subject }),
        badge,
        el('span', {
          className: 'webhook-meta',
          textContent: `from ${email.from} to ${email.to.join(', ')}${more} · ${shortTime(email.createdAt)}${email.scheduledAt ? ` · goes ${shortTime(email.scheduledAt)}` : ''}`,
        }),
        el('span', { className: 'webhook-actions' }, toggle),
      ),
    );
    return { element, badge, toggle };
  }

  private async toggle(id: string): Promise<void> {
    const opened = this.open.flip(id);
    this.render();
    const client = this.host.client();
    if (client && opened) await this.showDetail(client, id);
  }

  /**
   * Each recipient's status and events, one line per event (what a status poll moves on), and
   * the message itself as rendered, read once when it opens.
   */
  private async showDetail(client: ServiceClient, id: string): Promise<void> {
    const shown = this.open.detail.querySelector('pre');
    const opening = shown?.dataset.for !== id;
    let email: Email;
    let content: EmailContent | undefined;
    try {
      [email, content] = await Promise.all([
        client.getEmail(id),
        opening ? client.getEmailContent(id) : undefined,
      ]);
    } catch (error) {
      this.open.failed(id, error);
      return;
    }
    if (this.open.openId !== id || this.host.client() !== client) return;
    const text = email.recipients
      .map((r) =>
        [
          `${r.address} (${r.kind}): ${r.status}`,
          ...r.events.map(
            (e) =>
              `  ${e.type}${e.smtpCode === null ? '' : ` ${e.smtpCode}`} · ${shortTime(e.at)}${e.smtpText ? ` · ${e.smtpText}` : ''}${e.url ? ` · ${e.url}` : ''}${e.machineReason ? ` · by a machine (${e.machineReason.replaceAll('_', ' ')})` : ''}`,
          ),
        ].join('\n'),
      )
      .join('\n');
    const events = this.open.detail.querySelector('pre');
    if (events && events.dataset.for === id) setText(events, text);
    else
      this.open.detail.replaceChildren(
        el('h3', { textContent: 'Recipients and events' }),
        el('pre', { className: 'capture-events', dataset: { for: id }, textContent: text }),
        ...(content ? messageView(content) : []),
      );
  }
}
