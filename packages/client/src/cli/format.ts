/** Text output of sendctl: tables and zone-file lines. Pure. */
import type {
  CreatedWebhook,
  DnsRecord,
  DomainResult,
  Email,
  ListedEmail,
  Suppression,
  WebhookDelivery,
  WebhookEndpoint,
} from '../client.js';

/** Columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** The TTL we suggest where the API says "Auto". */
export const ZONE_TTL = 3600;

/**
 * Lines ready to paste into a BIND zone file, with absolute names. TXT values longer than
 * 255 bytes are split into several strings (RFC 1035 §3.3.14).
 */
export function bindLines(domain: DomainResult): string[] {
  return domain.records.map((record) => {
    const owner = `${record.fqdn}.`;
    if (record.type === 'CNAME') return `${owner}\t${ZONE_TTL}\tIN\tCNAME\t${record.value}.`;
    const text = record.value.replace(/^"|"$/g, '');
    const chunks = text.match(/.{1,255}/gs) ?? [''];
    return `${owner}\t${ZONE_TTL}\tIN\tTXT\t${chunks.map((c) => `"${c}"`).join(' ')}`;
  });
}

export function recordsTable(domain: DomainResult): string {
  return table(
    ['TYPE', 'NAME', 'VALUE', 'STATUS'],
    domain.records.map((r) => [r.type, r.name, r.value, r.status]),
  );
}

/**
 * A line saying the names are provisional while DNS has not shown the domain's zone
 * (`zoneConfirmed: false`); nothing once it has.
 */
export function zoneLines(domain: DomainResult): string[] {
  if (domain.zoneConfirmed) return [];
  const zone = domain.records[0]?.zone ?? domain.domain;
  return [
    `Names are relative to ${zone} until DNS shows ${domain.domain}'s zone; if it is a zone of its own, they change at the next check (--format bind gives full names).`,
  ];
}

/**
 * Where the domain's DNS is hosted and each provider's documented tips for entering the
 * records, each once, with the page it rests on; nothing when no provider is known. A zone
 * served by several providers names them all, says the records go in at each, and lists each
 * provider's tips under its name.
 */
export function providerLines(domain: DomainResult): string[] {
  const { providers } = domain;
  if (providers.length === 0) return [];
  const tipsOf = (id: string) => {
    const tips = new Map<string, string>();
    for (const record of domain.records)
      for (const hint of record.providerHints) if (hint.provider === id) tips.set(hint.text, hint.source);
    return [...tips].map(([text, source]) => `  - ${text} (${source})`);
  };
  if (providers.length === 1) {
    const tips = tipsOf(providers[0]!.id);
    return [`DNS hosted at ${providers[0]!.name}${tips.length > 0 ? ':' : ''}`, ...tips];
  }
  return [
    `DNS hosted at ${namesJoined(providers.map((p) => p.name))}: add the records at each ` +
      '(at the primary alone if the others copy the zone from it).',
    ...providers.flatMap((p) => {
      const tips = tipsOf(p.id);
      return [`At ${p.name}:`, ...(tips.length > 0 ? tips : ['  - no documented tips for these records'])];
    }),
  ];
}

/** `A`, `A and B`, `A, B and C`. */
function namesJoined(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * One line per record that is not as expected, with the server's explanation, and per verified
 * record that carries a note (an inherited DMARC policy, say).
 */
export function problems(domain: DomainResult): string[] {
  return domain.records
    .filter((r: DnsRecord) => r.reason !== null || r.detail)
    .map((r) => `  ${r.type} ${r.fqdn}: ${r.reason ?? 'note'}${r.detail ? ` — ${r.detail}` : ''}`);
}

export function statusRow(domain: DomainResult): string[] {
  const dkim = domain.records.filter((r) => r.type === 'CNAME');
  const verifiedDkim = dkim.filter((r) => r.status === 'verified').length;
  const dmarc = domain.records.find((r) => r.type === 'TXT');
  return [
    domain.domain,
    domain.type,
    domain.status,
    `${verifiedDkim}/${dkim.length}`,
    dmarc?.status ?? '-',
    domain.lastCheckedAt ?? 'never',
  ];
}

export const STATUS_HEADER = ['DOMAIN', 'TYPE', 'STATUS', 'DKIM', 'DMARC', 'LAST CHECK'];

/** "10m", "90s", "2h", "500ms" or plain milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 'ms') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

/**
 * What `domains wait` shows while it waits: a header with the time waited and the next check,
 * then each domain's status with, under it, each record not as expected and why, one line each
 * (the full explanation prints when the wait ends). Pure: the caller redraws it every second on
 * a terminal, or prints it when it changes.
 */
export function waitLines(
  results: readonly { domain: string; data: DomainResult | null; error: string | null }[],
  elapsedMs: number,
  nextCheckMs: number | null,
): string[] {
  const next =
    nextCheckMs === null ? 'checking now' : `next check in ${Math.max(0, Math.round(nextCheckMs / 1000))}s`;
  const count = `${results.length} domain${results.length === 1 ? '' : 's'}`;
  const lines = [`[${Math.floor(elapsedMs / 1000)}s] waiting for ${count} · ${next}`];
  for (const { domain, data, error } of results) {
    if (!data) {
      lines.push(`${domain}  ${error ?? 'not checked yet'}`);
      continue;
    }
    const [name, , status, dkim, dmarc] = statusRow(data);
    lines.push(`${name}  ${status}  DKIM ${dkim}  DMARC ${dmarc}`);
    for (const r of data.records.filter((record) => record.status !== 'verified'))
      lines.push(`  ${r.type.padEnd(5)} ${r.fqdn}  ${r.reason ?? 'not checked yet'}`);
  }
  return lines;
}

export const WEBHOOK_HEADER = ['ID', 'URL', 'EVENTS', 'STATE', 'CREATED'];

/** An endpoint as `webhooks list` shows it: disabled and failing ones say since when. */
export function webhookRow(endpoint: WebhookEndpoint): string[] {
  const state = endpoint.disabledAt
    ? `disabled since ${endpoint.disabledAt}`
    : endpoint.failingSince
      ? `failing since ${endpoint.failingSince}`
      : 'active';
  return [endpoint.id, endpoint.url, endpoint.events.join(','), state, endpoint.createdAt];
}

/**
 * What `webhooks add` prints: the endpoint, then its signing secret set apart on a line of its
 * own, with the warning that the API shows it only in this answer.
 */
export function createdWebhookLines(created: CreatedWebhook): string[] {
  return [
    `added ${created.id}: ${created.url}`,
    `events: ${created.events.join(', ')}`,
    '',
    "signing secret (shown only once: store it now, it verifies each request's webhook-signature):",
    '',
    `    ${created.secret}`,
    '',
    'It cannot be shown again; if it is lost, remove the endpoint and add it again.',
  ];
}

export const DELIVERY_HEADER = [
  'ID',
  'EVENT',
  'STATUS',
  'ATTEMPTS',
  'LAST ATTEMPT',
  'ANSWER',
  'NEXT ATTEMPT',
];

/**
 * A delivery as `webhooks deliveries` shows it. ANSWER is the last attempt's HTTP status and
 * duration, `none` when no answer came (timeout, connection refused: `lastError` says which).
 */
export function deliveryRow(delivery: WebhookDelivery): string[] {
  const answer =
    delivery.lastAttemptAt === null
      ? '-'
      : delivery.lastStatusCode === null
        ? 'none'
        : `${delivery.lastStatusCode}${delivery.lastDurationMs === null ? '' : ` in ${delivery.lastDurationMs} ms`}`;
  return [
    delivery.id,
    delivery.event,
    delivery.status,
    String(delivery.attempts),
    delivery.lastAttemptAt ?? 'never',
    answer,
    delivery.nextAttemptAt ?? '-',
  ];
}

/** One line per delivery whose last attempt failed, with the reason (too long for the table). */
export function deliveryErrors(deliveries: readonly WebhookDelivery[]): string[] {
  return deliveries.filter((d) => d.lastError !== null).map((d) => `  ${d.id}: ${d.lastError}`);
}

/** The line above the recipients in `emails get`: the message's status, what and when. */
export function emailLine(email: Email): string {
  return `${email.id}  ${email.status}  from ${email.from}  "${email.subject}"  created ${email.createdAt}`;
}

export const LISTED_HEADER = ['ID', 'STATUS', 'CREATED', 'FROM', 'TO', 'SUBJECT'];

/** A message as `emails list` shows it: its first recipient and how many more. */
export function listedRow(email: ListedEmail): string[] {
  const more = email.to.length > 1 ? ` +${email.to.length - 1}` : '';
  return [email.id, email.status, email.createdAt, email.from, `${email.to[0] ?? '-'}${more}`, email.subject];
}

export const RECIPIENT_HEADER = ['ADDRESS', 'KIND', 'STATUS', 'ATTEMPTS', 'LAST ANSWER', 'NEXT ATTEMPT'];

/**
 * A recipient as `emails get` shows it. LAST ANSWER is its last event's SMTP code and text, or
 * the event's type when no server answered (a suppressed address); `-` before any attempt.
 */
export function recipientRow(recipient: Email['recipients'][number]): string[] {
  const last = recipient.events.at(-1);
  const answer =
    last === undefined
      ? '-'
      : last.smtpCode === null && last.smtpText === null
        ? last.type
        : [last.smtpCode, last.smtpText].filter((part) => part !== null).join(' ');
  return [
    recipient.address,
    recipient.kind,
    recipient.status,
    String(recipient.attempts),
    answer,
    recipient.nextAttemptAt ?? '-',
  ];
}

export const SUPPRESSION_HEADER = ['ADDRESS', 'REASON', 'EMAIL', 'SINCE'];

/** A suppressed address as `suppressions list` shows it, with the message that was refused. */
export function suppressionRow(suppression: Suppression): string[] {
  return [suppression.address, suppression.reason, suppression.emailId ?? '-', suppression.createdAt];
}
