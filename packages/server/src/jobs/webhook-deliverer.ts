/**
 * The webhook delivery worker (issue 20): every tick it claims due deliveries (each once
 * across processes, in order per domain and endpoint, `WebhookStore.claimDue`), sends each
 * signed, and records the attempt: delivered, retried later, or failed once the retry window
 * has ended. The tick loop is the verification scheduler's.
 */
import { open } from '../dkim/secret-box.js';
import type { RecordSettings } from '../domain/records.js';
import type { AttemptOutcome, ClaimedDelivery, WebhookStore } from '../store/webhook-store.js';
import { ATTR } from '../telemetry/attributes.js';
import { NO_SPAN, type SpanRecorder, type Tracing } from '../telemetry/tracing.js';
import { webhookBody } from '../webhook/events.js';
import { nextAttemptAt, type RetryPolicy } from '../webhook/retry-schedule.js';
import { sendWebhook } from '../webhook/send.js';
import { signatureHeaders } from '../webhook/signature.js';
import { ClaimLoop } from './claim-loop.js';

export interface DelivererOptions {
  store: WebhookStore;
  /** The key endpoint secrets are sealed with (`SECRET_KEY`), read when first needed. */
  secretKey: () => Buffer;
  records: RecordSettings;
  retry: RetryPolicy;
  /** An endpoint failing every attempt for this long is disabled. */
  disableAfterMs: number;
  timeoutMs: number;
  allowPrivate: boolean;
  intervalMs: number;
  batchSize: number;
  leaseMs: number;
  /** Settled events are deleted this long after they happened (`WEBHOOK_RETENTION_MS`). */
  retentionMs: number;
  now?: () => number;
  onError?: (error: unknown) => void;
  /** Each recorded attempt's outcome, and for a delivery the ms since its event: the metrics (issue 39). */
  onAttempt?: (outcome: AttemptOutcome['kind'], sinceEventMs: number) => void;
  /** Each attempt a span: the endpoint's host, the answer's status (issue 39); absent: not traced. */
  tracing?: Tracing;
}

const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 5_000;

export class WebhookDeliverer extends ClaimLoop<ClaimedDelivery> {
  /** When this process last deleted old events; hourly is enough. */
  private prunedAt = 0;

  constructor(private readonly options: DelivererOptions) {
    super(options);
  }

  protected claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.options.now ?? Date.now;
    return this.options.store.claimDue(now(), limit, this.options.leaseMs);
  }

  protected override afterTick(): Promise<void> {
    const now = this.options.now ?? Date.now;
    return this.pruneHourly(now());
  }

  /**
   * Once an hour (or once a retention period, when shorter), delete the settled deliveries
   * and the events past retention, a few thousand per statement so no transaction holds many
   * locks. Every process may do it: deleting what another process deleted deletes nothing.
   */
  private async pruneHourly(now: number): Promise<void> {
    if (now - this.prunedAt < Math.min(PRUNE_EVERY_MS, this.options.retentionMs)) return;
    this.prunedAt = now;
    const before = now - this.options.retentionMs;
    while (!this.stopped && (await this.options.store.prune(before, PRUNE_BATCH)) === PRUNE_BATCH);
  }

  /**
   * One signed attempt of a claimed delivery, recorded; `true` once delivered: the next event
   * of its stream is then the head and goes at the next tick, at once. (Waiting a whole tick per
   * event, a 50-recipient message's 100 events took 110 s to arrive, issue 35.)
   */
  protected attempt(claim: ClaimedDelivery): Promise<boolean> {
    const { tracing } = this.options;
    if (tracing === undefined) return this.attemptOnce(claim, NO_SPAN);
    const attributes = {
      [ATTR.SERVER_ADDRESS]: hostOf(claim.endpoint.url),
      [ATTR.HTTP_REQUEST_METHOD]: 'POST',
      [ATTR.WEBHOOK_EVENT_TYPE]: claim.event.type,
    };
    // a trace of its own: the request that wrote the event only nudged the worker
    return tracing.span('webhook delivery', { kind: 'client', root: true, attributes }, (span) =>
      this.attemptOnce(claim, span),
    );
  }

  private async attemptOnce(claim: ClaimedDelivery, span: SpanRecorder): Promise<boolean> {
    const o = this.options;
    const now = o.now ?? Date.now;
    const { event, endpoint } = claim;
    const body = webhookBody(event.type, event.createdAt, event.snapshot, o.records);
    const secret = open(o.secretKey(), endpoint.secretEnc, endpoint.id);
    // The event id is the webhook-id: the same on every retry, so receivers can deduplicate.
    const headers = signatureHeaders(secret, event.id, Math.floor(now() / 1000), body);
    const result = await sendWebhook(endpoint.url, headers, body, {
      timeoutMs: o.timeoutMs,
      allowPrivate: o.allowPrivate,
      now,
    });
    const at = now();
    span.set({ [ATTR.HTTP_RESPONSE_STATUS_CODE]: result.status ?? undefined });
    if (result.error !== null)
      span.fail(result.status === null ? 'no_answer' : String(result.status), result.error);
    let outcome: AttemptOutcome = { kind: 'delivered' };
    if (result.error !== null) {
      const next = nextAttemptAt(o.retry, claim.attempts + 1, claim.createdAt, at);
      outcome = next === null ? { kind: 'failed' } : { kind: 'retry', nextAttemptAt: next };
    }
    await o.store.recordAttempt(
      claim,
      { at, status: result.status, durationMs: result.durationMs, error: result.error, outcome },
      o.disableAfterMs,
    );
    o.onAttempt?.(outcome.kind, at - event.createdAt);
    span.set({ [ATTR.WEBHOOK_OUTCOME]: outcome.kind });
    return outcome.kind === 'delivered';
  }
}

/** The URL's host alone: its path and query may hold the receiver's token. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
