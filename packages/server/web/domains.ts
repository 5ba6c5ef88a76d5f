/**
 * The domains dashboard (`/domains`): paste a key (kept for this tab only), register domains,
 * see every record with copy buttons and zone-file lines, watch statuses update live with the
 * per-record diagnostics, and delete domains. Built on `@service/client` in the browser.
 *
 * The page follows changes made elsewhere (another tab, `sendctl`, the API): a polled domain
 * answered as not registered leaves the list, and the whole list is re-read periodically and
 * whenever the tab comes back, so domains added elsewhere appear.
 */
import { type DomainResult, ServiceApiError, ServiceClient, zoneFileLines } from '@service/client';
import { copyToClipboard, el } from './lib/dom.js';

/**
 * Where earlier versions kept the key for the tab. The key now lives in this page's memory
 * only: the playground, on the same origin, runs templates from anywhere, and nothing a script
 * there could read (storage, cookies) holds the account's full key. A reload asks again.
 */
const LEGACY_KEY_STORAGE = 'service.apiKey';
/** Pending domains and open panels are re-polled this often; the server re-checks DNS when stale. */
const POLL_MS = 5000;
/** The whole list is re-read this often (and when the tab regains focus or visibility). */
const LIST_REFRESH_MS = 30_000;
/** Focus and visibility events arrive in pairs: one list read serves both. */
const LIST_REFRESH_MIN_GAP_MS = 2000;
/** With at most this many pending domains, each one opens with its records when first listed. */
const AUTO_OPEN_PENDING = 5;
/** The command that makes a key this page accepts (full access: no `--scope`). */
const CREATE_KEY_COMMAND = 'npm run --silent cli -- keys create --name dashboard';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let client: ServiceClient | undefined;
const domains = new Map<string, DomainResult>();
const open = new Set<string>();
/** Domains this tab has listed before: only new ones are opened automatically. */
const seen = new Set<string>();
let pollTimer: number | undefined;
let refreshTimer: number | undefined;
let lastListAt = 0;
/** Whether the list has been read since the key was given: later reads do not say "Loading". */
let listedOnce = false;

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
      el('td', { className: 'type', textContent: record.type }),
      el(
        'td',
        { className: 'value name', dataset: { label: 'Name' } },
        el('span', { className: 'mono', textContent: record.name }),
        copyButton(record.name, 'Copy', `the name of ${record.fqdn}`),
      ),
      el(
        'td',
        { className: 'value', dataset: { label: 'Value' } },
        el('span', { className: 'mono', textContent: record.value }),
        copyButton(record.value, 'Copy', `the value of ${record.fqdn}`),
      ),
      el('td', { className: 'status' }, badge(record.status)),
    );
    // a verified record can carry a note too (an inherited DMARC policy, lost reports)
    if (!record.reason && !record.detail) return [row];
    const why = el(
      'td',
      { colSpan: 4, className: 'diagnostic' },
      el('strong', { textContent: record.reason?.replace('_', ' ') ?? 'note' }),
      ` — ${record.detail ?? ''}`,
    );
    if (record.found) why.append(el('div', { className: 'mono', textContent: `found: ${record.found}` }));
    return [row, el('tr', { className: 'diagnostic-row' }, why)];
  });
  const zone = zoneFileLines(domain).join('\n');
  card.append(
    el(
      'div',
      { className: 'domain-body' },
      // On a narrow screen the rows reflow into stacked blocks (domains.css); the wrapper keeps
      // anything still too wide scrolling inside the card instead of widening the page.
      el(
        'div',
        { className: 'table-scroll' },
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

/** A key the API refuses for this page: unknown or revoked (401), or scoped to other routes (403). */
function isKeyRefused(error: unknown): error is ServiceApiError {
  return error instanceof ServiceApiError && (error.status === 401 || error.status === 403);
}

/**
 * Shows a request-level failure. A refused key is dropped and the key form comes back with
 * what to do: a 403 (`AUTH_SCOPE`, e.g. a `templates,images` key made for the playground) was
 * an answer from the server, not a failure to reach it.
 */
function showListError(error: unknown): void {
  if (isKeyRefused(error)) {
    forgetKey();
    const why =
      error.status === 403
        ? `That key cannot manage domains (${error.message}). This page needs a full-access key: create one on the server with `
        : 'That key was refused: it is unknown or revoked. Paste another key, or create one on the server with ';
    $('key-error').replaceChildren(why, el('code', { textContent: CREATE_KEY_COMMAND }), '.');
    $('key-error').hidden = false;
    return;
  }
  const banner = $('list-error');
  banner.textContent =
    error instanceof ServiceApiError && error.status !== 0
      ? `The API answered with an error: ${error.message} (${error.code})`
      : `Could not reach the API: ${(error as Error).message}`;
  banner.hidden = false;
}

/** Takes domains that are no longer registered (deleted elsewhere) off the page, and says so. */
function dropDomains(names: string[]): void {
  if (names.length === 0) return;
  for (const name of names) {
    domains.delete(name);
    open.delete(name);
  }
  const notice = $('notice');
  notice.textContent = `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} no longer registered to this account (deleted elsewhere), so ${names.length === 1 ? 'it has' : 'they have'} left the list.`;
  notice.hidden = false;
}

/**
 * Reads the whole list, replacing what the page shows: domains added elsewhere appear, deleted
 * ones leave. One registered in this tab while the list was being read is kept.
 */
async function loadAll(): Promise<void> {
  const current = client;
  if (!current) return;
  lastListAt = Date.now();
  clearTimeout(refreshTimer);
  const known = new Set(domains.keys());
  $('loading').hidden = listedOnce;
  try {
    const listed = new Map<string, DomainResult>();
    for await (const domain of current.allDomains()) listed.set(domain.domain, domain);
    if (client !== current) return;
    for (const [name, domain] of domains) if (!known.has(name) && !listed.has(name)) listed.set(name, domain);
    dropDomains([...known].filter((name) => !listed.has(name)));
    domains.clear();
    for (const [name, domain] of listed) domains.set(name, domain);
    openNewPending();
    listedOnce = true;
    $('list-error').hidden = true;
    render();
    schedulePoll();
  } catch (error) {
    if (client === current) showListError(error);
  } finally {
    if (client === current) {
      $('loading').hidden = true;
      refreshTimer = window.setTimeout(() => void loadAll(), LIST_REFRESH_MS);
    }
  }
}

/** Opens the records of domains listed for the first time, when few are pending (step 5 of the quick start). */
function openNewPending(): void {
  const pending = [...domains.values()].filter((d) => d.status === 'pending');
  if (pending.length <= AUTO_OPEN_PENDING) {
    for (const domain of pending) if (!seen.has(domain.domain)) open.add(domain.domain);
  }
  for (const name of domains.keys()) seen.add(name);
}

/** The tab came back (focus or visibility): re-read the list unless it was just read. */
function refreshOnReturn(): void {
  if (document.visibilityState !== 'visible' || !client) return;
  if (Date.now() - lastListAt >= LIST_REFRESH_MIN_GAP_MS) void loadAll();
}

function schedulePoll(): void {
  clearTimeout(pollTimer);
  pollTimer = window.setTimeout(() => void poll(), POLL_MS);
}

async function poll(): Promise<void> {
  const current = client;
  if (!current) return;
  const names = [...domains.values()]
    .filter((d) => d.status === 'pending' || open.has(d.domain))
    .map((d) => d.domain);
  try {
    const gone: string[] = [];
    const envelopes = await current.domainStatus(names);
    if (client !== current) return;
    envelopes.forEach((envelope, j) => {
      if (envelope.data) domains.set(envelope.data.domain, envelope.data);
      else if (envelope.error?.code === 'DOMAIN_NOT_REGISTERED') gone.push(names[j]!);
    });
    dropDomains(gone);
    $('list-error').hidden = true;
    render();
  } catch (error) {
    if (client === current) showListError(error);
  }
  if (client === current) schedulePoll();
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
      seen.add(envelope.data.domain);
    }
    if (failures.length > 0) errors.append(el('ul', { className: 'errors-list' }, ...failures));
    else $<HTMLInputElement>('register-names').value = '';
    render();
    schedulePoll();
  } catch (error) {
    if (isKeyRefused(error)) showListError(error);
    else
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
  client = undefined;
  clearTimeout(pollTimer);
  clearTimeout(refreshTimer);
  domains.clear();
  open.clear();
  seen.clear();
  listedOnce = false;
  $('notice').hidden = true;
  $('key-card').hidden = false;
  $('key-status').hidden = true;
  $('app').hidden = true;
}

document.addEventListener('DOMContentLoaded', () => {
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = $<HTMLInputElement>('key-input').value.trim();
    if (!key) return;
    $<HTMLInputElement>('key-input').value = '';
    $('list-error').hidden = true;
    $('key-error').hidden = true;
    useKey(key);
  });
  $('forget-key').addEventListener('click', forgetKey);
  $('register-form').addEventListener('submit', (event) => void register(event as SubmitEvent));
  window.addEventListener('focus', refreshOnReturn);
  document.addEventListener('visibilitychange', refreshOnReturn);
  sessionStorage.removeItem(LEGACY_KEY_STORAGE);
});
