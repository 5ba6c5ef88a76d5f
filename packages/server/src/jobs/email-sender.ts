/**
 * The sending worker (issue 21): every tick it claims due recipients (each once across
 * processes, with a lease), and for each builds that recipient's copy (List-Unsubscribe for
 * Marketing domains), signs it with the domain's active DKIM selector, attempts it over SMTP
 * (`email/smtp.ts`) and records the outcome: sent, deferred with back-off (4xx, no answer),
 * bounced (5xx; the address suppressed when the refusal says it does not exist: a hard bounce,
 * `email/bounce.ts`), or failed once the retry
 * window is over or the message cannot be signed any more.
 */
import { DkimError } from '../dkim/errors.js';
import type { DkimSigner } from '../dkim/signer.js';
import type { MtaSts } from '../email/mta-sts.js';
import type { FindMailHosts } from '../email/mx.js';
import { returnPathAddress } from '../email/return-path.js';
import { isSandboxDomain, sandboxOutcome } from '../email/sandbox.js';
import type { SandboxInbox } from '../email/sandbox-inbox.js';
import { SmtpDelivery, type SmtpSettings } from '../email/smtp.js';
import type { SessionStats } from '../email/smtp-sessions.js';
import { unsubscribeHeaders, unsubscribeToken } from '../email/unsubscribe.js';
import { RenderQueueFullError } from '../render/pool.js';
import type { EmailStore } from '../store/email-store.js';
import type { AttemptOutcome, ClaimedRecipient } from '../store/emails/types.js';
import { ATTR } from '../telemetry/attributes.js';
import { NO_SPAN, type SpanRecorder, type Tracing } from '../telemetry/tracing.js';
import { nextAttemptAt, type RetryPolicy } from '../webhook/retry-schedule.js';
import { ClaimLoop } from './claim-loop.js';

export interface EmailSenderOptions {
  store: EmailStore;
  signer: () => DkimSigner;
  smtp: SmtpSettings;
  findHosts: FindMailHosts;
  /** Recipient domains' MTA-STS policies (`SMTP_MTA_STS`). */
  mtaSts?: MtaSts;
  retry: RetryPolicy;
  intervalMs: number;
  batchSize: number;
  leaseMs: number;
  /** Where the service is reached from outside, for List-Unsubscribe links. */
  baseUrl: () => string;
  /** The key unsubscribe tokens are authenticated with. */
  unsubscribeKey: () => Buffer;
  /** The key return-path addresses are authenticated with (`email/return-path.ts`). */
  returnPathKey: () => Buffer;
  /** A tracked message's copy for one recipient, made off the event loop (`email/tracked-links.js`). */
  personalise: (message: string, recipientId: string) => Promise<string>;
  /** Names the sender in `Feedback-ID` (Gmail's feedback loop): the service's host. */
  senderId: string;
  /** Outside production mode, mail to `sandbox.test` stays in the capture inbox (issue 40). */
  sandbox?: SandboxInbox;
  /** Retention (`EMAIL_RETENTION_DAYS`, `EMAIL_EVENT_RETENTION_DAYS`): bodies, then messages. */
  retention?: { bodiesMs: number; messagesMs: number };
  now?: () => number;
  onError?: (error: unknown) => void;
  /** Each recorded attempt's outcome (`sent`, `deferred`, `bounced`, `failed`): the metrics (issue 39). */
  onAttempt?: (outcome: Exclude<AttemptOutcome['kind'], 'postponed'>) => void;
  /** Each attempt a span: the MX host, the reply code, the outcome (issue 39); absent: not traced. */
  tracing?: Tracing;
}

/** Retention runs once an hour (or once a retention period, when shorter), in batches. */
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 1_000;

export class EmailSender extends ClaimLoop<ClaimedRecipient> {
  /** SMTP sessions, kept open between attempts (and ticks) for the next message. */
  private readonly delivery: SmtpDelivery;
  /** When this process last applied retention. */
  private prunedAt = 0;

  constructor(private readonly options: EmailSenderOptions) {
    super(options);
    this.delivery = new SmtpDelivery(options.smtp, options.findHosts, options.mtaSts);
  }

  /** The SMTP sessions held now, by destination in sum (metrics, issue 39). */
  sessionStats(): SessionStats {
    return this.delivery.sessionStats();
  }

  /** Stop claiming, wait for the attempts under way, then QUIT the sessions kept open. */
  override async stop(): Promise<void> {
    await super.stop();
    await this.delivery.close();
  }

  protected claim(limit: number): Promise<ClaimedRecipient[]> {
    const now = this.options.now ?? Date.now;
    return this.options.store.claimDue(now(), limit, this.options.leaseMs);
  }

  /**
   * Empties the bodies and deletes the messages past retention, a batch per statement so no
   * transaction holds many rows. Every process may do it: what another did is simply not found.
   */
  protected override async afterTick(): Promise<void> {
    const { retention } = this.options;
    const now = (this.options.now ?? Date.now)();
    if (!retention || now - this.prunedAt < Math.min(PRUNE_EVERY_MS, retention.bodiesMs)) return;
    this.prunedAt = now;
    const prune = () =>
      this.options.store.prune(now - retention.bodiesMs, now - retention.messagesMs, now, PRUNE_BATCH);
    while (!this.stopped && (await prune()) === PRUNE_BATCH);
  }

  protected attempt(claim: ClaimedRecipient): Promise<void> {
    const { tracing } = this.options;
    if (tracing === undefined) return this.attemptOnce(claim, NO_SPAN);
    const domain = claim.address.slice(claim.address.lastIndexOf('@') + 1);
    // a trace of its own: the request that queued the message only nudged the worker
    return tracing.span(
      'smtp delivery',
      { kind: 'client', root: true, attributes: { [ATTR.EMAIL_RECIPIENT_DOMAIN]: domain } },
      (span) => this.attemptOnce(claim, span),
    );
  }

  private async attemptOnce(claim: ClaimedRecipient, span: SpanRecorder): Promise<void> {
    const o = this.options;
    const now = o.now ?? Date.now;
    const outcome = await this.outcomeOf(claim).catch((error: unknown): AttemptOutcome => {
      const busy = error instanceof RenderQueueFullError;
      if (!busy && !(error instanceof DkimError)) throw error;
      const text = busy
        ? 'the render threads were busy making tracked copies; tried again later'
        : `${error.code}: ${error.message}`;
      // A key still being generated, or render threads busy, is a matter of seconds: wait for
      // it as for a 4xx, within the retry window.
      const next =
        busy || error.code === 'DKIM_KEY_NOT_READY'
          ? nextAttemptAt(o.retry, claim.attempts + 1, claim.createdAt, now())
          : null;
      return next === null
        ? { kind: 'failed', code: null, text, mxHost: null }
        : { kind: 'deferred', nextAttemptAt: next, code: null, text, mxHost: null };
    });
    span.set({
      [ATTR.SERVER_ADDRESS]: outcome.mxHost ?? undefined,
      [ATTR.SMTP_REPLY_CODE]: outcome.code ?? undefined,
      [ATTR.EMAIL_OUTCOME]: outcome.kind,
    });
    // no reply text: a receiver's often quotes the recipient's address
    if (outcome.kind === 'failed' || outcome.kind === 'deferred')
      span.fail(outcome.code === null ? outcome.kind : String(outcome.code));
    await o.store.recordAttempt(claim, outcome, now());
    // a message put back for its destination's pace was not attempted
    if (outcome.kind !== 'postponed') o.onAttempt?.(outcome.kind);
    // The sandbox's complained@ address reports the delivered message as spam, as a mailbox
    // provider's feedback loop would moments later.
    if (o.sandbox?.captures(claim.address) && outcome.kind === 'sent') {
      if (sandboxOutcome(claim.address) === 'complained')
        await o.store.recordFeedback(claim.id, { kind: 'complaint', feedbackType: 'abuse' }, now());
    }
  }

  private async outcomeOf(claim: ClaimedRecipient): Promise<AttemptOutcome> {
    const o = this.options;
    const now = o.now ?? Date.now;
    if (claim.domainType === null) {
      return {
        kind: 'failed',
        code: null,
        text: 'the sending domain was deleted before the message left',
        mxHost: null,
      };
    }
    const fromDomain = claim.fromAddress.slice(claim.fromAddress.lastIndexOf('@') + 1);
    const fromSandbox = isSandboxDomain(fromDomain);
    if (fromSandbox && !o.sandbox) {
      return { kind: 'failed', code: null, text: 'the sandbox is off in production mode', mxHost: null };
    }
    // a tracked message's links and pixel get this recipient's tokens
    let copy = claim.tracked ? await o.personalise(claim.message, claim.id) : claim.message;
    if (claim.domainType === 'Marketing' && !/^List-Unsubscribe:/im.test(headerBlock(copy))) {
      // with a return path, a mailto: alternative there too (mail to it unsubscribes)
      const mailto = claim.returnPathDomain
        ? returnPathAddress(o.returnPathKey(), claim.id, claim.returnPathDomain, 'unsubscribe')
        : undefined;
      copy = unsubscribeHeaders(o.baseUrl(), unsubscribeToken(o.unsubscribeKey(), claim.id), mailto) + copy;
    }
    copy = feedbackId(claim, o.senderId) + copy;
    const signed = fromSandbox
      ? { message: await o.sandbox!.sign(copy) }
      : await o.signer().sign(copy, { domain: fromDomain, accountId: claim.accountId });
    // With a verified return path, the envelope sender is there, one per recipient (VERP):
    // SPF passes aligned, and bounces and complaints come back to us, naming the recipient.
    const envelopeFrom = claim.returnPathDomain
      ? returnPathAddress(o.returnPathKey(), claim.id, claim.returnPathDomain)
      : claim.fromAddress;
    if (o.sandbox?.captures(claim.address)) return o.sandbox.capture(claim, signed.message, envelopeFrom);
    const result = await this.delivery.send({ from: envelopeFrom, to: claim.address }, signed.message);
    if (result.kind === 'postponed') {
      return {
        kind: 'postponed',
        nextAttemptAt: result.retryAt,
        code: null,
        text: result.text,
        mxHost: result.host,
      };
    }
    if (result.kind === 'sent') {
      return {
        kind: 'sent',
        delivered: !result.viaRelay,
        code: result.code,
        text: result.text,
        mxHost: result.host,
      };
    }
    if (result.kind === 'permanent') {
      return {
        kind: 'bounced',
        bounce: result.bounce,
        code: result.code,
        text: result.text,
        mxHost: result.host,
      };
    }
    const next = nextAttemptAt(o.retry, claim.attempts + 1, claim.createdAt, now());
    if (next === null) {
      return {
        kind: 'failed',
        code: result.code,
        text: `gave up after the retry window: ${result.text}`,
        mxHost: result.host,
      };
    }
    return {
      kind: 'deferred',
      nextAttemptAt: next,
      code: result.code,
      text: result.text,
      mxHost: result.host,
    };
  }
}

/** The header block of a message (up to the first empty line). */
function headerBlock(message: string): string {
  const end = message.indexOf('\r\n\r\n');
  return end === -1 ? message : message.slice(0, end);
}

/**
 * `Feedback-ID` as Gmail's feedback loop reads it (`<campaign>:<customer>:<mail type>:<sender>`):
 * the message's `campaign` tag (or `none`), the account, the stream and our host, each cut to
 * what a header field may carry. Gmail reports spam rates per value of each part.
 */
function feedbackId(claim: ClaimedRecipient, senderId: string): string {
  const part = (value: string) => value.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 40) || 'none';
  const campaign = claim.tags.find((t) => t.name === 'campaign')?.value ?? 'none';
  return `Feedback-ID: ${[campaign, claim.accountId, claim.domainType ?? 'none', senderId].map(part).join(':')}\r\n`;
}
