/**
 * `sendctl emails …` and `sendctl suppressions …`: sending a message from a verified domain,
 * what became of it per recipient, and the account's suppression list, on the typed client.
 * As for webhooks, a refusal of the thing named — a message the API will not send as given, an
 * unknown email id or address — exits 4; a refused key, the rate limit or the network exit 1.
 */
import { readFile } from 'node:fs/promises';
import type { Email, SendEmailInput, ServiceClient } from '../client.js';
import type { ApiErrorCode } from '../errors.js';
import {
  emailLine,
  LISTED_HEADER,
  listedRow,
  RECIPIENT_HEADER,
  recipientRow,
  SUPPRESSION_HEADER,
  suppressionRow,
  table,
} from './format.js';
import { EXIT, exactly, type Io, itemRequest, UsageError } from './io.js';

/** The help lines of the `emails` and `suppressions` commands, for sendctl's usage text. */
export const EMAILS_USAGE = `  emails send --from <addr> --to <addr>[,…] --subject <text> (--html-file <path> | --template <id> [--var name=value …])
              [--text-file <path>] [--cc <addr>[,…]] [--bcc <addr>[,…]] [--reply-to <addr>[,…]] [--idempotency-key <key>]
              [--scheduled-at <RFC 3339 time>] [--track opens,clicks|none]
                                                           queue a message from a verified domain (or hold it until
                                                           --scheduled-at, up to 30 days ahead); prints its id
                                                           (--track: what to track, over the domain's default)
  emails get <id>                                          the message's status and each recipient's: attempts, last answer, next attempt
  emails cancel <id>                                       a scheduled message is not sent (until its sending begins)
  emails list [--status S] [--to <addr>] [--tag name[:value]] [--domain D] [--after T] [--before T]
              [--limit N] [--cursor C]                     the account's messages, newest first, a page at a time
  suppressions list [--after <address>]                    suppressed addresses, 100 a page, after <address>
  suppressions rm <address>                                later messages reach it again ("remove" works too)`;

/** The API's refusals of the message as given: exit 4, printed `emails send: message (CODE)`. */
const SEND_CODES: ReadonlySet<string> = new Set<ApiErrorCode>([
  'EMAIL_ADDRESS_INVALID',
  'EMAIL_FROM_NOT_VERIFIED',
  'EMAIL_SANDBOX_OFF',
  'EMAIL_SANDBOX_RECIPIENT',
  'EMAIL_TOO_MANY_RECIPIENTS',
  'EMAIL_CONTENT_MISSING',
  'EMAIL_HEADER_INVALID',
  'EMAIL_TOO_LARGE',
  'EMAIL_HTML_TOO_DEEP',
  'TEMPLATE_NOT_FOUND',
  'TEMPLATE_RENDER_TOO_LARGE',
  'EMAIL_SCHEDULE_INVALID',
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
]);

/** The API's refusals of a listing's filters: exit 4, printed `emails list: message (CODE)`. */
const LIST_CODES: ReadonlySet<string> = new Set<ApiErrorCode>(['REQUEST_INVALID', 'EMAIL_ADDRESS_INVALID']);

/**
 * An unknown email id or suppressed address, or a message no longer waiting to be canceled:
 * exit 4, printed `id: message (CODE)`.
 */
const NOT_FOUND_CODES: ReadonlySet<string> = new Set<ApiErrorCode>([
  'EMAIL_NOT_FOUND',
  'EMAIL_NOT_SCHEDULED',
  'SUPPRESSION_NOT_FOUND',
]);

/** The command-line options of `emails send`, as `parseArgs` gives them. */
export interface SendOptions {
  from?: string | undefined;
  to?: string[] | undefined;
  cc?: string[] | undefined;
  bcc?: string[] | undefined;
  replyTo?: string[] | undefined;
  subject?: string | undefined;
  htmlFile?: string | undefined;
  textFile?: string | undefined;
  template?: string | undefined;
  vars?: string[] | undefined;
  idempotencyKey?: string | undefined;
  scheduledAt?: string | undefined;
  /** `opens`, `clicks`, `opens,clicks` or `none`. */
  track?: string | undefined;
}

/** The command-line options of `emails list`: the listing's filters, as the API names them. */
export interface ListOptions {
  status?: string | undefined;
  tag?: string | undefined;
  domain?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
  limit?: string | undefined;
  cursor?: string | undefined;
}

/** Runs `emails <command> <args…>`; `--json` prints the API's `data` as it answered. */
export async function emails(
  client: ServiceClient,
  command: string | undefined,
  args: string[],
  options: SendOptions & { list?: ListOptions; json: boolean },
  io: Io,
): Promise<number> {
  const print = (data: unknown, text: () => string) =>
    io.out(options.json ? JSON.stringify(data, null, 2) : text());
  switch (command) {
    case 'send': {
      exactly(args, [], 'emails send');
      // every mistake, unreadable files included, is found before the request is made
      const input = await sendInput(options);
      return itemRequest(SEND_CODES, 'emails send', io, async () => {
        const sent = await client.sendEmail(
          input,
          options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey },
        );
        print(sent, () => `${sent.id} ${sent.status}`);
      });
    }
    case 'get': {
      const [id] = exactly(args, ['<id>'], 'emails get');
      return itemRequest(NOT_FOUND_CODES, id, io, async () => {
        const email = await client.getEmail(id);
        print(
          email,
          () => `${emailLine(email)}\n\n${table(RECIPIENT_HEADER, email.recipients.map(recipientRow))}`,
        );
      });
    }
    case 'list': {
      exactly(args, [], 'emails list');
      const { limit, status, ...filters } = options.list ?? {};
      if (limit !== undefined && !/^\d{1,3}$/.test(limit))
        throw new UsageError('--limit is a number from 1 to 100');
      const to = options.to?.[0];
      return itemRequest(LIST_CODES, 'emails list', io, async () => {
        const page = await client.listEmails({
          ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
          ...(status !== undefined && { status: status as Email['status'] }),
          ...(to !== undefined && { to }),
          ...(limit !== undefined && { limit: Number(limit) }),
        });
        print(page, () =>
          page.emails.length === 0 ? 'no messages' : table(LISTED_HEADER, page.emails.map(listedRow)),
        );
        // the next page, off stdout so scripts are not disturbed
        if (!options.json && page.nextCursor !== null)
          io.err(`more follow: sendctl emails list … --cursor ${page.nextCursor}`);
      });
    }
    case 'cancel': {
      const [id] = exactly(args, ['<id>'], 'emails cancel');
      return itemRequest(NOT_FOUND_CODES, id, io, async () => {
        const canceled = await client.cancelEmail(id);
        print(canceled, () => `${canceled.id} canceled: it will not be sent`);
      });
    }
    default:
      throw new UsageError(`unknown command "emails ${command ?? ''}"`);
  }
}

/** Runs `suppressions <command> <args…>`; `--json` prints the API's `data` as it answered. */
export async function suppressions(
  client: ServiceClient,
  command: string | undefined,
  args: string[],
  options: { after: string | undefined; json: boolean },
  io: Io,
): Promise<number> {
  const print = (data: unknown, text: () => string) =>
    io.out(options.json ? JSON.stringify(data, null, 2) : text());
  switch (command) {
    case 'list': {
      exactly(args, [], 'suppressions list');
      const page = await client.listSuppressions(options.after === undefined ? {} : { after: options.after });
      print(page, () =>
        page.length === 0 ? 'no suppressions' : table(SUPPRESSION_HEADER, page.map(suppressionRow)),
      );
      // a full page may have a next one: say how to get it, off stdout so scripts are not disturbed
      if (!options.json && page.length === 100)
        io.err(`more may follow: sendctl suppressions list --after ${page.at(-1)!.address}`);
      return EXIT.ok;
    }
    case 'rm':
    case 'remove': {
      const [address] = exactly(args, ['<address>'], `suppressions ${command}`);
      return itemRequest(NOT_FOUND_CODES, address, io, async () => {
        const removed = await client.removeSuppression(address);
        print(removed, () => `removed ${removed.address}: later messages reach it again`);
      });
    }
    default:
      throw new UsageError(`unknown command "suppressions ${command ?? ''}"`);
  }
}

/**
 * The request body of `emails send`, from its options and the files they name. Throws
 * `UsageError` for a missing option, both or neither of `--html-file` and `--template`, a
 * `--var` without `=`, or a file that cannot be read.
 */
export async function sendInput(options: SendOptions): Promise<SendEmailInput> {
  const { from, subject, htmlFile, template } = options;
  const to = addresses(options.to);
  if (from === undefined || to.length === 0 || subject === undefined)
    throw new UsageError('emails send needs --from, --to and --subject');
  if ((htmlFile === undefined) === (template === undefined))
    throw new UsageError('emails send needs exactly one of --html-file and --template');
  if (options.vars !== undefined && template === undefined)
    throw new UsageError('--var sets a variable of --template: give --template too');
  const cc = addresses(options.cc);
  const bcc = addresses(options.bcc);
  const replyTo = addresses(options.replyTo);
  const text = options.textFile === undefined ? undefined : await readText(options.textFile, '--text-file');
  return {
    from,
    to,
    subject,
    ...(htmlFile !== undefined && { html: await readText(htmlFile, '--html-file') }),
    ...(template !== undefined && { templateId: template }),
    ...(options.vars !== undefined && { variables: variables(options.vars) }),
    ...(text !== undefined && { text }),
    ...(cc.length > 0 && { cc }),
    ...(bcc.length > 0 && { bcc }),
    ...(replyTo.length > 0 && { replyTo }),
    ...(options.scheduledAt !== undefined && { scheduledAt: options.scheduledAt }),
    ...(options.track !== undefined && { tracking: tracking(options.track) }),
  };
}

/** `--track opens,clicks` (or `none`): each named is tracked, the other not. */
function tracking(value: string): { opens: boolean; clicks: boolean } {
  const named = value.split(',').map((v) => v.trim().toLowerCase());
  if (
    named.some((v) => !['opens', 'clicks', 'none'].includes(v)) ||
    (named.includes('none') && named.length > 1)
  )
    throw new UsageError(`--track takes opens, clicks, opens,clicks or none, not "${value}"`);
  return { opens: named.includes('opens'), clicks: named.includes('clicks') };
}

/** `--to a,b --to c`: every address, in order; the API checks each. */
function addresses(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',').map((a) => a.trim())).filter((a) => a !== '');
}

/** `--var name=value …`: the template's variables, as strings (the value may contain `=`). */
function variables(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--var "${pair}" is not name=value`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

async function readText(path: string, option: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `${option} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
}
