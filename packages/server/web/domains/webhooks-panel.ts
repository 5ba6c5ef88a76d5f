/**
 * The dashboard's Webhooks section (issue 20): the account's endpoints with their state, a form
 * to add one (its signing secret then shown once, with a copy button), Remove behind the
 * page's confirmation dialog, Enable for a disabled endpoint, and one endpoint's recent
 * deliveries at a time, each with Retry. The page's own reads drive the refreshes: the whole
 * list is read with the domains (domains.ts `loadAll`), the open endpoint's deliveries at every
 * status poll, so they stop while the server is away and catch up when it answers.
 */
import type { ServiceClient, WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@service/client';
import { ServiceApiError } from '@service/client';
import { copyToClipboard, el } from '../lib/dom.js';
import { confirmDelete, type DeleteWording } from './confirm-delete.js';
import { placeInOrder, setText } from './patch.js';
import { explainFailure } from './reconnect.js';
import { type WebhookActions, WebhookItem } from './webhook-item.js';

/**
 * Every event an endpoint can subscribe to, with what it means. Keyed by the client's type
 * (from the server's schema), so an event added there fails to compile here until described.
 */
const EVENTS: Record<WebhookEventType, string> = {
  'domain.created': 'a domain is registered',
  'domain.updated': 'the status of a domain or of one of its records changes',
  'domain.verified': 'a domain becomes verified',
  'domain.deleted': 'a domain is deleted',
  'domain.dkim_rotated': 'signing moves to a domain’s next DKIM key (automatic rotation)',
  'email.sent': 'a message is handed to a relay or the recipient’s mail server',
  'email.delivered': 'the recipient’s mail server takes a message',
  'email.deferred': 'a message waits for a retry',
  'email.bounced': 'a recipient refuses a message',
  'email.failed': 'a message cannot be sent',
  'email.complained': 'a recipient reports a message as spam',
  'email.opened': 'a tracked message is opened',
  'email.clicked': 'a tracked link is followed',
};

const REMOVE_ENDPOINT: DeleteWording = {
  verb: 'Remove',
  consequence: 'Nothing more is sent to it, and its deliveries are forgotten.',
  confirm: 'Remove endpoint',
};

/** After a Retry, the deliveries are read again this much later: the server sends it at once. */
const AFTER_RETRY_MS = 1500;

/** What the panel needs from the page. */
export interface WebhooksHost {
  /** The page's client; `undefined` once the key is forgotten. */
  client(): ServiceClient | undefined;
  /** The key was refused: the page brings back the key form. */
  keyRefused(error: ServiceApiError): void;
}

/** A key the API refuses: unknown or revoked (401), or scoped to other routes (403). */
function isKeyRefused(error: unknown): error is ServiceApiError {
  return error instanceof ServiceApiError && (error.status === 401 || error.status === 403);
}

/** The Webhooks section, built into `section` (a `.card` in domains.html). */
export class WebhooksPanel {
  private endpoints: WebhookEndpoint[] = [];
  private readonly items = new Map<string, WebhookItem>();
  /** The one endpoint whose deliveries are open. */
  private openId: string | undefined;
  private readonly title = el('h2', { id: 'webhooks-title', textContent: 'Webhooks', tabIndex: -1 });
  private readonly error = el('div', { id: 'webhooks-error', className: 'banner error', role: 'alert' });
  private readonly notice = el('p', { id: 'webhooks-notice', className: 'banner info', role: 'status' });
  private readonly list = el('ul', { className: 'webhook-list', id: 'webhook-list' });
  private readonly empty = el('p', {
    className: 'hint',
    id: 'webhooks-empty',
    textContent: 'No endpoints yet. Add one below to be told when a domain changes, instead of polling.',
  });
  private readonly secret = el('div', { className: 'secret-box', id: 'webhook-secret', role: 'region' });
  private readonly url = el('input', {
    id: 'webhook-url',
    className: 'mono',
    type: 'text',
    inputMode: 'url',
    autocomplete: 'off',
    spellcheck: false,
    required: true,
    placeholder: 'https://hooks.example.com/domains',
  });
  private readonly addButton = el('button', {
    id: 'webhook-add',
    type: 'submit',
    className: 'primary',
    textContent: 'Add endpoint',
  });
  private readonly formErrors = el('div', { id: 'webhook-form-errors', role: 'alert' });
  private readonly checkboxes = new Map<WebhookEventType, HTMLInputElement>();
  private adding = false;
  private retryTimer: number | undefined;
  private readonly actions: WebhookActions = {
    toggle: (id) => this.toggle(id),
    refresh: (id, button) => void this.refreshNow(id, button),
    enable: (id, button) => void this.enable(id, button),
    remove: (id, button) => void this.remove(id, button),
    retry: (id, deliveryId, button) => void this.retry(id, deliveryId, button),
  };

  constructor(
    section: HTMLElement,
    private readonly host: WebhooksHost,
  ) {
    this.error.hidden = true;
    this.secret.hidden = true;
    this.secret.setAttribute('aria-labelledby', 'webhook-secret-title');
    section.setAttribute('aria-labelledby', this.title.id);
    section.replaceChildren(
      this.title,
      el('p', {
        className: 'hint',
        textContent:
          'Your endpoints get a signed POST (Standard Webhooks) when a domain changes; a failed delivery is retried with back-off for 3 days.',
      }),
      this.error,
      this.notice,
      this.secret,
      this.list,
      this.empty,
      this.form(),
    );
  }

  /** The form that adds an endpoint: its URL and the events it wants (all, to begin with). */
  private form(): HTMLFormElement {
    const events = el(
      'fieldset',
      { className: 'webhook-events' },
      el('legend', { textContent: 'Events to send' }),
      ...Object.entries(EVENTS).map(([event, meaning]) => {
        const box = el('input', {
          type: 'checkbox',
          checked: true,
          value: event,
          id: `webhook-event-${event}`,
        });
        this.checkboxes.set(event as WebhookEventType, box);
        return el(
          'label',
          { htmlFor: box.id, className: 'webhook-event' },
          box,
          // One block, so a wrapped meaning stays beside the checkbox, under the name.
          el(
            'span',
            {},
            el('span', { className: 'mono', textContent: event }),
            ' ',
            el('span', { className: 'hint', textContent: meaning }),
          ),
        );
      }),
    );
    const form = el(
      'form',
      { id: 'webhook-form', className: 'webhook-form' },
      el('h3', { textContent: 'Add an endpoint' }),
      el(
        'div',
        { className: 'row' },
        el('label', { className: 'sr-only', htmlFor: this.url.id, textContent: 'Endpoint URL' }),
        this.url,
        this.addButton,
      ),
      events,
      this.formErrors,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.add();
    });
    return form;
  }

  /** Reads the endpoints and the open one's deliveries with `client`; failures are the page's to handle. */
  async load(client: ServiceClient): Promise<void> {
    const endpoints = await client.listWebhooks();
    if (this.host.client() !== client) return;
    this.endpoints = endpoints;
    if (this.openId !== undefined && !endpoints.some((e) => e.id === this.openId)) this.openId = undefined;
    this.render();
    await this.poll(client);
  }

  /**
   * Re-reads the open endpoint's deliveries (the page's status poll); resolves to whether it
   * asked the server anything. An endpoint removed elsewhere leaves the list.
   */
  async poll(client: ServiceClient): Promise<boolean> {
    const id = this.openId;
    if (id === undefined) return false;
    try {
      const deliveries = await client.webhookDeliveries(id);
      if (this.host.client() === client) this.items.get(id)?.showDeliveries(deliveries);
    } catch (error) {
      if (!(error instanceof ServiceApiError && error.code === 'WEBHOOK_NOT_FOUND')) throw error;
      this.drop(id);
    }
    return true;
  }

  /** Empties the section (the key was forgotten), the secret shown included. */
  clear(): void {
    clearTimeout(this.retryTimer);
    this.endpoints = [];
    this.items.clear();
    this.list.replaceChildren();
    this.openId = undefined;
    this.hideSecret();
    this.error.hidden = true;
    setText(this.notice, '');
    this.formErrors.replaceChildren();
  }

  /** Shows the endpoints, oldest first as listed, with only the open one's deliveries open. */
  private render(): void {
    const listed = new Set(this.endpoints.map((e) => e.id));
    for (const id of this.items.keys()) if (!listed.has(id)) this.items.delete(id);
    for (const endpoint of this.endpoints) {
      let item = this.items.get(endpoint.id);
      if (!item) {
        item = new WebhookItem(endpoint, this.actions);
        this.items.set(endpoint.id, item);
      }
      item.update(endpoint, endpoint.id === this.openId);
    }
    placeInOrder(
      this.list,
      this.endpoints.map((e) => this.items.get(e.id)!.element),
    );
    this.list.hidden = this.endpoints.length === 0;
    this.empty.hidden = this.endpoints.length > 0;
  }

  /** Takes an endpoint removed elsewhere off the page, and says so. */
  private drop(id: string): void {
    const gone = this.endpoints.find((e) => e.id === id);
    this.endpoints = this.endpoints.filter((e) => e.id !== id);
    if (this.openId === id) this.openId = undefined;
    this.render();
    if (gone)
      setText(this.notice, `${gone.url} is no longer an endpoint of this account (removed elsewhere).`);
  }

  private toggle(id: string): void {
    this.openId = this.openId === id ? undefined : id;
    this.render();
    if (this.openId !== undefined) void this.refreshNow(this.openId);
  }

  /** Shows why an action failed (explainFailure's words), or hands a refused key to the page. */
  private failed(error: unknown, what: string): void {
    if (isKeyRefused(error)) {
      this.host.keyRefused(error);
      return;
    }
    setText(this.error, `${what} ${explainFailure(error)}`);
    this.error.hidden = false;
  }

  /** The user asked (Refresh, or opening an endpoint): the endpoints and the open one's deliveries. */
  private async refreshNow(id: string, button?: HTMLButtonElement): Promise<void> {
    const client = this.host.client();
    if (!client) return;
    button?.setAttribute('aria-disabled', 'true');
    try {
      await this.load(client);
      this.error.hidden = true;
    } catch (error) {
      const url = this.endpoints.find((e) => e.id === id)?.url ?? 'the endpoint';
      this.failed(error, `Could not read the deliveries of ${url}.`);
    } finally {
      button?.removeAttribute('aria-disabled');
    }
  }

  private async add(): Promise<void> {
    const client = this.host.client();
    if (!client || this.adding) return;
    this.formErrors.replaceChildren();
    const url = this.url.value.trim();
    const events = [...this.checkboxes].filter(([, box]) => box.checked).map(([event]) => event);
    if (events.length === 0) {
      this.formErrors.append(
        el(
          'ul',
          { className: 'errors-list' },
          el('li', { textContent: 'Choose at least one event to send.' }),
        ),
      );
      return;
    }
    // aria-disabled rather than disabled, which would drop the button's focus.
    this.adding = true;
    this.addButton.setAttribute('aria-disabled', 'true');
    try {
      const created = await client.createWebhook({ url, events });
      this.url.value = '';
      this.error.hidden = true;
      this.endpoints = [...this.endpoints.filter((e) => e.id !== created.id), created];
      this.openId = created.id;
      this.render();
      this.showSecret(created.url, created.secret);
      void this.refreshNow(created.id);
    } catch (error) {
      if (isKeyRefused(error)) this.host.keyRefused(error);
      else
        this.formErrors.append(
          el('ul', { className: 'errors-list' }, el('li', { textContent: explainFailure(error) })),
        );
    } finally {
      this.adding = false;
      this.addButton.removeAttribute('aria-disabled');
    }
  }

  /**
   * Shows a new endpoint's signing secret: the only time the API tells it. It stays until
   * dismissed (or the key is forgotten); the focus goes to its Copy button.
   */
  private showSecret(url: string, secret: string): void {
    const copy = el('button', { type: 'button', className: 'small primary', textContent: 'Copy secret' });
    copy.addEventListener('click', () => void copyToClipboard(secret, copy));
    const done = el('button', { type: 'button', className: 'small', textContent: 'I have stored it' });
    done.addEventListener('click', () => {
      this.hideSecret();
      setText(this.notice, '');
      this.title.focus();
    });
    this.secret.replaceChildren(
      el('h3', { id: 'webhook-secret-title', textContent: 'Signing secret of the new endpoint' }),
      el('p', { className: 'webhook-url mono', textContent: url }),
      el('code', { className: 'secret-value', textContent: secret }),
      el(
        'p',
        { className: 'secret-warning' },
        el('strong', { textContent: 'Shown only once. ' }),
        'Copy it now and give it to your receiver, which verifies each request’s webhook-signature with it. It cannot be shown again: if it is lost, remove the endpoint and add it again.',
      ),
      el('div', { className: 'row' }, copy, done),
    );
    this.secret.hidden = false;
    setText(this.notice, `Added ${url}. Copy its signing secret now: it is shown only once.`);
    copy.focus();
  }

  private hideSecret(): void {
    this.secret.replaceChildren();
    this.secret.hidden = true;
  }

  private async enable(id: string, button: HTMLButtonElement): Promise<void> {
    const client = this.host.client();
    if (!client) return;
    try {
      const endpoint = await client.enableWebhook(id);
      this.endpoints = this.endpoints.map((e) => (e.id === id ? endpoint : e));
      this.error.hidden = true;
      this.openId = id;
      this.render();
      setText(this.notice, `Enabled ${endpoint.url}: its waiting deliveries are being sent.`);
      // The Enable button has just been hidden: the focus goes to the deliveries now open.
      this.items.get(id)?.element.querySelector<HTMLButtonElement>('[aria-expanded]')?.focus();
      void this.refreshNow(id);
    } catch (error) {
      this.failed(error, 'Could not enable the endpoint.');
      button.focus();
    }
  }

  private async remove(id: string, button: HTMLButtonElement): Promise<void> {
    const client = this.host.client();
    const endpoint = this.endpoints.find((e) => e.id === id);
    if (!client || !endpoint || !(await confirmDelete(endpoint.url, button, REMOVE_ENDPOINT))) return;
    try {
      await client.deleteWebhook(id);
    } catch (error) {
      if (!(error instanceof ServiceApiError && error.code === 'WEBHOOK_NOT_FOUND')) {
        this.failed(error, `Could not remove ${endpoint.url}.`);
        button.focus();
        return;
      }
    }
    this.endpoints = this.endpoints.filter((e) => e.id !== id);
    if (this.openId === id) this.openId = undefined;
    this.error.hidden = true;
    this.render();
    setText(this.notice, `Removed ${endpoint.url}.`);
    this.title.focus();
  }

  private async retry(id: string, deliveryId: string, button: HTMLButtonElement): Promise<void> {
    const client = this.host.client();
    if (!client) return;
    try {
      const delivery: WebhookDelivery = await client.retryWebhookDelivery(id, deliveryId);
      this.items.get(id)?.patchDelivery(delivery);
      this.error.hidden = true;
      setText(this.notice, `Sending ${delivery.event} again.`);
      clearTimeout(this.retryTimer);
      this.retryTimer = window.setTimeout(() => void this.refreshNow(id), AFTER_RETRY_MS);
    } catch (error) {
      this.failed(error, 'Could not retry the delivery.');
    }
    button.focus();
  }
}
