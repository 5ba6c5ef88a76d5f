/**
 * The domains dashboard (`/domains`): paste a key (kept for this tab only), register domains,
 * see a domain's records with copy buttons and zone-file lines, watch statuses update live with
 * the per-record diagnostics, and delete domains. Built on `@service/client` in the browser.
 *
 * The page follows changes made elsewhere (another tab, `sendctl`, the API): a polled domain
 * answered as not registered leaves the list, and the whole list is re-read periodically and
 * whenever the tab comes back, so domains added elsewhere appear. Every refresh patches the
 * cards in place (domains/domain-list.ts); while the server does not answer, the page says so
 * and retries with a growing delay (domains/reconnect.ts).
 *
 * Below the domains, the account's webhook endpoints and one endpoint's recent deliveries
 * (domains/webhooks-panel.ts), read along with the domains: the endpoints with the list, the
 * open endpoint's deliveries at every status poll; then the development sandbox's capture inbox
 * (domains/sandbox-panel.ts), outside production mode, the account's messages
 * (domains/emails-panel.ts) and its suppressed addresses
 * (domains/suppressions-panel.ts), both read with the list and at every poll; and the account's
 * API keys (domains/keys-panel.ts), read with the list.
 */
import { type DomainResult, type DomainType, ServiceApiError, ServiceClient } from '@service/client';
import { confirmDelete } from './domains/confirm-delete.js';
import { DomainList } from './domains/domain-list.js';
import { EmailsPanel } from './domains/emails-panel.js';
import { KeysPanel } from './domains/keys-panel.js';
import { keepInPlace, setText } from './domains/patch.js';
import { explainFailure, Reconnector } from './domains/reconnect.js';
import { SandboxPanel } from './domains/sandbox-panel.js';
import { SuppressionsPanel } from './domains/suppressions-panel.js';
import { WebhooksPanel } from './domains/webhooks-panel.js';
import { byId as $, el } from './lib/dom.js';

/**
 * Where earlier versions kept the key for the tab. The key now lives in this page's memory
 * only: the playground, on the same origin, runs templates from anywhere, and nothing a script
 * there could read (storage, cookies) holds the account's full key. A reload asks again.
 */
const LEGACY_KEY_STORAGE = 'service.apiKey';
/** Pending domains and the open one are re-polled this often; the server re-checks DNS when stale. */
const POLL_MS = 5000;
/** The whole list is re-read this often (and when the tab regains focus or visibility). */
const LIST_REFRESH_MS = 30_000;
/** Focus and visibility events arrive in pairs: one list read serves both. */
const LIST_REFRESH_MIN_GAP_MS = 2000;
/** "checked 23 s ago" and the offline countdown move on this often. */
const TICK_MS = 1000;
/** The command that makes a key this page accepts (full access: no `--scope`). */
const CREATE_KEY_COMMAND = 'npm run --silent cli -- keys create --name dashboard';

let client: ServiceClient | undefined;
const domains = new Map<string, DomainResult>();
/** The one domain whose records are open: opening another closes it, so the page stays short. */
let openName: string | undefined;
/** Domains this tab has listed before: only a new one is opened automatically. */
const seen = new Set<string>();
let pollTimer: number | undefined;
let refreshTimer: number | undefined;
let tickTimer: number | undefined;
let lastListAt = 0;
/** Where the server's development local DNS answers; `undefined`: it has none (issue 40). */
let localDnsServer: string | undefined;
/** Whether the list has been read since the key was given: later reads do not say "Loading". */
let listedOnce = false;

// Module scripts run once the document is parsed, so the page's elements are there.
const list = new DomainList($('domains'), {
  toggle: toggleRecords,
  remove: (name, button) => void deleteDomain(name, button),
  rotate: (name, button) => void rotateKey(name, button),
  localDnsAvailable: () => localDnsServer !== undefined,
  publishLocal: (name, button) => void changeLocalDns(name, button, 'publish'),
  unpublishLocal: (name, button) => void changeLocalDns(name, button, 'remove'),
});
const reconnect = new Reconnector(() => void loadAll());
const webhooks = new WebhooksPanel($('webhooks'), {
  client: () => client,
  keyRefused: showKeyRefused,
});
const sandbox = new SandboxPanel($('sandbox'), { client: () => client });
const emails = new EmailsPanel($('emails'), { client: () => client });
const suppressions = new SuppressionsPanel($('suppressions'), { client: () => client });
/** The shown prefix of the key this page uses (as the API lists keys: `sk_` and 8 more). */
let ownKeyPrefix: string | undefined;
const keys = new KeysPanel($('keys'), { client: () => client, ownPrefix: () => ownKeyPrefix });

/** Shows the latest state: cards patched in place, the empty state, the live line. */
function render(): void {
  list.show(domains.values(), openName);
  $('empty').hidden = domains.size > 0;
  showLiveStatus();
}

/** The line beside "Your domains" (a polite live region), and the statuses greyed while offline. */
function showLiveStatus(): void {
  $('domains').classList.toggle('stale', reconnect.offline);
  const pending = [...domains.values()].filter((d) => d.status === 'pending').length;
  setText(
    $('live'),
    reconnect.offline
      ? `Offline: statuses as of ${reconnect.lastAnswer}`
      : domains.size === 0
        ? ''
        : pending > 0
          ? `Live: re-checking ${pending} pending every ${POLL_MS / 1000} s`
          : 'All verified',
  );
}

/**
 * Puts `text` in the notice above the list. It is a live region that stays in the page (empty
 * when there is nothing to say): one shown and filled at the same moment is often not read out.
 */
function notify(text: string): void {
  setText($('notice'), text);
}

/** Opens `name`'s records, closing any other's, or closes them; the card stays where it was on screen. */
function toggleRecords(name: string): void {
  openName = openName === name ? undefined : name;
  keepInPlace(list.card(name)?.element, render);
}

/** A key the API refuses for this page: unknown or revoked (401), or scoped to other routes (403). */
function isKeyRefused(error: unknown): error is ServiceApiError {
  return error instanceof ServiceApiError && (error.status === 401 || error.status === 403);
}

/**
 * The key form comes back with what to do, and with the key as typed, to correct it. A 403
 * (`AUTH_SCOPE`, e.g. a `templates,images` key made for the playground) was an answer from
 * the server, not a failure to reach it.
 */
function showKeyRefused(error: ServiceApiError): void {
  forgetKey();
  const why =
    error.status === 403
      ? `That key cannot manage domains (${error.message}). This page needs a full-access key: create one on the server with `
      : 'That key was refused: it is unknown or revoked. Paste another key, or create one on the server with ';
  $('key-error').replaceChildren(why, el('code', { textContent: CREATE_KEY_COMMAND }), '.');
  $('key-error').hidden = false;
  const input = $<HTMLInputElement>('key-input');
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', 'key-error');
  input.focus();
}

/** The server answered: leave the offline state, and empty the key field (the client holds the key now). */
function answered(): void {
  reconnect.answered();
  const input = $<HTMLInputElement>('key-input');
  input.value = '';
  input.removeAttribute('aria-invalid');
  input.removeAttribute('aria-describedby');
}

/**
 * A background read failed: a refused key brings the key form back; anything else (no answer,
 * an error status) stops the polls and leaves it to the reconnector to try again later.
 */
function failed(error: unknown): void {
  if (isKeyRefused(error)) {
    showKeyRefused(error);
    return;
  }
  stopTimers();
  reconnect.failed(error);
  showLiveStatus();
}

/** Shows why an action (register, delete) failed, above the list. */
function showActionError(message: string): void {
  $('list-error').textContent = message;
  $('list-error').hidden = false;
}

/** Takes domains that are no longer registered (deleted elsewhere) off the page, and says so. */
function dropDomains(names: string[]): void {
  if (names.length === 0) return;
  for (const name of names) domains.delete(name);
  if (openName !== undefined && !domains.has(openName)) openName = undefined;
  notify(
    `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} no longer registered to this account (deleted elsewhere), so ${names.length === 1 ? 'it has' : 'they have'} left the list.`,
  );
}

/**
 * Reads the whole list, replacing what the page shows: domains added elsewhere appear, deleted
 * ones leave. One registered in this tab while the list was being read is kept. It is also
 * the reconnector's retry: an answer catches up with everything missed while offline.
 */
async function loadAll(): Promise<void> {
  const current = client;
  if (!current) return;
  lastListAt = Date.now();
  stopTimers();
  const known = new Set(domains.keys());
  $('loading').hidden = listedOnce;
  try {
    const listed = new Map<string, DomainResult>();
    for await (const domain of current.allDomains()) listed.set(domain.domain, domain);
    if (client !== current) return;
    // After the domains, not beside them: while the server is away an attempt is one request.
    await webhooks.load(current);
    if (client !== current) return;
    await sandbox.load(current);
    if (client !== current) return;
    await emails.load(current);
    if (client !== current) return;
    await suppressions.load(current);
    if (client !== current) return;
    await keys.load(current);
    if (client !== current) return;
    // LOCAL_DNS_OFF (403) in production mode: no local DNS buttons
    localDnsServer = await current.localDns().then(
      (answer) => answer.server,
      () => undefined,
    );
    if (client !== current) return;
    for (const [name, domain] of domains) if (!known.has(name) && !listed.has(name)) listed.set(name, domain);
    dropDomains([...known].filter((name) => !listed.has(name)));
    domains.clear();
    for (const [name, domain] of listed) domains.set(name, domain);
    openNewPending();
    listedOnce = true;
    answered();
    render();
    schedulePoll();
    refreshTimer = window.setTimeout(() => void loadAll(), LIST_REFRESH_MS);
  } catch (error) {
    if (client === current) failed(error);
  } finally {
    if (client === current) $('loading').hidden = true;
  }
}

/**
 * When no domain is open, opens the first one listed for the first time that is pending: its
 * records are what the user publishes next (step 5 of the quick start).
 */
function openNewPending(): void {
  if (openName === undefined) {
    const fresh = [...domains.values()]
      .filter((d) => d.status === 'pending' && !seen.has(d.domain))
      .sort((a, b) => a.domain.localeCompare(b.domain));
    openName = fresh[0]?.domain;
  }
  for (const name of domains.keys()) seen.add(name);
}

/**
 * The tab came back (focus or visibility): re-read the list unless it was just read. While
 * offline that is the next attempt, brought forward: the user is looking.
 */
function refreshOnReturn(): void {
  if (document.visibilityState !== 'visible' || !client) return;
  if (Date.now() - lastListAt < LIST_REFRESH_MIN_GAP_MS) return;
  if (reconnect.offline) reconnect.retryNow();
  else void loadAll();
}

function schedulePoll(): void {
  clearTimeout(pollTimer);
  pollTimer = window.setTimeout(() => void poll(), POLL_MS);
}

function stopTimers(): void {
  clearTimeout(pollTimer);
  clearTimeout(refreshTimer);
}

/**
 * Re-reads the pending domains and the open one, then the open webhook endpoint's deliveries;
 * a domain answered as not registered leaves.
 */
async function poll(): Promise<void> {
  const current = client;
  if (!current) return;
  const names = [...domains.values()]
    .filter((d) => d.status === 'pending' || d.domain === openName)
    .map((d) => d.domain);
  try {
    let asked = false;
    if (names.length > 0) {
      asked = true;
      const gone: string[] = [];
      const envelopes = await current.domainStatus(names);
      if (client !== current) return;
      envelopes.forEach((envelope, j) => {
        if (envelope.data) domains.set(envelope.data.domain, envelope.data);
        else if (envelope.error?.code === 'DOMAIN_NOT_REGISTERED') gone.push(names[j]!);
      });
      dropDomains(gone);
    }
    if (await webhooks.poll(current)) asked = true;
    if (await sandbox.poll(current)) asked = true;
    await emails.load(current);
    await suppressions.load(current);
    asked = true;
    if (client !== current) return;
    // Nothing asked: no request, so no answer to count as the server's.
    if (asked) {
      answered();
      render();
    }
    schedulePoll();
  } catch (error) {
    if (client === current) failed(error);
  }
}

/**
 * Rotate now (`POST /api/public/domain/dkim/rotate`): the answer's plan, or why not yet (409
 * `DKIM_ROTATION_UNAVAILABLE` says until when), in the notice; the key line shows the new plan.
 */
async function rotateKey(name: string, button: HTMLButtonElement): Promise<void> {
  const current = client;
  if (!current || button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  try {
    const { dkim } = await current.rotateDkim(name);
    const domain = domains.get(name);
    if (client !== current || domain === undefined) return;
    domains.set(name, { ...domain, dkim });
    render();
    notify(
      dkim.nextRotationAt
        ? `${name}: signing moves to the next DKIM key at ${new Date(dkim.nextRotationAt).toLocaleString()}; its CNAME already points there, nothing to publish.`
        : `${name}: rotation asked for; it happens once the next key has been served long enough.`,
    );
  } catch (error) {
    if (isKeyRefused(error)) showKeyRefused(error);
    else notify(`${name}: not rotated. ${(error as Error).message}`);
  } finally {
    button.removeAttribute('aria-disabled');
  }
}

/**
 * Publish in (or remove from) the development local DNS (`/api/public/domain/local-dns`,
 * issue 40): the server checks the domain at once, so its statuses are read again and shown,
 * and the notice says what the local DNS holds now, or why not (`LOCAL_DNS_OFF` in production).
 */
async function changeLocalDns(
  name: string,
  button: HTMLButtonElement,
  change: 'publish' | 'remove',
): Promise<void> {
  const current = client;
  if (!current || button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  try {
    const answer =
      change === 'publish' ? await current.publishLocalDns(name) : await current.removeFromLocalDns(name);
    const [envelope] = await current.domainStatus([name]);
    if (client !== current) return;
    if (envelope?.data) domains.set(name, envelope.data);
    render();
    notify(
      change === 'publish'
        ? `${name}: its ${answer.records.length} records are in the local DNS (${answer.server}); the domain is ${answer.status}.`
        : `${name}: its records are out of the local DNS; each one verified before stays so for the grace period, the others say why they are missing.`,
    );
  } catch (error) {
    if (isKeyRefused(error) && (error as ServiceApiError).code !== 'LOCAL_DNS_OFF') showKeyRefused(error);
    else notify(`${name}: ${(error as Error).message}`);
  } finally {
    button.removeAttribute('aria-disabled');
  }
}

/** A registration under way: the button says so with aria-disabled, as `disabled` would drop its focus. */
let registering = false;

async function register(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (!client || registering) return;
  const input = $<HTMLInputElement>('register-names');
  const names = input.value.split(/[\s,]+/).filter(Boolean);
  // The select's options are the API's two types, spelled as it spells them (domains.html).
  const domainType = $<HTMLSelectElement>('register-type').value as DomainType;
  const errors = $('register-errors');
  const button = $<HTMLButtonElement>('register-button');
  errors.replaceChildren();
  registering = true;
  button.setAttribute('aria-disabled', 'true');
  try {
    // A return path (issue 34): bounces.<domain>, so SPF passes aligned and bounces come back.
    const returnPath = $<HTMLInputElement>('register-return-path').checked;
    const envelopes = await client.registerDomains(
      names.map((domain) => ({ domain, domainType, ...(returnPath && { returnPath: true }) })),
    );
    const failures = envelopes.flatMap((e, i) =>
      e.error ? [el('li', { textContent: `${names[i]}: ${e.error.message}` })] : [],
    );
    const registered = envelopes.flatMap((e) => (e.data ? [e.data] : []));
    const already = registered.filter((d) => domains.has(d.domain)).map((d) => d.domain);
    for (const domain of registered) {
      domains.set(domain.domain, domain);
      seen.add(domain.domain);
    }
    if (failures.length > 0) errors.append(el('ul', { className: 'errors-list' }, ...failures));
    else input.value = '';
    if (registered[0]) openName = registered[0].domain;
    render();
    showRegistered(
      registered.map((d) => d.domain),
      already,
    );
    schedulePoll();
  } catch (error) {
    if (isKeyRefused(error)) showKeyRefused(error);
    else
      errors.append(el('ul', { className: 'errors-list' }, el('li', { textContent: explainFailure(error) })));
  } finally {
    registering = false;
    button.removeAttribute('aria-disabled');
  }
}

/**
 * Says what was registered (the notice is read out), and brings the first new card, open, to
 * the top of the window, outlined: sorted by name, it often lands below the fold.
 */
function showRegistered(names: string[], already: string[]): void {
  if (names.length === 0) return;
  const fresh = names.filter((name) => !already.includes(name));
  const one = fresh.length === 1;
  const parts = [];
  if (fresh.length > 0)
    parts.push(
      `Registered ${fresh.join(', ')}: publish ${one ? 'its' : 'their'} records at your DNS provider, and ${one ? 'it turns' : 'they turn'} verified here by ${one ? 'itself' : 'themselves'}.`,
    );
  if (already.length > 0)
    parts.push(`${already.join(', ')} ${already.length === 1 ? 'was' : 'were'} already registered.`);
  notify(parts.join(' '));
  list.highlight(names);
  list.card(names[0]!)?.element.scrollIntoView({ block: 'start' });
}

/** Deletes `name` once confirmed in the dialog; the focus moves to the list's heading when its card leaves. */
async function deleteDomain(name: string, button: HTMLButtonElement): Promise<void> {
  const current = client;
  if (!current || !(await confirmDelete(name, button))) return;
  $('list-error').hidden = true;
  try {
    const [envelope] = await current.deleteDomains([name]);
    if (envelope?.data || envelope?.error?.code === 'DOMAIN_NOT_REGISTERED') {
      domains.delete(name);
      if (openName === name) openName = undefined;
      render();
      notify(`Deleted ${name}.`);
      $('list-title').focus();
      return;
    }
    if (envelope?.error) showActionError(`Could not delete ${name}: ${envelope.error.message}`);
  } catch (error) {
    if (isKeyRefused(error)) {
      showKeyRefused(error);
      return;
    }
    showActionError(`Could not delete ${name}. ${explainFailure(error)}`);
  }
  button.focus();
}

function useKey(key: string): void {
  // One attempt per request: when the server is away the reconnector's slower schedule takes
  // over, instead of the client's three quick retries (each one more console error).
  client = new ServiceClient({ baseUrl: window.location.origin, apiKey: key, retries: 0 });
  $('key-card').hidden = true;
  $('app').hidden = false;
  $('key-status').hidden = false;
  ownKeyPrefix = key.slice(0, 11);
  $('key-prefix').textContent = `${ownKeyPrefix}…`;
  tickTimer = window.setInterval(() => {
    list.tick();
    reconnect.tick();
  }, TICK_MS);
  void loadAll();
}

function forgetKey(): void {
  client = undefined;
  stopTimers();
  clearInterval(tickTimer);
  reconnect.stop();
  domains.clear();
  list.clear();
  openName = undefined;
  seen.clear();
  listedOnce = false;
  webhooks.clear();
  sandbox.clear();
  emails.clear();
  suppressions.clear();
  keys.clear();
  ownKeyPrefix = undefined;
  notify('');
  $('list-error').hidden = true;
  $('key-card').hidden = false;
  $('key-status').hidden = true;
  $('app').hidden = true;
}

document.addEventListener('DOMContentLoaded', () => {
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    // Left in the field until the server accepts it, so a mistyped key can be corrected.
    const key = $<HTMLInputElement>('key-input').value.trim();
    if (!key) return;
    $('key-error').hidden = true;
    useKey(key);
  });
  $('forget-key').addEventListener('click', () => {
    forgetKey();
    $<HTMLInputElement>('key-input').value = '';
  });
  $('register-form').addEventListener('submit', (event) => void register(event as SubmitEvent));
  window.addEventListener('focus', refreshOnReturn);
  document.addEventListener('visibilitychange', refreshOnReturn);
  sessionStorage.removeItem(LEGACY_KEY_STORAGE);
});
