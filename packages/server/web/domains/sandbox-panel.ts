/**
 * The dashboard's Sandbox section (issue 40): send a test email from `onboarding@sandbox.test`
 * to one of the simulator's addresses, and see what was captured, newest first, each with the
 * verdicts a receiver's checks reach (SPF, DKIM, DMARC). One message opens at a time: its
 * events (sent, delivered, bounced, complained), the email as rendered (a sandboxed frame: no
 * scripts, no access to this page), its text part and its headers. Read with the domains and at
 * each status poll, like the webhooks; a server in production mode has no sandbox, and the
 * section stays hidden.
 */
import type { CapturedMessage, CapturedMessageSummary, Email, ServiceClient } from '@service/client';
import { ServiceApiError } from '@service/client';
import { el } from '../lib/dom.js';
import { messageView } from './message-view.js';
import { OneOpen } from './one-open.js';
import { keepFocusIn, placeInOrder, setText } from './patch.js';
import { shortTime } from './webhook-deliveries.js';

/** Captures listed: the newest ones. */
const SHOWN = 20;

/** The simulator's addresses and what each does, for the form's choice. */
const RECIPIENTS = {
  'delivered@sandbox.test': 'delivered',
  'bounced@sandbox.test': 'bounced: a hard bounce, then suppressed',
  'complained@sandbox.test': 'complained: delivered, then reported as spam',
} as const;

export interface SandboxHost {
  /** The page's client; `undefined` once the key is forgotten. */
  client(): ServiceClient | undefined;
}

/** A verdict as a badge: green when it passes, red otherwise. */
function verdict(name: string, result: string): HTMLElement {
  return el('span', {
    className: `badge ${result === 'pass' ? 'delivered' : 'failed'}`,
    textContent: `${name} ${result}`,
  });
}

/** The Sandbox section, built into `section` (a `.card` in domains.html). */
export class SandboxPanel {
  private messages: CapturedMessageSummary[] = [];
  private readonly rows = new Map<string, { element: HTMLLIElement; toggle: HTMLButtonElement }>();
  private readonly open = new OneOpen('capture-detail');
  /** Where the focus goes when the row that had it leaves (pushed off by newer captures). */
  private readonly title = el('h2', { id: 'sandbox-title', textContent: 'Sandbox', tabIndex: -1 });
  private readonly list = el('ul', { className: 'capture-list', id: 'capture-list' });
  private readonly empty = el('p', {
    className: 'hint',
    id: 'sandbox-empty',
    textContent: 'Nothing captured yet. Send a test email above: it lands here in a second or two.',
  });
  private readonly notice = el('p', { id: 'sandbox-notice', className: 'banner info', role: 'status' });
  private readonly to = el('select', { id: 'sandbox-to' });
  private readonly subject = el('input', {
    id: 'sandbox-subject',
    type: 'text',
    className: 'grow',
    value: 'Hello from the sandbox',
    required: true,
  });
  private readonly sendButton = el('button', { type: 'submit', className: 'primary', textContent: 'Send' });
  private sending = false;

  constructor(
    private readonly section: HTMLElement,
    private readonly host: SandboxHost,
  ) {
    section.setAttribute('aria-labelledby', this.title.id);
    section.hidden = true;
    for (const [address, meaning] of Object.entries(RECIPIENTS))
      this.to.append(el('option', { value: address, textContent: `${address} (${meaning})` }));
    const form = el(
      'form',
      { className: 'row sandbox-form' },
      el('label', { htmlFor: this.to.id, textContent: 'To' }),
      this.to,
      el('label', { htmlFor: this.subject.id, textContent: 'Subject' }),
      this.subject,
      this.sendButton,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.send();
    });
    section.replaceChildren(
      this.title,
      el('p', {
        className: 'hint',
        textContent:
          'Try sending before any domain is verified: mail from onboarding@sandbox.test to the simulator never leaves this machine. Each copy is signed and checked as a receiver would (SPF, DKIM, DMARC), and its events and webhooks follow the outcome the address names.',
      }),
      form,
      this.notice,
      this.list,
      this.empty,
    );
  }

  /** Reads the inbox; a server without a sandbox (production mode) hides the section. */
  async load(client: ServiceClient): Promise<void> {
    let page: { messages: CapturedMessageSummary[] };
    try {
      page = await client.listSandboxMessages({ limit: SHOWN });
    } catch (error) {
      if (error instanceof ServiceApiError && error.status === 404) {
        this.section.hidden = true;
        return;
      }
      throw error;
    }
    if (this.host.client() !== client) return;
    this.section.hidden = false;
    this.messages = page.messages;
    this.render();
    if (this.open.openId !== undefined) await this.showDetail(client, this.open.openId);
  }

  /** The page's status poll: the inbox again while the section is shown. */
  async poll(client: ServiceClient): Promise<boolean> {
    if (this.section.hidden) return false;
    await this.load(client);
    return true;
  }

  clear(): void {
    this.messages = [];
    this.rows.clear();
    this.list.replaceChildren();
    this.open.close();
    setText(this.notice, '');
    this.section.hidden = true;
  }

  private async send(): Promise<void> {
    const client = this.host.client();
    if (!client || this.sending) return;
    this.sending = true;
    this.sendButton.setAttribute('aria-disabled', 'true');
    try {
      const to = this.to.value;
      const { id } = await client.sendEmail({
        from: 'Sandbox <onboarding@sandbox.test>',
        to: [to],
        subject: this.subject.value,
        html: `<p>Hello from the sandbox.</p><p>This message went to <b>${to}</b>.</p>`,
      });
      setText(this.notice, `Sent ${id} to ${to}; it shows below once captured.`);
      // The worker takes it within a second; read the inbox then rather than at the next poll.
      window.setTimeout(() => void this.reload(), 1200);
    } catch (error) {
      setText(this.notice, `Not sent: ${(error as Error).message}`);
    } finally {
      this.sending = false;
      this.sendButton.removeAttribute('aria-disabled');
    }
  }

  private async reload(): Promise<void> {
    const client = this.host.client();
    if (client) await this.load(client).catch(() => {});
  }

  /** Newest first; rows are built once (a capture never changes) and kept in place. */
  private render(): void {
    keepFocusIn(this.list, this.title, () => this.renderRows());
  }

  private renderRows(): void {
    const listed = new Set(this.messages.map((m) => m.id));
    for (const id of this.rows.keys()) if (!listed.has(id)) this.rows.delete(id);
    for (const message of this.messages)
      if (!this.rows.has(message.id)) this.rows.set(message.id, this.row(message));
    placeInOrder(
      this.list,
      this.messages.map((m) => this.rows.get(m.id)!.element),
    );
    this.open.place(this.rows);
    this.list.hidden = this.messages.length === 0;
    this.empty.hidden = this.messages.length > 0;
  }

  private row(message: CapturedMessageSummary): { element: HTMLLIElement; toggle: HTMLButtonElement } {
    const { spf, dkim, dmarc } = message.authentication;
    const toggle = this.open.toggleButton(() => void this.toggle(message.id));
    const element = el(
      'li',
      { className: 'capture', dataset: { id: message.id } },
      el(
        'div',
        { className: 'capture-head' },
        el('span', { className: 'capture-subject', textContent: message.subject }),
        el('span', {
          className: 'webhook-meta',
          textContent: `to ${message.to} · ${shortTime(message.capturedAt)}`,
        }),
        el(
          'span',
          { className: 'verdicts' },
          verdict('SPF', spf.result),
          verdict('DKIM', dkim[0]?.result ?? 'none'),
          verdict('DMARC', dmarc.result),
        ),
        el('span', { className: 'webhook-actions' }, toggle),
      ),
    );
    return { element, toggle };
  }

  private async toggle(id: string): Promise<void> {
    const opened = this.open.flip(id);
    this.render();
    const client = this.host.client();
    if (client && opened) await this.showDetail(client, id);
  }

  /** The open message: its events, the email as rendered, its text and its headers. */
  private async showDetail(client: ServiceClient, id: string): Promise<void> {
    let message: CapturedMessage;
    let email: Email;
    try {
      message = await client.getSandboxMessage(id);
      email = await client.getEmail(message.emailId);
    } catch (error) {
      this.open.failed(id, error);
      return;
    }
    if (this.open.openId !== id || this.host.client() !== client) return;
    const recipient = email.recipients.find((r) => r.address === message.to);
    const events = recipient?.events ?? [];
    const eventText = events
      .map((e) => `${e.type}${e.smtpCode === null ? '' : ` ${e.smtpCode}`} · ${shortTime(e.at)}`)
      .join('\n');
    // Only the events change once captured (a complaint comes after delivery): the rest stays.
    const shown = this.open.detail.querySelector<HTMLElement>('.capture-events');
    if (shown?.dataset.for === id) {
      setText(shown, eventText);
      return;
    }
    this.open.detail.replaceChildren(
      el('h3', { textContent: `Events (${email.status})` }),
      el('pre', { className: 'capture-events', dataset: { for: id }, textContent: eventText }),
      ...messageView(message),
      el('p', { className: 'hint mono', textContent: message.authentication.header }),
    );
  }
}
