/**
 * `sendctl`: the sending-domain service from a shell, on the typed client: the `domains`
 * commands here, the `webhooks` commands in `webhooks.ts`, the `emails` and `suppressions`
 * commands in `emails.ts`.
 *
 * Configuration: `--url` / `SERVICE_URL` (default http://127.0.0.1:3000) and `--key` /
 * `SERVICE_API_KEY`. `--json` prints machine-readable results.
 *
 * Exit codes (`EXIT`): 0 success; 1 the request failed (network, auth — 401 or 403 —, rate
 * limit…); 2 usage error; 3 `domains wait` timed out; 4 some items failed (invalid or unknown
 * domains, a refused webhook URL, an unknown webhook or delivery id, a message the API refuses
 * as given, an unknown email id or suppressed address). `domains wait` follows the
 * same split: a refused key is 1, an unregistered name is 4.
 */
import { parseArgs } from 'node:util';
import { type DomainEnvelope, type DomainResult, ServiceClient } from '../client.js';
import { ItemFailedError, ServiceApiError, VerificationTimeoutError } from '../errors.js';
import { DKIM_KEYS_USAGE, dkimKeys, rotate } from './dkim-keys.js';
import { EMAILS_USAGE, emails, suppressions } from './emails.js';
import {
  bindLines,
  parseDuration,
  problems,
  providerLines,
  recordsTable,
  STATUS_HEADER,
  statusRow,
  table,
  waitLines,
  zoneLines,
} from './format.js';
import { EXIT, type Io, UsageError } from './io.js';
import { LOCAL_DNS_USAGE, localDns } from './local-dns.js';
import { WEBHOOKS_USAGE, webhooks } from './webhooks.js';

export { EXIT, type Io } from './io.js';

const USAGE = `usage: sendctl <command> [options]

  domains add <domain…> [--type transactional|marketing] [--return-path bounces] [--tracking track]
                                                           register, and show the records to publish
                                                           (--return-path: also a return-path domain, <label>.<domain>;
                                                           --tracking: a tracking host for opens and clicks, <label>.<domain>)
  domains status [<domain…>]                               statuses (all domains when none given)
  domains list                                             every registration
  domains records <domain> [--format table|bind|json]      the records to publish (bind: zone-file lines)
  domains wait <domain…> [--timeout 10m] [--interval 5s]   poll until verified: each record's state and reason, live; Ctrl-C prints where things stand
  domains history <domain>                                 status changes, newest first
  domains remove <domain…>                                 delete registrations
${DKIM_KEYS_USAGE}
${LOCAL_DNS_USAGE}
${WEBHOOKS_USAGE}
${EMAILS_USAGE}
  keys …, dkim …                                           server-side commands (run on the server's machine)

options: --url URL (SERVICE_URL), --key KEY (SERVICE_API_KEY), --json, --help`;

const OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  type: { type: 'string' },
  'return-path': { type: 'string' },
  tracking: { type: 'string' },
  track: { type: 'string' },
  format: { type: 'string' },
  timeout: { type: 'string' },
  interval: { type: 'string' },
  events: { type: 'string' },
  // domains unpublish-local
  record: { type: 'string', multiple: true },
  // emails send; suppressions list
  from: { type: 'string' },
  to: { type: 'string', multiple: true },
  cc: { type: 'string', multiple: true },
  bcc: { type: 'string', multiple: true },
  'reply-to': { type: 'string', multiple: true },
  subject: { type: 'string' },
  'html-file': { type: 'string' },
  'text-file': { type: 'string' },
  template: { type: 'string' },
  var: { type: 'string', multiple: true },
  'idempotency-key': { type: 'string' },
  'scheduled-at': { type: 'string' },
  after: { type: 'string' },
  // emails list
  status: { type: 'string' },
  tag: { type: 'string' },
  before: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // Server-side commands' own options pass through.
  name: { type: 'string' },
  account: { type: 'string' },
  scope: { type: 'string' },
  domain: { type: 'string' },
} as const;

export async function sendctl(argv: string[], io: Io): Promise<number> {
  if (argv[0] === 'keys' || argv[0] === 'dkim') return serverSide(argv, io);
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    (values.help ? io.out : io.err)(USAGE);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  try {
    const [group, command, ...args] = positionals;
    if (!['domains', 'webhooks', 'emails', 'suppressions'].includes(group!))
      throw new UsageError(`unknown command "${group}"`);
    const url = values.url ?? io.env.SERVICE_URL ?? 'http://127.0.0.1:3000';
    const key = values.key ?? io.env.SERVICE_API_KEY;
    if (!key) throw new UsageError('no API key: pass --key or set SERVICE_API_KEY');
    const client = new ServiceClient({ baseUrl: url, apiKey: key });
    const json = values.json === true;
    if (group === 'webhooks')
      return await webhooks(client, command, args, { events: values.events, json }, io);
    if (group === 'emails') {
      const send = {
        from: values.from,
        to: values.to,
        cc: values.cc,
        bcc: values.bcc,
        replyTo: values['reply-to'],
        subject: values.subject,
        htmlFile: values['html-file'],
        textFile: values['text-file'],
        template: values.template,
        vars: values.var,
        idempotencyKey: values['idempotency-key'],
        scheduledAt: values['scheduled-at'],
        track: values.track,
      };
      const list = {
        status: values.status,
        tag: values.tag,
        domain: values.domain,
        after: values.after,
        before: values.before,
        limit: values.limit,
        cursor: values.cursor,
      };
      return await emails(client, command, args, { ...send, list, json }, io);
    }
    if (group === 'suppressions')
      return await suppressions(client, command, args, { after: values.after, json }, io);
    switch (command) {
      case 'add':
        return await add(
          client,
          args,
          values.type,
          { returnPath: values['return-path'], tracking: values.tracking },
          json,
          io,
        );
      case 'status':
        return await status(client, args, json, io);
      case 'list':
        return await list(client, json, io);
      case 'records':
        return await records(client, args, values.format ?? (json ? 'json' : 'table'), io);
      case 'wait':
        return await wait(client, args, values.timeout, values.interval, json, io);
      case 'history':
        return await history(client, args, json, io);
      case 'remove':
        return await remove(client, args, json, io);
      case 'keys':
        return await dkimKeys(client, args, json, io);
      case 'rotate':
        return await rotate(client, args, json, io);
      case 'publish-local':
      case 'unpublish-local':
        return await localDns(client, command, args, values.record, json, io);
      default:
        throw new UsageError(`unknown command "domains ${command ?? ''}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (error instanceof ServiceApiError) {
      io.err(`error: ${error.message} (${error.code}${error.status ? `, HTTP ${error.status}` : ''})`);
      return EXIT.failed;
    }
    throw error;
  }
}

function needDomains(args: string[], command: string): string[] {
  if (args.length === 0) throw new UsageError(`domains ${command} needs at least one domain`);
  return args;
}

/** Print item-level failures; returns whether any item failed. */
function reportFailures(
  envelopes: { error: { code: string; message: string } | null }[],
  names: string[],
  io: Io,
): boolean {
  let failed = false;
  envelopes.forEach((envelope, i) => {
    if (envelope.error) {
      failed = true;
      io.err(`${names[i]}: ${envelope.error.message} (${envelope.error.code})`);
    }
  });
  return failed;
}

async function add(
  client: ServiceClient,
  args: string[],
  type: string | undefined,
  labels: { returnPath: string | undefined; tracking: string | undefined },
  json: boolean,
  io: Io,
): Promise<number> {
  const { returnPath, tracking } = labels;
  const names = needDomains(args, 'add');
  const domainType = (type ?? 'transactional').toLowerCase();
  if (domainType !== 'transactional' && domainType !== 'marketing') {
    throw new UsageError(`--type must be transactional or marketing, not "${type}"`);
  }
  // the server checks the labels (RETURN_PATH_INVALID, TRACKING_INVALID name a bad one, per domain)
  const envelopes = await client.registerDomains(
    names.map((domain) => ({
      domain,
      domainType,
      ...(returnPath !== undefined && { returnPath }),
      ...(tracking !== undefined && { tracking }),
    })),
  );
  if (json) io.out(JSON.stringify(envelopes, null, 2));
  else {
    for (const envelope of envelopes) {
      if (!envelope.data) continue;
      io.out(
        `${envelope.data.domain} (${envelope.data.type}): publish these records at your DNS provider\n${recordsTable(envelope.data)}\n`,
      );
    }
  }
  return reportFailures(envelopes, names, io) ? EXIT.itemsFailed : EXIT.ok;
}

async function allDomains(client: ServiceClient): Promise<DomainResult[]> {
  const domains: DomainResult[] = [];
  for await (const domain of client.allDomains()) domains.push(domain);
  return domains;
}

async function status(client: ServiceClient, args: string[], json: boolean, io: Io): Promise<number> {
  const names = args.length > 0 ? args : (await allDomains(client)).map((d) => d.domain);
  const envelopes = names.length > 0 ? await client.domainStatus(names) : [];
  if (json) io.out(JSON.stringify(envelopes, null, 2));
  else if (names.length === 0) io.out('no domains');
  else printStatuses(envelopes, io);
  return reportFailures(envelopes, names, io) ? EXIT.itemsFailed : EXIT.ok;
}

/**
 * The status table of the domains that have one, and what is wrong with each. Names the API
 * answered with an error print nothing here: `reportFailures` explains them on stderr.
 */
function printStatuses(envelopes: DomainEnvelope[], io: Io): void {
  const domains = envelopes.flatMap((e) => (e.data ? [e.data] : []));
  if (domains.length === 0) return;
  io.out(table(STATUS_HEADER, domains.map(statusRow)));
  for (const domain of domains) {
    const lines = problems(domain);
    if (lines.length > 0) io.out(`\n${domain.domain}:\n${lines.join('\n')}`);
  }
}

async function list(client: ServiceClient, json: boolean, io: Io): Promise<number> {
  const domains = await allDomains(client);
  if (json) io.out(JSON.stringify(domains, null, 2));
  else io.out(domains.length === 0 ? 'no domains' : table(STATUS_HEADER, domains.map(statusRow)));
  return EXIT.ok;
}

async function records(client: ServiceClient, args: string[], format: string, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('domains records needs exactly one domain');
  if (!['table', 'bind', 'json'].includes(format))
    throw new UsageError(`--format must be table, bind or json, not "${format}"`);
  const [envelope] = await client.domainStatus(args);
  if (!envelope?.data) {
    reportFailures(envelope ? [envelope] : [], args, io);
    return EXIT.itemsFailed;
  }
  if (format === 'json') io.out(JSON.stringify(envelope.data.records, null, 2));
  else if (format === 'bind') io.out(bindLines(envelope.data).join('\n'));
  else
    io.out(
      [recordsTable(envelope.data), ...zoneLines(envelope.data), ...providerLines(envelope.data)].join('\n'),
    );
  return EXIT.ok;
}

async function wait(
  client: ServiceClient,
  args: string[],
  timeout: string | undefined,
  interval: string | undefined,
  json: boolean,
  io: Io,
): Promise<number> {
  const names = needDomains(args, 'wait');
  const timeoutMs = parseDuration(timeout ?? '10m');
  const intervalMs = parseDuration(interval ?? '5s');
  if (timeoutMs === undefined)
    throw new UsageError(`--timeout "${timeout}" is not a duration such as 10m or 90s`);
  if (intervalMs === undefined || intervalMs < 100)
    throw new UsageError(`--interval "${interval}" is not a duration of at least 100ms`);
  const started = Date.now();
  let latest: DomainEnvelope[] = [];
  let nextCheckAt: number | null = null;
  let drawn = 0;
  let printed = '';
  const draw = () => {
    if (json) return;
    const results = names.map((domain, i) => ({
      domain,
      data: latest[i]?.data ?? null,
      error: latest[i]?.error ? `${latest[i]!.error!.message} (${latest[i]!.error!.code})` : null,
    }));
    const now = Date.now();
    const lines = waitLines(results, now - started, nextCheckAt === null ? null : nextCheckAt - now);
    if (io.isTty) {
      // back to the first line of the previous drawing, clear it all, draw again; lines are cut
      // to the terminal's width, since a wrapped line would break the count of lines to go up
      const width = (io.columns ?? 80) - 1;
      const fitted = lines.map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line));
      io.err(`${drawn > 0 ? `\x1b[${drawn}F` : '\r'}\x1b[J${fitted.join('\n')}`);
      drawn = lines.length - 1;
    } else {
      // a log gets the block when something other than the clock changed
      const block = lines.slice(1).join('\n');
      if (block !== printed) io.err(lines.join('\n'));
      printed = block;
    }
  };
  const onProgress = (envelopes: DomainEnvelope[]) => {
    latest = envelopes;
    nextCheckAt = Date.now() + intervalMs;
    draw();
  };
  const ticker = io.isTty && !json ? setInterval(draw, 1000) : undefined;
  const aborted = new AbortController();
  const stopListening = io.onInterrupt?.(() => aborted.abort()) ?? (() => {});
  const finish = () => {
    clearInterval(ticker);
    stopListening();
    if (io.isTty && !json) io.err('');
  };
  try {
    const envelopes = await client.waitForVerification(names, {
      timeoutMs,
      intervalMs,
      onProgress,
      signal: aborted.signal,
    });
    finish();
    if (json) io.out(JSON.stringify(envelopes, null, 2));
    else io.out(`verified: ${names.join(', ')}`);
    return EXIT.ok;
  } catch (error) {
    finish();
    if (aborted.signal.aborted) {
      if (json) io.out(JSON.stringify(latest, null, 2));
      else {
        io.err(`interrupted after ${Math.round((Date.now() - started) / 1000)}s; where things stand:`);
        printStatuses(latest, io);
      }
      return EXIT.interrupted;
    }
    if (error instanceof VerificationTimeoutError) {
      if (json) io.out(JSON.stringify(error.last, null, 2));
      else {
        io.err(`timed out after ${timeout ?? '10m'}; still pending:`);
        printStatuses(
          (error.last as DomainEnvelope[]).filter((e) => e.data?.status !== 'verified'),
          io,
        );
      }
      return EXIT.timeout;
    }
    // An item the API refused (invalid or unregistered name) is 4, as in every other command;
    // a failed request (ServiceApiError: key refused, rate limit, network) is rethrown: 1.
    if (error instanceof ItemFailedError) {
      if (json) io.out(JSON.stringify(error.last, null, 2));
      reportFailures(error.last, names, io);
      return EXIT.itemsFailed;
    }
    throw error;
  }
}

async function history(client: ServiceClient, args: string[], json: boolean, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('domains history needs exactly one domain');
  const [envelope] = await client.domainHistory(args);
  if (!envelope?.data) {
    reportFailures(envelope ? [envelope] : [], args, io);
    return EXIT.itemsFailed;
  }
  if (json) io.out(JSON.stringify(envelope.data.events, null, 2));
  else if (envelope.data.events.length === 0) io.out('no status changes yet');
  else
    io.out(
      table(
        ['AT', 'RECORD', 'FROM', 'TO', 'REASON'],
        envelope.data.events.map((e) => [e.at, e.record ?? '(domain)', e.from, e.to, e.reason ?? '']),
      ),
    );
  return EXIT.ok;
}

async function remove(client: ServiceClient, args: string[], json: boolean, io: Io): Promise<number> {
  const names = needDomains(args, 'remove');
  const envelopes = await client.deleteDomains(names);
  if (json) io.out(JSON.stringify(envelopes, null, 2));
  else for (const e of envelopes) if (e.data) io.out(`deleted ${e.data.domain}`);
  return reportFailures(envelopes, names, io) ? EXIT.itemsFailed : EXIT.ok;
}

/** `keys` and `dkim` need the database: they are the server's own CLI, when installed. */
async function serverSide(argv: string[], io: Io): Promise<number> {
  let cli: {
    runCli(
      argv: string[],
      io: { out(l: string): void; err(l: string): void },
      env: Record<string, string | undefined>,
    ): Promise<number>;
  };
  // A variable, not a literal: the client does not depend on the server package.
  const serverCli = '@service/server/cli';
  try {
    cli = await import(serverCli);
  } catch {
    io.err(`"${argv[0]}" runs on the server's machine, against its database: install @service/server there`);
    return EXIT.usage;
  }
  return cli.runCli(argv, { out: io.out, err: io.err }, io.env);
}
