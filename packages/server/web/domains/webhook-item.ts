/**
 * One webhook endpoint in the Webhooks section: its URL, state (active, failing, disabled),
 * events and age, the Deliveries, Enable (while disabled) and Remove buttons, and, while open,
 * its {@link DeliveriesTable}. Built once and patched by `update`, like a domain's card.
 */
import type { WebhookDelivery, WebhookEndpoint } from '@service/client';
import { el } from '../lib/dom.js';
import { setBadge, setText } from './patch.js';
import { DeliveriesTable, shortTime } from './webhook-deliveries.js';

/** What an endpoint's buttons ask the page to do. */
export interface WebhookActions {
  /** Open this endpoint's deliveries (closing any other's), or close them. */
  toggle(id: string): void;
  /** Re-read this endpoint's deliveries now. */
  refresh(id: string, button: HTMLButtonElement): void;
  /** Resume a disabled endpoint. */
  enable(id: string, button: HTMLButtonElement): void;
  /** Ask to remove the endpoint; `button` gets the focus back if the user changes their mind. */
  remove(id: string, button: HTMLButtonElement): void;
  /** Send one delivery again. */
  retry(id: string, deliveryId: string, button: HTMLButtonElement): void;
}

/** The endpoint's state: `disabled` (nothing is sent), `failing` (every attempt fails), or `active`. */
export function endpointState(endpoint: WebhookEndpoint): 'active' | 'failing' | 'disabled' {
  if (endpoint.disabledAt !== null) return 'disabled';
  return endpoint.failingSince !== null ? 'failing' : 'active';
}

/** What a failing or disabled endpoint's state means, and what to do; '' while active. */
function stateNote(endpoint: WebhookEndpoint): string {
  if (endpoint.disabledAt !== null)
    return `Disabled ${shortTime(endpoint.disabledAt)}: every attempt failed for too long, so nothing is sent. Fix the receiver, then Enable: the waiting deliveries go out first.`;
  if (endpoint.failingSince !== null)
    return `Every attempt has failed since ${shortTime(endpoint.failingSince)}; failed deliveries are retried with back-off, and the endpoint is disabled after 5 days of failures.`;
  return '';
}

/** An endpoint's list item, patched in place by every refresh. */
export class WebhookItem {
  readonly element: HTMLLIElement;
  private readonly badge = el('span');
  private readonly meta = el('span', { className: 'webhook-meta' });
  private readonly note = el('p', { className: 'webhook-note' });
  private readonly toggle = el('button', { type: 'button', className: 'small' });
  private readonly enable = el('button', {
    type: 'button',
    className: 'small primary',
    textContent: 'Enable',
  });
  private readonly refreshButton = el('button', {
    type: 'button',
    className: 'small',
    textContent: 'Refresh',
  });
  private readonly updated = el('span', { className: 'hint', textContent: 'Loading deliveries…' });
  private readonly body: HTMLElement;
  private readonly table: DeliveriesTable;
  /** Whether the endpoint is disabled: its deliveries wait for Enable, whatever their next attempt says. */
  private paused = false;

  constructor(
    readonly endpoint: WebhookEndpoint,
    actions: WebhookActions,
  ) {
    const { id, url } = endpoint;
    const remove = el('button', { type: 'button', className: 'small danger', textContent: 'Remove' });
    remove.setAttribute('aria-label', `Remove ${url}`);
    remove.addEventListener('click', () => actions.remove(id, remove));
    this.enable.setAttribute('aria-label', `Enable ${url}`);
    this.enable.addEventListener('click', () => actions.enable(id, this.enable));
    this.toggle.addEventListener('click', () => actions.toggle(id));
    this.refreshButton.setAttribute('aria-label', `Refresh deliveries of ${url}`);
    this.refreshButton.addEventListener('click', () => actions.refresh(id, this.refreshButton));
    this.table = new DeliveriesTable((deliveryId, button) => actions.retry(id, deliveryId, button));
    this.body = el(
      'div',
      { className: 'webhook-body', id: `deliveries-${id}` },
      el(
        'div',
        { className: 'deliveries-head' },
        el('h4', { textContent: 'Recent deliveries' }),
        this.updated,
        el('span', { className: 'grow' }),
        this.refreshButton,
      ),
      this.table.element,
    );
    this.toggle.setAttribute('aria-controls', this.body.id);
    this.element = el(
      'li',
      { className: 'webhook', dataset: { webhook: id } },
      el(
        'div',
        { className: 'webhook-head' },
        el('h3', { className: 'webhook-url mono', textContent: url }),
        this.badge,
        this.meta,
        el('span', { className: 'webhook-actions' }, this.toggle, this.enable, remove),
      ),
      this.note,
      this.body,
    );
    this.update(endpoint, false);
  }

  /** Shows `endpoint`'s latest state, its deliveries open or closed. */
  update(endpoint: WebhookEndpoint, open: boolean): void {
    const state = endpointState(endpoint);
    this.paused = state === 'disabled';
    setBadge(this.badge, state);
    setText(this.meta, `${endpoint.events.join(', ')} · added ${shortTime(endpoint.createdAt)}`);
    const note = stateNote(endpoint);
    setText(this.note, note);
    this.note.hidden = note === '';
    this.note.className = `webhook-note ${state}`;
    this.enable.hidden = state !== 'disabled';
    this.element.classList.toggle('disabled', state === 'disabled');
    setText(this.toggle, open ? 'Hide deliveries' : 'Deliveries');
    this.toggle.setAttribute('aria-expanded', String(open));
    this.body.hidden = !open;
  }

  /** Shows the deliveries just read, and when they were read. */
  showDeliveries(deliveries: WebhookDelivery[]): void {
    this.table.update(deliveries, this.paused);
    setText(this.updated, `updated ${new Date().toLocaleTimeString()}`);
  }

  /** Patches one delivery (the answer to a retry). */
  patchDelivery(delivery: WebhookDelivery): void {
    this.table.patch(delivery);
  }
}
