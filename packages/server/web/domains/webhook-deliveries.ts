/**
 * The recent deliveries of one webhook endpoint, newest first: per delivery its event, status,
 * attempts, the last attempt (HTTP status or error, duration) and the next retry, with a Retry
 * button. Rows are matched by delivery id and patched in place by `update`, so a refresh keeps
 * the focus on a Retry button and a text selection in a row (domains/patch.ts).
 */
import type { WebhookDelivery } from '@service/client';
import { el } from '../lib/dom.js';
import { placeInOrder, setBadge, setText } from './patch.js';

/** A date the way the page shows it: the time alone when it is today, else the date too. */
export function shortTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  return date.toDateString() === now.toDateString() ? date.toLocaleTimeString() : date.toLocaleString();
}

/** The last attempt in words: "HTTP 204 · 12 ms", "HTTP 500 · 3 ms: …", "no answer · 10 s: timed out". */
export function lastAttempt(d: WebhookDelivery): string {
  if (d.attempts === 0) return 'not attempted yet';
  const answer = d.lastStatusCode === null ? 'no answer' : `HTTP ${d.lastStatusCode}`;
  const duration = d.lastDurationMs === null ? '' : ` · ${d.lastDurationMs} ms`;
  const error = d.lastError ? `: ${d.lastError}` : '';
  return `${answer}${duration}${error}`;
}

/**
 * When the next attempt is due: a time, "due now", "when enabled" while the endpoint is
 * disabled (`paused`), or "–" once delivered or failed.
 */
function nextAttempt(d: WebhookDelivery, paused: boolean, now = Date.now()): string {
  if (d.nextAttemptAt === null) return '–';
  if (paused) return 'when enabled';
  return Date.parse(d.nextAttemptAt) <= now ? 'due now' : shortTime(d.nextAttemptAt);
}

/** One delivery's table row, patched by `update`. */
class DeliveryRow {
  readonly row: HTMLTableRowElement;
  private readonly happened = el('span', { className: 'hint' });
  private readonly badge = el('span');
  private readonly attempts = el('td', { className: 'attempts', dataset: { label: 'Attempts' } });
  private readonly last = el('td', { className: 'last', dataset: { label: 'Last attempt' } });
  private readonly next = el('td', { className: 'next', dataset: { label: 'Next retry' } });

  constructor(delivery: WebhookDelivery, retry: (id: string, button: HTMLButtonElement) => void) {
    const button = el('button', { type: 'button', className: 'small', textContent: 'Retry' });
    button.setAttribute(
      'aria-label',
      `Retry ${delivery.event} of ${new Date(delivery.createdAt).toLocaleString()}`,
    );
    button.addEventListener('click', () => retry(delivery.id, button));
    this.row = el(
      'tr',
      { dataset: { delivery: delivery.id } },
      el(
        'td',
        { className: 'event' },
        el('span', { className: 'mono', textContent: delivery.event }),
        ' ',
        this.happened,
      ),
      el('td', { className: 'status' }, this.badge),
      this.attempts,
      this.last,
      this.next,
      el('td', { className: 'action' }, button),
    );
    this.update(delivery, false);
  }

  update(d: WebhookDelivery, paused: boolean): void {
    setText(this.happened, shortTime(d.createdAt));
    setBadge(this.badge, d.status);
    setText(this.attempts, String(d.attempts));
    setText(this.last, lastAttempt(d));
    setText(this.next, nextAttempt(d, paused));
  }
}

/** An endpoint's deliveries table, kept in step with the latest read by `update`. */
export class DeliveriesTable {
  readonly element: HTMLElement;
  private readonly tbody = el('tbody');
  private readonly table: HTMLTableElement;
  private readonly empty = el('p', {
    className: 'hint',
    textContent: 'No deliveries yet: one appears here whenever a domain of this account changes.',
  });
  private rows = new Map<string, DeliveryRow>();
  private paused = false;

  /** `retry` asks the page to send delivery `id` again; `button` is the one pressed. */
  constructor(private readonly retry: (id: string, button: HTMLButtonElement) => void) {
    const headings = ['Event', 'Status', 'Attempts', 'Last attempt', 'Next retry'];
    this.table = el(
      'table',
      { className: 'deliveries' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...headings.map((h) => el('th', { scope: 'col', textContent: h })),
          el('th', { scope: 'col' }, el('span', { className: 'sr-only', textContent: 'Action' })),
        ),
      ),
      this.tbody,
    );
    this.element = el('div', { className: 'deliveries-wrap' }, this.table, this.empty);
    this.table.hidden = true;
  }

  /** Shows `deliveries` (newest first, as the API lists them); `paused`: the endpoint is disabled. */
  update(deliveries: WebhookDelivery[], paused: boolean): void {
    this.paused = paused;
    const keep = new Map<string, DeliveryRow>();
    for (const delivery of deliveries) {
      const row = this.rows.get(delivery.id) ?? new DeliveryRow(delivery, this.retry);
      row.update(delivery, paused);
      keep.set(delivery.id, row);
    }
    this.rows = keep;
    placeInOrder(
      this.tbody,
      [...keep.values()].map((r) => r.row),
    );
    this.table.hidden = deliveries.length === 0;
    this.empty.hidden = deliveries.length > 0;
  }

  /** Patches one delivery (the answer to a retry), if it is shown. */
  patch(delivery: WebhookDelivery): void {
    this.rows.get(delivery.id)?.update(delivery, this.paused);
  }
}
