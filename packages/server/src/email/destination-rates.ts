/**
 * Messages per minute per destination (issue 35): a pace for each mailbox provider, as MTAs
 * keep one (Postfix's `default_destination_rate_delay`, KumoMTA's `max_message_rate`).
 *
 * A rule names MX host patterns and a rate. The patterns are matched against the name of the
 * MX host a message is about to go to (`*.google.com` is any name under `google.com`; a name
 * without `*` is that name only), and every MX host a rule matches shares the rule's one pace:
 * Gmail's many MX names and addresses are one receiver in practice, which counts what one
 * sending address sends it across all of them. A host no rule matches is paced by the default
 * rate, each MX address on its own (the same key as its sessions: the MX rollup).
 *
 * The pace is strict spacing, no burst: at 240 a minute, one message every 250 ms. A message
 * whose turn is near waits for it; one whose turn is further than {@link MAX_WAIT_MS} off is put
 * back in the queue for its turn (no attempt counted, no event, no bounce), so that waiting
 * messages do not hold the worker's batch from other destinations.
 *
 * The pace is kept per process, as the other budgets are: N sending processes send up to N
 * times the rate to one destination.
 */

/** One rule: a rate shared by every MX host its patterns match. */
export interface RateRule {
  /** A provider's name (`google`), or the patterns themselves for an operator's rule. */
  name: string;
  /** `*.google.com` (any name under it) or `mx.example.net` (that name only), lower case. */
  patterns: string[];
  /** Messages per minute; 0: no limit. */
  perMinute: number;
}

/**
 * The built-in rates of the large mailbox providers, by their MX names. None of them publishes
 * an inbound rate (Gmail, https://support.google.com/mail/answer/81126: "increase sending
 * volume slowly"; Yahoo, https://senders.yahooinc.com/best-practices; Microsoft,
 * https://sendersupport.olc.protection.outlook.com/pm/policies.aspx; Apple,
 * https://support.apple.com/en-us/102322), and each throttles a sender that exceeds what its
 * reputation allows with 421 / 4.7.x replies. The figure is the last day of the conservative
 * 30-day warm-up of a new sending address that KumoMTA ships (`policy-extras/warmup.toml`:
 * 175,000 messages a day, spread over its 12 active sending hours, about 240 a minute), so a
 * new service stays inside what a warmed-up address may send; Apple, a smaller receiver whose
 * published guidance is the strictest (KumoMTA's shaping: 5 messages per connection), gets half.
 * An operator with an established reputation raises them (`SMTP_DESTINATION_RATES`).
 * Microsoft's consumer (`*.olc.protection.outlook.com`) and Microsoft 365
 * (`*.mail.protection.outlook.com`) MX hosts are separate edge groups, each with its own pace.
 */
export const PROVIDER_RATES: readonly RateRule[] = [
  { name: 'google', patterns: ['*.google.com', '*.googlemail.com'], perMinute: 240 },
  { name: 'outlook', patterns: ['*.olc.protection.outlook.com'], perMinute: 240 },
  { name: 'microsoft365', patterns: ['*.mail.protection.outlook.com', '*.mx.microsoft'], perMinute: 240 },
  { name: 'yahoo', patterns: ['*.yahoodns.net'], perMinute: 240 },
  { name: 'apple', patterns: ['*.mail.icloud.com'], perMinute: 120 },
];

/** A message whose turn is this far off or nearer waits for it; a later one is put back. */
export const MAX_WAIT_MS = 2_000;
/** After 421s a pace slows down to one message a minute at the slowest (KumoMTA's throttle)… */
export const SLOWEST_MS = 60_000;
/** …and steps back towards its configured rate after this long without another. */
export const RECOVER_MS = 60_000;

/** Rates the large providers' MX hosts are paced at ({@link PROVIDER_RATES}) and the default. */
export interface DestinationRates {
  /** Messages per minute to each MX address no rule matches (0: no limit). */
  defaultPerMinute: number;
  rules: RateRule[];
}

/**
 * `SMTP_DESTINATION_RATES` read over the built-in rules: comma-separated `target=N` entries, N
 * messages a minute (0: no limit), where the target is a provider's name (`google=600`
 * replaces its built-in rate) or MX host patterns joined by `|` (`*.mx.example.net=60`, one
 * pace for all of them). Throws a `RangeError` naming the wrong entry.
 */
export function parseDestinationRates(text: string | undefined, defaultPerMinute: number): DestinationRates {
  const rules = PROVIDER_RATES.map((rule) => ({ ...rule, patterns: [...rule.patterns] }));
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const match = /^([^=\s]+)\s*=\s*(\d{1,7})$/.exec(entry);
    if (!match)
      throw new RangeError(
        `"${entry}" is not target=messages-per-minute (such as google=600 or *.mx.example.net=60)`,
      );
    const target = match[1]!.toLowerCase();
    const perMinute = Number(match[2]);
    const provider = rules.find((rule) => rule.name === target);
    if (provider) {
      provider.perMinute = perMinute;
      continue;
    }
    const patterns = target.split('|');
    for (const pattern of patterns) {
      if (!/^(\*\.)?([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?\.)+[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/.test(pattern))
        throw new RangeError(
          `"${pattern}" in "${entry}" is neither a provider (${PROVIDER_RATES.map((r) => r.name).join(', ')}) nor an MX host name or *.pattern`,
        );
    }
    // an operator's rule is tried before the built-in ones: it may name a part of a provider
    rules.unshift({ name: target, patterns, perMinute });
  }
  return { defaultPerMinute, rules };
}

/** Whether `host` (an MX name) is one `pattern` names. */
function matches(pattern: string, host: string): boolean {
  return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
}

/** What {@link DestinationPace.take} decided for one message. */
export type Turn = { go: true; waitMs: number } | { go: false; retryAt: number; rule: string };

interface Pace {
  /** The configured spacing. */
  baseMs: number;
  /** The spacing now: the configured one, or longer after 421s. */
  intervalMs: number;
  /** The last 421 (or the last step back towards the configured pace). */
  slowedAt: number;
  /** The earliest time the next message may go (GCRA's theoretical arrival time). */
  next: number;
  /** The latest turn given to a message put back (so that they come back one by one). */
  booked: number;
}

/** The paces of one process, by rule and by MX address. */
export class DestinationPace {
  private readonly paces = new Map<string, Pace>();

  constructor(private readonly rates: DestinationRates) {}

  /**
   * A turn for one message to `host` at `address`: go now, go after `waitMs` (its turn is
   * reserved), or come back at `retryAt` (nothing reserved: it takes its turn again then).
   */
  take(host: string, address: string, now: number): Turn {
    const rule = this.ruleOf(host);
    const perMinute = rule ? rule.perMinute : this.rates.defaultPerMinute;
    if (perMinute === 0) return { go: true, waitMs: 0 };
    const key = rule ? `rule:${rule.name}` : `mx:${address}`;
    let pace = this.paces.get(key);
    if (pace === undefined) {
      this.sweep(now);
      const baseMs = 60_000 / perMinute;
      pace = { baseMs, intervalMs: baseMs, slowedAt: 0, next: now, booked: Number.NEGATIVE_INFINITY };
      this.paces.set(key, pace);
    }
    // a minute without a 421: one step back towards the configured pace
    if (pace.intervalMs > pace.baseMs && now - pace.slowedAt >= RECOVER_MS) {
      pace.intervalMs = Math.max(pace.baseMs, pace.intervalMs / 2);
      pace.slowedAt = now;
    }
    const at = Math.max(pace.next, now);
    if (at - now <= MAX_WAIT_MS) {
      pace.next = at + pace.intervalMs;
      return { go: true, waitMs: at - now };
    }
    // Put back for a turn of its own after the ones already given, at most one per interval.
    pace.booked = Math.max(pace.booked + pace.intervalMs, at - MAX_WAIT_MS);
    return { go: false, retryAt: Math.ceil(pace.booked), rule: rule?.name ?? address };
  }

  /**
   * The destination answered 421 (RFC 5321 §3.8: too much now; Gmail's 4.7.28 "unusual rate",
   * Yahoo's TSS04): a paced destination's spacing doubles, up to one message a minute, and comes
   * back one halving per minute without another. A destination without a pace is slowed by its
   * sessions alone (`smtp-sessions.ts`).
   */
  slowDown(host: string, address: string, now: number): void {
    const rule = this.ruleOf(host);
    const pace = this.paces.get(rule ? `rule:${rule.name}` : `mx:${address}`);
    if (pace === undefined) return;
    pace.intervalMs = Math.min(SLOWEST_MS, Math.max(pace.intervalMs, pace.intervalMs * 2));
    pace.slowedAt = now;
  }

  private ruleOf(host: string): RateRule | undefined {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.rates.rules.find((r) => r.patterns.some((p) => matches(p, name)));
  }

  /** Forget paces with no turn given in the future, once there are many (one per MX address). */
  private sweep(now: number): void {
    if (this.paces.size < 10_000) return;
    for (const [key, pace] of this.paces) if (pace.next <= now && pace.booked <= now) this.paces.delete(key);
  }
}
