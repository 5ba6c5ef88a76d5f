/**
 * The domains dashboard (`/domains`): paste a key (kept for this tab only), register domains,
 * see every record with copy buttons and zone-file lines, watch statuses update live with the
 * per-record diagnostics, and delete domains. Built on `@service/client` in the browser.
 */
import { type DomainResult, ServiceApiError, ServiceClient, zoneFileLines } from '@service/client';
import { copyToClipboard, el } from './lib/dom.js';

const KEY_STORAGE = 'service.apiKey';
/** Pending domains and open panels are re-polled this often; the server re-checks DNS when stale. */
const POLL_MS = 5000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let client: ServiceClient | undefined;
const domains = new Map<string, DomainResult>();
const open = new Set<string>();
let pollTimer: number | undefined;

function timeAgo(iso: string | null): string {
  if (!iso) return 'not checked yet';
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 60) return `checked ${seconds} s ago`;
  if (seconds < 3600) return `checked ${Math.round(seconds / 60)} min ago`;
  return `checked ${Math.round(seconds / 3600)} h ago`;
}

function copyButton(text: string, label: string, what: string): HTMLButtonElement {
  const button = el('button', { type: 'button', className: 'small copy', textContent: label });
  button.setAttribute('aria-label', `${label} ${what}`);
  button.addEventListener('click', () => void copyToClipboard(text, button));
  return button;
}

function badge(status: string): HTMLElement {
  return el('span', { className: `badge ${status}`, textContent: status });
}

function renderDomain(domain: DomainResult): HTMLElement {
  const dkim = domain.records.filter((r) => r.type === 'CNAME');
  const dkimVerified = dkim.filter((r) => r.status === 'verified').length;
  const dmarc = domain.records.find((r) => r.type === 'TXT');
  const isOpen = open.has(domain.domain);
  const card = el('article', { className: 'card domain', dataset: { domain: domain.domain } });
  const toggle = el('button', {
    type: 'button',
    className: 'small',
    textContent: isOpen ? 'Hide records' : 'Records',
  });
  toggle.setAttribute('aria-expanded', String(isOpen));
  toggle.addEventListener('click', () => {
    if (open.has(domain.domain)) open.delete(domain.domain);
    else open.add(domain.domain);
    render();
  });
  const remove = el('button', { type: 'button', className: 'small danger', textContent: 'Delete' });
  remove.addEventListener('click', () => void deleteDomain(domain.domain));
  card.append(
    el(
      'div',
      { className: 'domain-head' },
      el('span', { className: 'domain-name', textContent: domain.domain }),
      badge(domain.status),
      el('span', {
        className: 'domain-meta',
        textContent: `${domain.type} · DKIM ${dkimVerified}/${dkim.length} · DMARC ${dmarc?.status ?? '–'} · ${timeAgo(domain.lastCheckedAt)}`,
      }),
      el('span', { className: 'grow' }),
      toggle,
      remove,
    ),
  );
  if (!isOpen) return card;

  const rows = domain.records.flatMap((record) => {
    const row = el(
      'tr',
      { className: record.reason ? 'problem' : '' },
      el('td', { textContent: record.type }),
      el(
        'td',
        { className: 'value' },
        el('span', { className: 'mono', textContent: record.name }),
        copyButton(record.name, 'Copy', `the name of ${record.fqdn}`),
      ),
      el(
        'td',
        { className: 'value' },
        el('span', { className: 'mono', textContent: record.value }),
        copyButton(record.value, 'Copy', `the value of ${record.fqdn}`),
      ),
      el('td', {}, badge(record.status)),
    );
    if (!record.reason) return [row];
    const why = el(
      'td',
      { colSpan: 4, className: 'diagnostic' },
      el('strong', { textContent: record.reason.replace('_', ' ') }),
      ` — ${record.detail ?? ''}`,
    );
    if (record.found) why.append(el('div', { className: 'mono', textContent: `found: ${record.found}` }));
    return [row, el('tr', {}, why)];
  });
  const zone = zoneFileLines(domain).join('\n');
  card.append(
    el(
      'div',
      { className: 'domain-body' },
      el(
        'table',
        { className: 'records' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...['Type', 'Name (relative to the parent domain)', 'Value', 'Status'].map((h) =>
              el('th', { textContent: h }),
            ),
          ),
        ),
        el('tbody', {}, ...rows),
      ),
      el(
        'div',
        {},
        el(
          'div',
          { className: 'zone-head' },
          el('span', { className: 'hint', textContent: 'Zone-file lines (full names)' }),
          copyButton(zone, 'Copy zone lines', domain.domain),
        ),
        // focusable, so keyboard users can scroll long lines (axe: scrollable-region-focusable)
        el('pre', { textContent: zone, tabIndex: 0, ariaLabel: `Zone-file lines for ${domain.domain}` }),
      ),
    ),
  );
  return card;
}

function render(): void {
  const list = $('domains');
  const sorted = [...domains.values()].sort((a, b) => a.domain.localeCompare(b.domain));
  list.replaceChildren(...sorted.map(renderDomain));
  $('empty').hidden = sorted.length > 0;
  const pending = sorted.filter((d) => d.status === 'pending').length;
  $('live').textContent =
    sorted.length === 0
      ? ''
      : pending > 0
        ? `Live: re-checking ${pending} pending every ${POLL_MS / 1000} s`
        : 'All verified';
}

function showListError(error: unknown): void {
  if (error instanceof ServiceApiError && (error.code === 'AUTH_INVALID' || error.code === 'AUTH_MISSING')) {
    forgetKey();
    $('key-error').textContent = 'That key was refused: it is unknown or revoked. Paste another key.';
    $('key-error').hidden = false;
    return;
  }
  const banner = $('list-error');
  banner.textContent = `Could not reach the API: ${(error as Error).message}`;
  banner.hidden = false;
}

async function loadAll(): Promise<void> {
  if (!client) return;
  $('loading').hidden = false;
  try {
    domains.clear();
    for await (const domain of client.allDomains()) domains.set(domain.domain, domain);
    $('list-error').hidden = true;
    render();
    schedulePoll();
  } catch (error) {
    showListError(error);
  } finally {
    $('loading').hidden = true;
  }
}

function schedulePoll(): void {
  clearTimeout(pollTimer);
  pollTimer = window.setTimeout(() => void poll(), POLL_MS);
}

async function poll(): Promise<void> {
  if (!client) return;
  const names = [...domains.values()]
    .filter((d) => d.status === 'pending' || open.has(d.domain))
    .map((d) => d.domain);
  try {
    for (let i = 0; i < names.length; i += 100) {
      for (const envelope of await client.domainStatus(names.slice(i, i + 100))) {
        if (envelope.data) domains.set(envelope.data.domain, envelope.data);
      }
    }
    $('list-error').hidden = true;
    render();
  } catch (error) {
    showListError(error);
  }
  if (client) schedulePoll();
}

async function register(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (!client) return;
  const names = $<HTMLInputElement>('register-names')
    .value.split(/[\s,]+/)
    .filter(Boolean);
  const domainType = $<HTMLSelectElement>('register-type').value;
  const errors = $('register-errors');
  const button = $<HTMLButtonElement>('register-button');
  errors.replaceChildren();
  button.disabled = true;
  try {
    const envelopes = await client.registerDomains(names.map((domain) => ({ domain, domainType })));
    const failures = envelopes.flatMap((e, i) =>
      e.error ? [el('li', { textContent: `${names[i]}: ${e.error.message}` })] : [],
    );
    for (const envelope of envelopes) {
      if (!envelope.data) continue;
      domains.set(envelope.data.domain, envelope.data);
      open.add(envelope.data.domain);
    }
    if (failures.length > 0) errors.append(el('ul', { className: 'errors-list' }, ...failures));
    else $<HTMLInputElement>('register-names').value = '';
    render();
    schedulePoll();
  } catch (error) {
    errors.append(
      el('ul', { className: 'errors-list' }, el('li', { textContent: (error as Error).message })),
    );
  } finally {
    button.disabled = false;
  }
}

async function deleteDomain(name: string): Promise<void> {
  if (
    !client ||
    !window.confirm(`Delete ${name}? Its records stop being checked and its DKIM keys are destroyed.`)
  )
    return;
  try {
    const [envelope] = await client.deleteDomains([name]);
    if (envelope?.data || envelope?.error?.code === 'DOMAIN_NOT_REGISTERED') {
      domains.delete(name);
      open.delete(name);
      render();
    } else if (envelope?.error) showListError(new Error(envelope.error.message));
  } catch (error) {
    showListError(error);
  }
}

function useKey(key: string): void {
  client = new ServiceClient({ baseUrl: window.location.origin, apiKey: key });
  $('key-card').hidden = true;
  $('app').hidden = false;
  $('key-status').hidden = false;
  $('key-prefix').textContent = `${key.slice(0, 11)}…`;
  void loadAll();
}

function forgetKey(): void {
  sessionStorage.removeItem(KEY_STORAGE);
  client = undefined;
  clearTimeout(pollTimer);
  domains.clear();
  $('key-card').hidden = false;
  $('key-status').hidden = true;
  $('app').hidden = true;
}

document.addEventListener('DOMContentLoaded', () => {
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = $<HTMLInputElement>('key-input').value.trim();
    if (!key) return;
    sessionStorage.setItem(KEY_STORAGE, key);
    $<HTMLInputElement>('key-input').value = '';
    $('list-error').hidden = true;
    $('key-error').hidden = true;
    useKey(key);
  });
  $('forget-key').addEventListener('click', forgetKey);
  $('register-form').addEventListener('submit', (event) => void register(event as SubmitEvent));
  const saved = sessionStorage.getItem(KEY_STORAGE);
  if (saved) useKey(saved);
});
