/**
 * The open part of a domain's card: one compact row per DNS record (type, name and value each
 * with an inline copy icon, status), a one-line diagnostic under a record that needs one, and
 * the zone-file lines, wrapped rather than cut off. Built once, then patched by `update`.
 */
import { type DnsRecord, type DomainResult, zoneFileLines } from '@service/client';
import { copyToClipboard, el } from '../lib/dom.js';
import { copyIconButton, placeInOrder, setBadge, setText } from './patch.js';

/**
 * The server's diagnostic without what the row above already shows: its sentences name the
 * record's full name and expected value ("no record at <fqdn>; add a CNAME to <target>"), and
 * repeating two 50-character names under every record doubled the height of each row.
 */
function shortDetail(record: DnsRecord): string {
  let text = record.detail ?? '';
  text = text.replaceAll(record.fqdn, 'this name');
  if (record.value) text = text.replaceAll(record.value, 'the value shown');
  return text;
}

/** One record's table row, and the diagnostic row under it while it has something to say. */
class RecordRow {
  readonly row: HTMLTableRowElement;
  private readonly name = el('span', { className: 'mono' });
  private readonly value = el('span', { className: 'mono' });
  private readonly badge = el('span');
  private readonly why = el('div', { className: 'diagnostic-text' });
  /** What the diagnostic shows now, to rewrite it only when that changes. */
  private shownNote = '';
  private readonly diagnostic = el(
    'tr',
    { className: 'diagnostic-row' },
    el('td', { colSpan: 4, className: 'diagnostic' }, this.why),
  );

  constructor(private record: DnsRecord) {
    this.row = el(
      'tr',
      {},
      el('td', { className: 'type', textContent: record.type }),
      el(
        'td',
        { className: 'value name', dataset: { label: 'Name' } },
        this.name,
        copyIconButton(() => this.record.name, `Copy the name of ${record.fqdn}`),
      ),
      el(
        'td',
        { className: 'value', dataset: { label: 'Value' } },
        this.value,
        copyIconButton(() => pasteableValue(this.record), `Copy the value of ${record.fqdn}`),
      ),
      el('td', { className: 'status' }, this.badge),
    );
    this.update(record);
  }

  /** The rows to show: the record, then its diagnostic when it has one. */
  get rows(): HTMLTableRowElement[] {
    return this.hasNote ? [this.row, this.diagnostic] : [this.row];
  }

  // A verified record can carry a note too (an inherited DMARC policy, lost reports).
  private get hasNote(): boolean {
    return Boolean(this.record.reason || this.record.detail);
  }

  update(record: DnsRecord): void {
    this.record = record;
    setText(this.name, record.name);
    setText(this.value, record.value);
    setBadge(this.badge, record.status);
    if (this.hasNote) this.updateDiagnostic();
  }

  private updateDiagnostic(): void {
    const { reason, detail, found } = this.record;
    const note = JSON.stringify([reason, detail, found]);
    if (note === this.shownNote) return;
    this.shownNote = note;
    this.why.replaceChildren(
      el('strong', { textContent: reason?.replace('_', ' ') ?? 'note' }),
      ` — ${shortDetail(this.record)}`,
    );
    if (found) this.why.append(' ', el('span', { className: 'mono found', textContent: `found: ${found}` }));
  }
}

/**
 * Where the domain's DNS is hosted, when the last check could tell, and what each provider's
 * documentation says about entering these records (each hint once, linking its page). A zone
 * served by several providers names them all, says the records go in at each, and lists each
 * one's tips under its name.
 */
class ProviderNote {
  readonly element = el('details', { className: 'provider-note' });
  private shown = '';

  update(domain: DomainResult): void {
    const { providers } = domain;
    const tips = tipsOf(domain);
    const key = JSON.stringify([providers, [...tips].map(([id, hints]) => [id, [...hints]])]);
    if (key === this.shown) return;
    this.shown = key;
    this.element.hidden = providers.length === 0;
    if (providers.length === 0) return;
    const names = providers.map((p) => el('strong', { textContent: p.name }));
    const summary = el('summary', {}, 'DNS hosted at ', ...joined(names));
    if (providers.length === 1) {
      const hints = tips.get(providers[0]!.id) ?? new Map<string, string>();
      if (hints.size > 0)
        summary.append(`: ${hints.size} tip${hints.size === 1 ? '' : 's'} for entering these records there`);
      this.element.replaceChildren(summary, tipList(hints, providers[0]!.name));
      return;
    }
    summary.append(': add the records at each of them');
    this.element.replaceChildren(
      summary,
      el('p', {
        textContent:
          'Each of these providers answers for the zone, so a record missing at one is missing for the resolvers that ask it. ' +
          'Only when the others copy the zone from one of them (secondary DNS) is the primary enough.',
      }),
      ...providers.flatMap((p) => [
        el('p', {}, 'At ', el('strong', { textContent: p.name }), ':'),
        tipList(tips.get(p.id) ?? new Map<string, string>(), p.name),
      ]),
    );
  }
}

/** The tips of one provider (text → its page), or a line saying its documentation has none. */
function tipList(hints: Map<string, string>, provider: string): HTMLUListElement {
  if (hints.size === 0)
    return el(
      'ul',
      {},
      el('li', { textContent: `${provider}'s documentation says nothing special about these records.` }),
    );
  return el(
    'ul',
    {},
    ...[...hints].map(([text, source]) =>
      el(
        'li',
        {},
        `${text} `,
        // the page's site, not the provider's name: a name that says whom it is shared with is long
        el('a', { href: source, target: '_blank', rel: 'noopener', textContent: new URL(source).hostname }),
      ),
    ),
  );
}

/** `a`, `a and b`, `a, b and c`, for elements. */
function joined(items: readonly Node[]): (Node | string)[] {
  return items.flatMap((item, i) => (i === 0 ? [item] : [i === items.length - 1 ? ' and ' : ', ', item]));
}

/**
 * Each provider's tips for a domain's records, each once (provider id → text → its page). The
 * name hints are one per record and say what the Name column shows already: they become one line.
 */
function tipsOf(domain: DomainResult): Map<string, Map<string, string>> {
  const tips = new Map<string, Map<string, string>>();
  const nameOf = (id: string) => domain.providers.find((p) => p.id === id)?.name ?? 'the provider';
  for (const record of domain.records)
    for (const hint of record.providerHints) {
      const text =
        hint.topic === 'name' && /^Enter the name as /.test(hint.text)
          ? `Enter each name as the Name column shows it, without ${record.zone}${
              / adds /.test(hint.text) ? ` (${nameOf(hint.provider)} adds ${record.zone} itself)` : ''
            }.`
          : hint.text;
      const own = tips.get(hint.provider) ?? new Map<string, string>();
      tips.set(hint.provider, own.set(text, hint.source));
    }
  return tips;
}

/**
 * One-click setup when the DNS provider supports it (Domain Connect): a link to the provider's
 * consent page, which adds the four records. Hidden otherwise: the records below are the way.
 */
class SetupLink {
  readonly element = el('p', { className: 'setup-link' });
  private shown = '';

  update(domain: DomainResult): void {
    const connect = domain.domainConnect;
    // once every record is in DNS there is nothing left to set up
    const needed = domain.records.some((r) => r.status !== 'verified');
    const url = connect?.supported && needed ? connect.url : null;
    const key = JSON.stringify([url, connect?.providerName]);
    if (key === this.shown) return;
    this.shown = key;
    this.element.hidden = url === null;
    if (url === null) return;
    const provider = connect?.providerName ?? 'your DNS provider';
    const link = el('a', {
      className: 'button',
      href: url,
      target: '_blank',
      rel: 'noopener',
      textContent: `Add the records at ${provider}`,
    });
    link.setAttribute('aria-label', `Add the records of ${domain.domain} at ${provider} (opens ${provider})`);
    this.element.replaceChildren(link, ` ${provider} asks you to approve, then adds them; nothing to copy.`);
  }
}

/** Where records are matched between refreshes: a rotated DKIM key is a new record. */
/**
 * Which DKIM key signs, how old it is, and when rotation moves signing to the next one: keys
 * rotate by themselves, and this is where a customer sees that they do.
 */
class KeyNote {
  private readonly text = el('span');
  private readonly rotate = el('button', { type: 'button', className: 'small', textContent: 'Rotate now' });
  readonly element = el('p', { className: 'hint key-note' }, this.text, ' ', this.rotate);
  private shown: string | undefined;

  /** `rotate`: ask for a rotation now (the button is there while a key signs). */
  constructor(domain: string, rotate: (button: HTMLButtonElement) => void) {
    this.rotate.setAttribute('aria-label', `Rotate the DKIM key of ${domain} now`);
    this.rotate.addEventListener('click', () => rotate(this.rotate));
  }

  update(domain: DomainResult): void {
    const text = keyNoteText(domain);
    if (text === this.shown) return;
    this.shown = text;
    this.element.hidden = text === '';
    setText(this.text, text);
  }
}

/** "Signing key: selector abcdefgh…, 12 days old; rotates by itself on 2027-02-22.", or ''. */
export function keyNoteText(domain: DomainResult, now = Date.now()): string {
  const { dkim } = domain;
  const active = dkim.selectors.find((s) => s.state === 'active');
  if (active === undefined || active.keyCreatedAt === null) return '';
  const days = Math.floor((now - Date.parse(active.keyCreatedAt)) / 86_400_000);
  const age = days < 1 ? 'made today' : `${days} day${days === 1 ? '' : 's'} old`;
  const next = dkim.nextRotationAt
    ? `rotates by itself on ${dkim.nextRotationAt.slice(0, 10)}`
    : 'rotates by itself once all three records are verified';
  return `Signing key: selector ${active.selector.slice(0, 8)}…, ${age}; ${next}.`;
}

function recordKey(record: DnsRecord): string {
  return `${record.type} ${record.fqdn} ${record.value}`;
}

/** What the local DNS buttons ask the page to do (issue 40). */
export interface LocalDnsActions {
  /** Whether the server has a local DNS (`GET /api/public/domain/local-dns` answered). */
  available(): boolean;
  publish(button: HTMLButtonElement): void;
  remove(button: HTMLButtonElement): void;
}

/**
 * For a domain under `.test` (RFC 6761: no DNS provider can hold it): the development local
 * DNS, which plays its DNS provider on this machine. "Publish in local DNS" while it is pending;
 * "Remove from local DNS" to watch the diagnostics say why a record is missing. Hidden for other
 * domains; in production mode the server refuses and the page says why.
 */
class LocalDnsNote {
  private readonly publish = el('button', {
    type: 'button',
    className: 'small',
    textContent: 'Publish in local DNS',
  });
  private readonly remove = el('button', {
    type: 'button',
    className: 'small',
    textContent: 'Remove from local DNS',
  });
  readonly element = el(
    'p',
    { className: 'hint local-dns' },
    'A .test name lives in no public DNS: in development, this server’s local DNS can hold its records, and verification asks it. ',
    this.publish,
    ' ',
    this.remove,
  );

  constructor(
    domain: string,
    private readonly actions: LocalDnsActions,
  ) {
    this.publish.setAttribute('aria-label', `Publish the records of ${domain} in the local DNS`);
    this.remove.setAttribute('aria-label', `Remove the records of ${domain} from the local DNS`);
    this.publish.addEventListener('click', () => actions.publish(this.publish));
    this.remove.addEventListener('click', () => actions.remove(this.remove));
  }

  update(domain: DomainResult): void {
    const zone = domain.records[0]?.zone ?? domain.domain;
    this.element.hidden = !this.actions.available() || !/\.test$/.test(zone);
    const published = domain.status !== 'pending';
    // Publishing verifies the domain, which hides the button: its focus goes on to Remove,
    // rather than to <body> (the next Tab would start again from the page's top).
    const focused = document.activeElement === this.publish;
    this.publish.hidden = published;
    if (published && focused && !this.element.hidden) this.remove.focus();
  }
}

/** A domain's records and zone-file lines, kept in step with the latest answer by `update`. */
export class RecordsPanel {
  readonly element: HTMLElement;
  private readonly tbody = el('tbody');
  private readonly zone = el('pre');
  /** Said while DNS has not shown the zone the names are relative to (`zoneConfirmed: false`). */
  private readonly provisional = el('p', { className: 'hint provisional' });
  private readonly provider = new ProviderNote();
  private readonly setup = new SetupLink();
  private readonly keyNote: KeyNote;
  private readonly localDns: LocalDnsNote;
  /** The zone-file lines shown, joined: what Copy zone lines copies. */
  private zoneText = '';
  private rows = new Map<string, RecordRow>();

  /** `rotate`: the Rotate now button's action (`POST /api/public/domain/dkim/rotate`). */
  constructor(
    domain: DomainResult,
    id: string,
    rotate: (button: HTMLButtonElement) => void,
    localDns: LocalDnsActions,
  ) {
    this.keyNote = new KeyNote(domain.domain, rotate);
    this.localDns = new LocalDnsNote(domain.domain, localDns);
    const copyZone = el('button', { type: 'button', className: 'small', textContent: 'Copy zone lines' });
    copyZone.setAttribute('aria-label', `Copy zone lines ${domain.domain}`);
    copyZone.addEventListener('click', () => void copyToClipboard(this.zoneText, copyZone));
    const headings = ['Type', 'Name (relative to the parent domain)', 'Value', 'Status'];
    this.element = el(
      'div',
      { className: 'domain-body', id },
      this.setup.element,
      this.provider.element,
      this.localDns.element,
      el(
        'table',
        { className: 'records' },
        el('thead', {}, el('tr', {}, ...headings.map((h) => el('th', { textContent: h })))),
        this.tbody,
      ),
      this.provisional,
      this.keyNote.element,
      el(
        'div',
        { className: 'zone' },
        el(
          'div',
          { className: 'zone-head' },
          el('span', { className: 'hint', textContent: 'Zone-file lines (full names)' }),
          copyZone,
        ),
        this.zone,
      ),
    );
    this.update(domain);
  }

  update(domain: DomainResult): void {
    const zone = domain.records[0]?.zone ?? domain.domain;
    this.provisional.hidden = domain.zoneConfirmed;
    this.provisional.textContent = domain.zoneConfirmed
      ? ''
      : `DNS has not shown ${domain.domain}'s zone yet, so these names are relative to ${zone}. If ${domain.domain} is a zone of its own, they change at the next check; the full names below are right either way.`;
    this.setup.update(domain);
    this.provider.update(domain);
    this.keyNote.update(domain);
    this.localDns.update(domain);
    const keep = new Map<string, RecordRow>();
    for (const record of domain.records) {
      const key = recordKey(record);
      const row = this.rows.get(key) ?? new RecordRow(record);
      row.update(record);
      keep.set(key, row);
    }
    this.rows = keep;
    placeInOrder(
      this.tbody,
      [...keep.values()].flatMap((row) => row.rows),
    );
    const lines = zoneFileLines(domain);
    if (lines.join('\n') === this.zoneText) return;
    this.zoneText = lines.join('\n');
    // One block per line, for the hanging indent of a wrapped line (domains.css).
    this.zone.replaceChildren(
      ...lines.map((line) => el('span', { className: 'zone-line', textContent: line })),
    );
  }
}

/**
 * What a DNS provider's form takes for a record: a TXT value without the quotation marks the
 * API writes around it (zone-file syntax). Pasted with them into a form that quotes again, the
 * record reads `"\"v=DMARC1…\""` and fails, the mistake the diagnostics warn about (issue 40).
 */
function pasteableValue(record: DnsRecord): string {
  return record.type === 'TXT' ? record.value.replace(/^"(.*)"$/s, '$1') : record.value;
}
