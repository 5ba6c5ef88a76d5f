/**
 * Accepting a message (`POST /api/public/emails`, issue 21) and reading what became of it.
 * Acceptance checks everything a send could fail on up front (addresses, the `from` domain
 * verified for this account, content, headers, size, the account's rate), composes the MIME
 * message once, and stores it with its recipients in one transaction; the sending worker
 * (`jobs/email-sender.ts`) does the rest. Every refusal is a coded `ApiError`.
 */
import { createHash } from 'node:crypto';
import type { SendingConfig } from '../config.js';
import type { StoredDomain } from '../domain/model.js';
import { type MailAddress, parseAddress, suppressionKey } from '../email/address.js';
import { checkAttachments } from '../email/attachments.js';
import { checkHeaders } from '../email/headers.js';
import { readMessage } from '../email/message-content.js';
import {
  isSandboxDomain,
  SANDBOX_DOMAIN,
  SANDBOX_DOMAIN_ID,
  SANDBOX_OUTCOMES,
  SANDBOX_STREAM,
  sandboxOutcome,
} from '../email/sandbox.js';
import type { SendEmailInput } from '../email/schemas.js';
import { type EmailStatus, emailStatus } from '../email/status.js';
import { withoutTracking } from '../email/tracked-links.js';
import { machineReason, readClickToken, readOpenToken } from '../email/tracking.js';
import { readUnsubscribeToken } from '../email/unsubscribe.js';
import { type Envelope, failed, ok } from '../envelope.js';
import { ApiError, type ApiErrorBody, ERROR_CATALOGUE } from '../errors.js';
import type { ComposeInput, ComposeOutput } from '../render/pool.js';
import type { EmailStore } from '../store/email-store.js';
import { IdempotencyConflict } from '../store/emails/accept.js';
import type { EmailFilter } from '../store/emails/listing.js';
import type { Engagement, NewEmail, StoredEmail } from '../store/emails/types.js';
import { newId } from '../store/ids.js';
import type { Store } from '../store/store.js';
import type { TemplateService } from './template-service.js';

export interface EmailServiceOptions {
  emails: EmailStore;
  store: Store;
  templates: TemplateService;
  limits: Pick<SendingConfig, 'maxRecipients' | 'maxMessageBytes' | 'perMinute'>;
  /** Composes a message off the event loop: the render threads' `compose` (`render/pool.ts`). */
  compose: (input: ComposeInput) => Promise<ComposeOutput>;
  /** The key unsubscribe tokens are authenticated with (`email/unsubscribe.ts`). */
  unsubscribeKey: () => Buffer;
  /** Outside production mode: `sandbox.test` may send to the simulator's addresses (issue 40). */
  sandbox: boolean;
  /**
   * Where tracked links and the open pixel go (issue 37): `https://<label>.<domain>` once the
   * domain's tracking record is verified, when a listener serves tracking hosts
   * (`TRACKING_LISTEN`); without one, the service's own URL.
   */
  tracking: {
    hostsServed: boolean;
    baseUrl: () => string;
    key: () => Buffer;
    /** Where a click that could not be recorded is reported (the reader is sent on anyway). */
    onError?: (error: unknown) => void;
  };
  onQueued?: () => void;
  now?: () => number;
}

/** A send checked and composed: the message to store, or the earlier one its Idempotency-Key names. */
type Fresh = { accepted: Accepted; email: NewEmail };
type Prepared = Fresh | { accepted: Accepted };

/** What the tracking routes tell of a request: enough to tell a machine, nothing to identify a person. */
export interface TrackedRequest {
  method: string;
  userAgent: string | undefined;
  /** The host asked for, without its port: a click token is signed for its tracking host. */
  host: string;
}

/** The domain a message is sent under: a verified registration, or the sandbox's. */
type SendingDomain = Pick<StoredDomain, 'id' | 'type' | 'name'> & { records?: StoredDomain['records'] };

export class EmailService {
  private readonly now: () => number;

  constructor(private readonly options: EmailServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** `POST /api/public/emails`: one message, queued, or held until its `scheduledAt`. */
  async send(caller: Caller, input: SendEmailInput, idempotencyKey: string | undefined): Promise<Accepted> {
    const key = checkIdempotencyKey(idempotencyKey);
    // a key a batch used is that batch's: another request under it is refused
    if (key !== null && (await this.options.emails.findByIdempotencyKey(caller.accountId, batchKey(key, 0))))
      throw reused();
    return this.accept(
      caller,
      input,
      key === null ? null : { key, requestHash: () => sha256(JSON.stringify(input)) },
    );
  }

  /**
   * `POST /api/public/emails/batch`: each entry as {@link send} takes it, one envelope each in
   * request order; an entry's refusal is its own. With an Idempotency-Key, the whole batch is
   * the request: entry `i` is kept under the key `"<key> <i>"` (a space, which no key of a
   * single send may hold) with the batch's hash, so a retry answers the messages already
   * queued, tries again only the entries refused, and another body under the key is refused.
   */
  async sendBatch(
    caller: Caller,
    entries: BatchEntry[],
    idempotencyKey: string | undefined,
  ): Promise<Envelope<Accepted>[]> {
    const key = checkIdempotencyKey(idempotencyKey);
    let idempotency = (_index: number): Idempotency | null => null;
    let replayed = 0;
    if (key !== null) {
      const requestHash = sha256(JSON.stringify(entries.map((e) => ('input' in e ? e.input : e.raw))));
      const keys = entries.map((_, i) => batchKey(key, i));
      // the key of a single send, or of another batch: another request under it is refused
      const earlier = await this.options.emails.findByIdempotencyKeys(caller.accountId, [key, ...keys]);
      if (earlier.some((e) => e.requestHash !== requestHash)) throw reused();
      replayed = earlier.length;
      idempotency = (i) => ({ key: keys[i]!, requestHash: () => requestHash });
    }
    // Checked and composed in order, one at a time: the account's rate counts them in request
    // order, and one batch does not take every render thread from other requests. Then stored
    // in one transaction: one durable write (one fsync on SQLite) for the batch, not one each,
    // which left other requests waiting 30× longer while a batch flood ran.
    const results: Envelope<Accepted>[] = [];
    const fresh: { index: number; prepared: Fresh }[] = [];
    // The batch takes its share of the account's rate at once, in request order: one write,
    // not one per entry. Entries a retry finds stored already (its Idempotency-Key) take none;
    // new ones past the limit are refused as a single send would be.
    const rate = await this.takeRate(caller.accountId, entries.filter((e) => 'input' in e).length - replayed);
    for (const [i, entry] of entries.entries()) {
      if (!('input' in entry)) {
        results.push({
          data: null,
          error: entry.refused,
          status: ERROR_CATALOGUE[entry.refused.code].status,
        });
        continue;
      }
      try {
        const prepared = await this.prepare(caller, entry.input, idempotency(i), { rateTaken: true });
        if ('email' in prepared && fresh.length >= rate.allowed) {
          results.push(failed(rate.refusal.code, rate.refusal.message));
          continue;
        }
        results.push(ok(prepared.accepted));
        if ('email' in prepared) fresh.push({ index: i, prepared });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push(failed(error.code, error.message));
      }
    }
    if (fresh.length === 0) return results;
    const stored = await this.options.emails.acceptMany(fresh.map((f) => f.prepared.email));
    stored.forEach((outcome, n) => {
      const { index, prepared } = fresh[n]!;
      results[index] =
        outcome instanceof IdempotencyConflict
          ? failed(reused().code, reused().message)
          : ok({ ...prepared.accepted, id: outcome.id });
    });
    if (fresh.some((f) => f.prepared.email.scheduledAt === null)) this.options.onQueued?.();
    return results;
  }

  /** A single send: checked, composed and stored. */
  private async accept(
    caller: Caller,
    input: SendEmailInput,
    idempotency: Idempotency | null,
  ): Promise<Accepted> {
    const prepared = await this.prepare(caller, input, idempotency);
    if (!('email' in prepared)) return prepared.accepted;
    try {
      const stored = await this.options.emails.accept(prepared.email);
      if (stored.created && prepared.email.scheduledAt === null) this.options.onQueued?.();
      return { ...prepared.accepted, id: stored.id };
    } catch (error) {
      if (error instanceof IdempotencyConflict) throw reused();
      throw error;
    }
  }

  /**
   * Everything a send needs before it is stored: the message checked, its domain verified, the
   * account's rate taken, the message composed. An Idempotency-Key already used answers the
   * earlier message instead.
   */
  private async prepare(
    caller: Caller,
    input: SendEmailInput,
    idempotency: Idempotency | null,
    options: { rateTaken?: boolean } = {},
  ): Promise<Prepared> {
    const { accountId } = caller;
    const { maxRecipients, maxMessageBytes } = this.options.limits;
    // First, before hashing or converting anything (issue 33): content over the limit can only
    // make a message over it. (The route has charged the body's parsing to the account already.)
    const contentBytes = Buffer.byteLength(input.html ?? '') + Buffer.byteLength(input.text ?? '');
    if (contentBytes > maxMessageBytes) {
      throw new ApiError(
        'EMAIL_TOO_LARGE',
        `html and text hold ${contentBytes} bytes; a message holds at most ${maxMessageBytes}`,
      );
    }
    const attachments = checkAttachments(input.attachments);
    if (!attachments.ok) throw new ApiError(attachments.code, attachments.message);
    if (contentBytes + attachments.bytes > maxMessageBytes) {
      throw new ApiError(
        'EMAIL_TOO_LARGE',
        `html, text and attachments hold ${contentBytes + attachments.bytes} bytes; a message holds at most ${maxMessageBytes}`,
      );
    }
    const key = idempotency?.key ?? null;
    const requestHash = idempotency?.requestHash() ?? null;
    if (key !== null) {
      const earlier = await this.options.emails.findByIdempotencyKey(accountId, key);
      if (earlier !== undefined) {
        if (earlier.requestHash !== requestHash) throw reused();
        return {
          accepted: { id: earlier.id, status: earlier.scheduledAt === null ? 'queued' : 'scheduled' },
        };
      }
    }
    const scheduledAt = this.scheduledTime(input.scheduledAt);
    const from = address(input.from, 'from');
    const to = input.to.map((a, i) => address(a, `to[${i}]`));
    const cc = (input.cc ?? []).map((a, i) => address(a, `cc[${i}]`));
    const bcc = (input.bcc ?? []).map((a, i) => address(a, `bcc[${i}]`));
    const replyTo = [input.replyTo ?? []].flat().map((a, i) => address(a, `replyTo[${i}]`));
    const recipients = [
      ...to.map((a) => ({ a, kind: 'to' as const })),
      ...cc.map((a) => ({ a, kind: 'cc' as const })),
      ...bcc.map((a) => ({ a, kind: 'bcc' as const })),
    ];
    // One envelope recipient per address, whichever field named it first.
    const firsts = new Map<string, (typeof recipients)[number]>();
    for (const r of recipients)
      if (!firsts.has(suppressionKey(r.a.address))) firsts.set(suppressionKey(r.a.address), r);
    const unique = [...firsts.values()];
    if (unique.length > maxRecipients) {
      throw new ApiError(
        'EMAIL_TOO_MANY_RECIPIENTS',
        `to, cc and bcc hold ${unique.length} different addresses; at most ${maxRecipients}`,
      );
    }
    const headers = checkHeaders(input.headers);
    if (!headers.ok) throw new ApiError('EMAIL_HEADER_INVALID', headers.message);
    if ((input.html === undefined) === (input.templateId === undefined)) {
      throw new ApiError('EMAIL_CONTENT_MISSING', 'give exactly one of html and templateId');
    }
    const domain = await this.sendingDomain(
      caller,
      from,
      unique.map((r) => r.a),
    );
    if (!options.rateTaken) {
      const rate = await this.takeRate(accountId, 1);
      if (rate.allowed === 0) throw rate.refusal;
    }
    const content = await this.content(accountId, input);
    const tracking = this.trackingFor(domain, input.tracking);
    const id = newId('eml');
    const now = this.now();
    const composed = await this.options.compose({
      id,
      from,
      to,
      cc,
      replyTo,
      subject: input.subject,
      html: content.html,
      text: content.text,
      headers: headers.value,
      // a scheduled message is dated when it goes (PATCH moves the date with it)
      date: scheduledAt ?? now,
      attachments: attachments.value.map(({ bytes: _, ...attachment }) => attachment),
      ...(tracking && { tracking }),
    });
    if (!composed.ok) {
      throw new ApiError(
        'EMAIL_HTML_TOO_DEEP',
        'html nests elements too deeply to convert into the text part; flatten it, or give text yourself',
      );
    }
    const { message } = composed;
    if (composed.bytes > maxMessageBytes) {
      throw new ApiError(
        'EMAIL_TOO_LARGE',
        `the message is ${composed.bytes} bytes once composed; at most ${maxMessageBytes}`,
      );
    }
    // The From domain's type is the stream: a Marketing unsubscribe stops Marketing mail only.
    const suppressed = await this.options.emails.suppressed(
      accountId,
      unique.map((r) => suppressionKey(r.a.address)),
      domain.type,
    );
    return {
      accepted: { id, status: scheduledAt === null ? 'queued' : 'scheduled' },
      email: {
        id,
        accountId,
        domainId: domain.id,
        fromAddress: from.address,
        subject: input.subject,
        message,
        tags: input.tags ?? [],
        idempotencyKey: key,
        requestHash,
        createdAt: now,
        scheduledAt,
        tracking:
          tracking && [tracking.opens && 'opens', tracking.clicks && 'clicks'].filter(Boolean).join(','),
        recipients: unique.map((r) => ({
          address: r.a.address,
          kind: r.kind,
          suppressed: suppressed.has(suppressionKey(r.a.address)),
        })),
      },
    };
  }

  /**
   * What a message tracks and through which host, or `undefined` for nothing: the send's
   * `tracking` over the domain's default (Marketing mail from a domain registered with
   * `tracking`; never Transactional mail unless asked). Tracking needs a host that reaches us:
   * the domain's verified tracking host when tracking hosts are served, else the service's URL.
   */
  private trackingFor(
    domain: SendingDomain,
    asked: SendEmailInput['tracking'],
  ): ComposeInput['tracking'] | undefined {
    const record = domain.records?.find((r) => r.kind === 'tracking');
    const byDefault = domain.type === 'Marketing' && record !== undefined;
    const opens = asked?.opens ?? byDefault;
    const clicks = asked?.clicks ?? byDefault;
    if (!opens && !clicks) return undefined;
    const { hostsServed, baseUrl } = this.options.tracking;
    let base = baseUrl();
    if (hostsServed) {
      if (record?.status !== 'verified') return undefined;
      base = `https://${record.label}.${domain.name}`;
    }
    // our own one-click unsubscribe page is never a tracked link
    return { base, opens, clicks, keep: [`${baseUrl()}/unsubscribe/`] };
  }

  /**
   * The registration `from` sends under, verified; outside production mode, the sandbox's
   * domain, whose mail may only go to the sandbox's simulated recipients (`email/sandbox.ts`).
   */
  private async sendingDomain(
    caller: Caller,
    from: MailAddress,
    recipients: MailAddress[],
  ): Promise<SendingDomain> {
    if (caller.domains !== null && !caller.domains.includes(from.domain)) {
      throw new ApiError(
        'EMAIL_FROM_NOT_ALLOWED',
        `this key sends only from ${caller.domains.join(', ').slice(0, 500)}; ${from.domain} is not one of them`,
      );
    }
    if (isSandboxDomain(from.domain)) {
      if (!this.options.sandbox) {
        throw new ApiError(
          'EMAIL_SANDBOX_OFF',
          `${SANDBOX_DOMAIN} is the development sandbox, off in production mode: send from a verified domain of this account`,
        );
      }
      const elsewhere = recipients.find((r) => sandboxOutcome(r.address) === undefined);
      if (elsewhere !== undefined) {
        throw new ApiError(
          'EMAIL_SANDBOX_RECIPIENT',
          `from ${SANDBOX_DOMAIN}, mail goes only to ${SANDBOX_OUTCOMES.map((o) => `${o}@`).join(', ')}${SANDBOX_DOMAIN} (a +label may follow the name); ${elsewhere.address} is not one of them`,
        );
      }
      return { id: SANDBOX_DOMAIN_ID, type: SANDBOX_STREAM, name: SANDBOX_DOMAIN };
    }
    const domain = (await this.options.store.findDomains(caller.accountId, [from.domain])).get(from.domain);
    if (domain?.status !== 'verified') {
      throw new ApiError(
        'EMAIL_FROM_NOT_VERIFIED',
        domain === undefined
          ? `${from.domain} is not a registered domain of this account; register it and publish its records first`
          : `${from.domain} is ${domain.status}, not verified: publish its records and wait for "verified"`,
      );
    }
    return domain;
  }

  /**
   * `scheduledAt` as epoch ms: `null` (send at once) when absent or not in the future, refused
   * beyond {@link MAX_SCHEDULE_DAYS} days ahead. The schema has checked it is RFC 3339.
   */
  private scheduledTime(scheduledAt: string | undefined): number | null {
    if (scheduledAt === undefined) return null;
    const at = Date.parse(scheduledAt);
    const now = this.now();
    if (!Number.isFinite(at))
      throw new ApiError('EMAIL_SCHEDULE_INVALID', `scheduledAt "${scheduledAt}" is not a time`);
    if (at > now + MAX_SCHEDULE_DAYS * DAY_MS) {
      throw new ApiError(
        'EMAIL_SCHEDULE_INVALID',
        `scheduledAt ${new Date(at).toISOString()} is more than ${MAX_SCHEDULE_DAYS} days ahead; at most ${new Date(now + MAX_SCHEDULE_DAYS * DAY_MS).toISOString()}`,
      );
    }
    return at > now ? at : null;
  }

  /** `POST /api/public/emails/{id}/cancel`: a scheduled message is not sent. */
  async cancel(caller: Caller, id: string): Promise<{ id: string; status: 'canceled' }> {
    await this.refuseUnlessVisible(caller, id);
    const result = await this.options.emails.cancel(caller.accountId, id, this.now());
    this.refuseUnlessScheduled(result, caller, id);
    return { id, status: 'canceled' };
  }

  /**
   * `PATCH /api/public/emails/{id}`: a scheduled message goes at `scheduledAt` instead (a time
   * not in the future: at once), its `Date` header with it.
   */
  async reschedule(
    caller: Caller,
    id: string,
    scheduledAt: string,
  ): Promise<{ id: string; status: 'scheduled'; scheduledAt: string }> {
    await this.refuseUnlessVisible(caller, id);
    const at = this.scheduledTime(scheduledAt) ?? this.now();
    const result = await this.options.emails.reschedule(caller.accountId, id, at, this.now());
    this.refuseUnlessScheduled(result, caller, id);
    return { id, status: 'scheduled', scheduledAt: new Date(at).toISOString() };
  }

  private refuseUnlessScheduled(
    result: 'canceled' | 'rescheduled' | 'not_found' | 'not_scheduled',
    caller: Caller,
    id: string,
  ) {
    if (result === 'not_found') throw notFound(caller, id);
    if (result === 'not_scheduled') {
      throw new ApiError(
        'EMAIL_NOT_SCHEDULED',
        `email ${id} is not waiting for its scheduled time (it was sent at once, its sending began, or it was canceled)`,
      );
    }
  }

  /**
   * `GET /api/public/emails`: a page of the account's messages, newest first, filtered; `next`
   * is where the next page starts (`null` on the last).
   */
  async list(
    caller: Caller,
    query: {
      limit: number;
      status?: EmailStatus;
      recipient?: string;
      domain?: string;
      since?: string;
      until?: string;
      tag?: string;
      tagValue?: string;
      after?: { createdAt: number; id: string };
    },
  ) {
    if (query.tagValue !== undefined && query.tag === undefined)
      throw new ApiError('REQUEST_INVALID', 'tagValue filters the values of a tag: give tag (its name) too');
    const filter: EmailFilter = {
      ...(query.status !== undefined && { status: query.status }),
      ...(query.since !== undefined && { since: Date.parse(query.since) }),
      ...(query.until !== undefined && { until: Date.parse(query.until) }),
      ...(query.tag !== undefined && {
        tag: { name: query.tag, ...(query.tagValue !== undefined && { value: query.tagValue }) },
      }),
    };
    const { accountId } = caller;
    if (query.recipient !== undefined) filter.recipient = address(query.recipient, 'recipient').address;
    if (query.domain !== undefined) {
      const name = query.domain.trim().toLowerCase().replace(/\.$/, '');
      if (isSandboxDomain(name)) filter.domainId = SANDBOX_DOMAIN_ID;
      else {
        const domain = (await this.options.store.findDomains(accountId, [name])).get(name);
        // not one of the account's domains: nothing was sent from it
        if (domain === undefined) return { emails: [], next: null };
        filter.domainId = domain.id;
      }
    }
    if (caller.domains !== null) filter.domainIds = await this.domainIds(caller);
    const rows = await this.options.emails.list(accountId, filter, query.limit + 1, query.after);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      emails: page.map((e) => ({
        id: e.id,
        status: e.status,
        from: e.fromAddress,
        to: e.to,
        subject: e.subject,
        tags: e.tags,
        createdAt: new Date(e.createdAt).toISOString(),
        scheduledAt: e.scheduledAt === null ? null : new Date(e.scheduledAt).toISOString(),
      })),
      next: rows.length > query.limit && last ? { createdAt: last.createdAt, id: last.id } : null,
    };
  }

  /** `GET /api/public/emails/{id}`. */
  async get(caller: Caller, id: string) {
    const email = await this.options.emails.get(caller.accountId, id);
    if (email === undefined || !(await this.mayRead(caller, email.domainId))) throw notFound(caller, id);
    return emailView(email);
  }

  /** `GET /api/public/emails/{id}/content`: the message as its recipients get it, DKIM signature aside. */
  async getContent(caller: Caller, id: string) {
    const stored = await this.options.emails.content(caller.accountId, id);
    if (stored === undefined || !(await this.mayRead(caller, stored.domainId))) throw notFound(caller, id);
    if (stored.deletedAt !== null) {
      throw new ApiError(
        'EMAIL_CONTENT_EXPIRED',
        `the body of ${id} was deleted on ${new Date(stored.deletedAt).toISOString()}, past the service's retention; its status and events remain`,
      );
    }
    const { headers, html, text } = await readMessage(stored.message);
    return {
      id,
      subject: stored.subject,
      headers,
      html: html === null ? null : withoutTracking(html, true),
      text: text === null ? null : withoutTracking(text, false),
    };
  }

  /** The registration ids of a limited key's domains (a deleted one is gone, its mail with it). */
  private async domainIds(caller: Caller): Promise<string[]> {
    const found = await this.options.store.findDomains(caller.accountId, [...(caller.domains ?? [])]);
    return [...found.values()].map((d) => d.id);
  }

  /** Whether `caller` may read a message sent from `domainId`: any key not limited to domains may. */
  private async mayRead(caller: Caller, domainId: string): Promise<boolean> {
    return caller.domains === null || (await this.domainIds(caller)).includes(domainId);
  }

  /** A message a limited key may not read is, to it, a message that does not exist. */
  private async refuseUnlessVisible(caller: Caller, id: string): Promise<void> {
    if (caller.domains === null) return;
    const domainId = await this.options.emails.domainOf(caller.accountId, id);
    if (domainId === undefined || !(await this.mayRead(caller, domainId))) throw notFound(caller, id);
  }

  /** `GET /api/public/suppressions`: 100 addresses a page, after `after`. */
  async suppressions(accountId: string, after: string | undefined) {
    const rows = await this.options.emails.listSuppressions(accountId, {
      limit: 100,
      ...(after !== undefined && { after: suppressionKey(after) }),
    });
    return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
  }

  /** `DELETE /api/public/suppressions/{address}`: later messages reach it again. */
  async removeSuppression(accountId: string, address: string): Promise<{ address: string; deleted: true }> {
    if (!(await this.options.emails.removeSuppression(accountId, suppressionKey(address)))) {
      throw new ApiError('SUPPRESSION_NOT_FOUND', `${address} is not on this account's suppression list`);
    }
    return { address: suppressionKey(address), deleted: true };
  }

  /** `GET /t/o/{token}`: a tracked message was opened; `false` for a token that is not ours. */
  async recordOpen(token: string, request: TrackedRequest): Promise<boolean> {
    const recipientId = readOpenToken(this.options.tracking.key(), token);
    if (recipientId === undefined) return false;
    // a HEAD checks the pixel, it does not show it
    if (request.method === 'HEAD') return true;
    return this.options.emails.recordEngagement(recipientId, this.engagement('opened', null, request));
  }

  /** `GET /t/c/{token}/{link}`: the link to send the reader to, `undefined` when the token is not ours. */
  async recordClick(token: string, encodedUrl: string, request: TrackedRequest): Promise<string | undefined> {
    const click = readClickToken(this.options.tracking.key(), token, encodedUrl, request.host);
    if (click === undefined) return undefined;
    // The reader goes on whatever happens to the record: when the message was deleted by
    // retention meanwhile, and when the database fails (then the click is lost, not the reader).
    await this.options.emails
      .recordEngagement(click.recipientId, this.engagement('clicked', click.url, request))
      .catch((error: unknown) => this.options.tracking.onError?.(error));
    return click.url;
  }

  private engagement(type: 'opened' | 'clicked', url: string | null, request: TrackedRequest): Engagement {
    const at = this.now();
    return {
      type,
      url,
      at,
      machine: (sentAt) =>
        machineReason(type, { ...request, msSinceSent: sentAt === null ? null : at - sentAt }),
    };
  }

  /**
   * A one-click unsubscribe (`POST /unsubscribe/{token}`): the recipient's address joins its
   * account's suppression list for the message's stream, or for all its mail (`everything`).
   * `false` when the token is not one of ours.
   */
  async unsubscribe(token: string, everything = false): Promise<boolean> {
    const recipientId = readUnsubscribeToken(this.options.unsubscribeKey(), token);
    return (
      recipientId !== undefined &&
      (await this.options.emails.unsubscribe(recipientId, this.now(), everything))
    );
  }

  /** The HTML and text to send: the request's (`text: null`: from the HTML), or the template's rendering. */
  private async content(
    accountId: string,
    input: SendEmailInput,
  ): Promise<{ html: string; text: string | null }> {
    if (input.templateId !== undefined) {
      const rendered = await this.options.templates.renderForSending(
        accountId,
        input.templateId,
        input.variables ?? {},
      );
      if (rendered === undefined) {
        throw new ApiError(
          'TEMPLATE_NOT_FOUND',
          `this account has no template "${input.templateId.slice(0, 64)}"`,
        );
      }
      return { html: rendered.html, text: input.text ?? rendered.text };
    }
    return { html: input.html!, text: input.text ?? null };
  }

  /**
   * At most `perMinute` messages per account in each clock minute, counted in the database so
   * the limit holds across processes, at the cost of one upsert whatever the volume.
   */
  /**
   * Counts `messages` submissions in the account's minute; `allowed` of them fit under
   * `MAX_EMAILS_PER_MINUTE` (the first ones, in order), the rest get `refusal`.
   */
  private async takeRate(
    accountId: string,
    messages: number,
  ): Promise<{ allowed: number; refusal: ApiError }> {
    const now = this.now();
    const windowStart = now - (now % 60_000);
    const { perMinute } = this.options.limits;
    const count =
      messages === 0 ? 0 : await this.options.emails.countSubmission(accountId, windowStart, messages);
    const refusal = new ApiError(
      'ACCOUNT_SENDING_RATE',
      `the account submitted ${perMinute} messages this minute; at most ${perMinute}`,
    );
    refusal.retryAfter = Math.max(1, Math.ceil((windowStart + 60_000 - now) / 1000));
    return { allowed: Math.max(0, Math.min(messages, perMinute - (count - messages))), refusal };
  }
}

/**
 * Who asks: the key's account, and the only domains a key limited to some sends from and reads
 * (`null`: any of the account's). An `ApiKeyRecord` is one.
 */
export interface Caller {
  accountId: string;
  domains: readonly string[] | null;
}

/** What a send answers: the message's id, and whether it waits for its time. */
export interface Accepted {
  id: string;
  status: 'queued' | 'scheduled';
}

/** A batch entry: a message to send, or one whose shape was refused (its error, and its JSON). */
export type BatchEntry = { input: SendEmailInput } | { raw: unknown; refused: ApiErrorBody };

/** An Idempotency-Key and the hash of the request it was used with (computed when needed). */
interface Idempotency {
  key: string;
  requestHash: () => string;
}

/** How far ahead `scheduledAt` may be, as Resend allows. */
const MAX_SCHEDULE_DAYS = 30;
const DAY_MS = 86_400_000;

/** Where a batch keeps entry `i` under its Idempotency-Key: a space no single send's key holds. */
const batchKey = (key: string, i: number) => `${key} ${i}`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The message is not there for this caller. A key limited to some domains is told the same
 * whether the id is another domain's message or none at all: it learns nothing of the rest.
 */
function notFound(caller: Caller, id: string): ApiError {
  return new ApiError(
    'EMAIL_NOT_FOUND',
    caller.domains === null
      ? `this account has no email ${id}`
      : `no email ${id} among the mail of this key's domains`,
  );
}

function address(input: string, field: string): MailAddress {
  const parsed = parseAddress(input, field);
  if (!parsed.ok) throw new ApiError('EMAIL_ADDRESS_INVALID', parsed.message);
  return parsed.value;
}

/** Printable ASCII, 1–255 characters, as the IETF idempotency-key draft and Stripe take it. */
function checkIdempotencyKey(key: string | undefined): string | null {
  if (key === undefined) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ApiError(
      'IDEMPOTENCY_KEY_INVALID',
      'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces',
    );
  }
  return key;
}

const reused = () =>
  new ApiError(
    'IDEMPOTENCY_KEY_REUSED',
    'this Idempotency-Key was used with a different request; send the same body to retry, or a new key',
  );

function emailView(email: StoredEmail) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: email.id,
    status: emailStatus(email.recipients.map((r) => r.status)),
    from: email.fromAddress,
    subject: email.subject,
    tags: email.tags,
    createdAt: iso(email.createdAt)!,
    scheduledAt: iso(email.scheduledAt),
    tracking: { opens: email.tracking.includes('opens'), clicks: email.tracking.includes('clicks') },
    recipients: email.recipients.map((r) => ({
      address: r.address,
      kind: r.kind,
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: iso(r.nextAttemptAt),
      events: email.events
        .filter((e) => e.address === r.address)
        .map((e) => ({
          type: e.type,
          smtpCode: e.smtpCode,
          smtpText: e.smtpText,
          mxHost: e.mxHost,
          ...(e.type === 'bounced' && { bounceType: e.bounceType ?? 'undetermined' }),
          ...(e.type === 'clicked' && { url: e.url ?? '' }),
          ...((e.type === 'opened' || e.type === 'clicked') && { machineReason: e.machine }),
          at: iso(e.at)!,
        })),
    })),
  };
}
