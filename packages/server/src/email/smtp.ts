/**
 * One SMTP attempt for one recipient, with nodemailer's SMTP transport (a maintained client:
 * EHLO, STARTTLS, AUTH, dot-stuffing, pipelining), in one of two modes:
 *
 * - **relay** (`SMTP_RELAY_URL`): submit to the relay, STARTTLS required before AUTH;
 * - **direct**: to the recipient domain's MX hosts in preference order (`mx.ts`), each address
 *   in turn until one answers the transaction (a host refusing at its greeting is skipped), with
 *   opportunistic STARTTLS (RFC 7435: encrypt when offered, without authenticating the
 *   certificate, which MX hosts rarely have for their MX name; a failed handshake is retried in
 *   clear text on the same host).
 *
 * The answer is classified as RFC 5321 does: 2xx sent, 4xx (and no answer at all) temporary,
 * 5xx permanent, with what the refusal says about the address (`bounce`, `email/bounce.ts`).
 */
import { type BounceClass, classifyRefusal, replyText } from './bounce.js';
import { DestinationPace, type DestinationRates } from './destination-rates.js';
import { type MtaSts, mxMatches } from './mta-sts.js';
import type { FindMailHosts } from './mx.js';
import {
  type Destination,
  type SessionLimits,
  type SessionStats,
  type SmtpError,
  SmtpSessions,
} from './smtp-sessions.js';

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; direct delivery to MX hosts when absent. */
  relayUrl: URL | undefined;
  /** PEM certificates the relay's certificate may chain to, beside the system's. */
  relayCa: string | undefined;
  /** Port of MX hosts (25; tests may move it). */
  mxPort: number;
  /** The name this service gives in EHLO. */
  heloName: string;
  /** The wait for the connection, the greeting and each command's reply. */
  timeoutMs: number;
  /** The wait for the reply to the final "." (RFC 5321 §4.5.3.2.6: 10 minutes). */
  dataDoneTimeoutMs: number;
  /** PEM certificates an MX's certificate may chain to beside the system's (MTA-STS; tests). */
  tlsCa?: string;
  sessions: SessionLimits;
  /** Messages per minute per destination (`destination-rates.ts`); absent: no limit. */
  rates?: DestinationRates;
}

export type SmtpResult =
  | { kind: 'sent'; code: number | null; text: string; host: string; viaRelay: boolean }
  /** Not tried: its destination's pace gives it a turn at `retryAt` (no failure, no attempt). */
  | { kind: 'postponed'; retryAt: number; text: string; host: string }
  | {
      kind: 'temporary' | 'permanent';
      code: number | null;
      text: string;
      host: string | null;
      /** What a refusal says about the address; for a temporary one, always `soft`. */
      bounce: BounceClass;
      /**
       * Where it failed: at the greeting, in the TLS handshake, with no reply once the whole
       * message went (the server may have accepted it), or elsewhere.
       */
      stage?: 'greeting' | 'tls' | 'after-data';
    };

/** What one transaction came to (a pace's turn is decided before any). */
type Attempted = Exclude<SmtpResult, { kind: 'postponed' }>;

/**
 * Delivery over SMTP sessions that are kept and reused (`smtp-sessions.ts`): to the relay, or
 * to each recipient domain's MX hosts.
 */
/** How long a failed opportunistic handshake sends an MX address's mail in clear directly. */
const TLS_FAILURE_KEPT_MS = 3_600_000;

export class SmtpDelivery {
  private readonly sessions: SmtpSessions;
  /** MX addresses whose opportunistic TLS handshake failed, and when (the 10,000 latest). */
  private readonly tlsFailedAt = new Map<string, number>();
  private readonly pace: DestinationPace | undefined;

  constructor(
    private readonly settings: SmtpSettings,
    private readonly findHosts: FindMailHosts,
    /** Recipient domains' MTA-STS policies (RFC 8461); without it, none is honoured. */
    private readonly mtaSts?: MtaSts,
  ) {
    this.sessions = new SmtpSessions({
      heloName: settings.heloName,
      timeoutMs: settings.timeoutMs,
      dataDoneTimeoutMs: settings.dataDoneTimeoutMs,
      limits: settings.sessions,
      ...(settings.tlsCa && { ca: settings.tlsCa }),
    });
    if (settings.rates) this.pace = new DestinationPace(settings.rates);
  }

  /** One attempt for one recipient. */
  async send(envelope: { from: string; to: string }, message: Buffer): Promise<SmtpResult> {
    const relay = this.settings.relayUrl;
    if (relay) return this.viaRelay(relay, envelope, message);
    const domain = envelope.to.slice(envelope.to.lastIndexOf('@') + 1);
    const route = await this.findHosts(domain);
    if (!route.ok) {
      return {
        kind: route.permanent ? 'permanent' : 'temporary',
        code: null,
        text: route.reason,
        host: null,
        bounce: classifyRefusal(null, route.reason, route.status),
      };
    }
    const policy = this.mtaSts ? await this.mtaSts.policyFor(domain) : null;
    const enforced = policy?.mode === 'enforce' ? policy : null;
    const hosts = enforced ? route.hosts.filter((h) => mxMatches(h.host, enforced.mx)) : route.hosts;
    if (hosts.length === 0) {
      const text = `MTA-STS: no MX host of ${domain} (${route.hosts.map((h) => h.host).join(', ')}) is one its enforced policy names (${enforced!.mx.join(', ')})`;
      return { kind: 'temporary', code: null, text, host: null, bounce: { type: 'soft', status: null } };
    }
    // One turn per message, at the destination it goes to first (the most preferred MX): a
    // relay paces itself, and a message that falls back to a later MX is not paced again.
    const first = hosts[0]!;
    const turn = this.pace?.take(first.host, first.addresses[0] ?? first.host, Date.now());
    if (turn && !turn.go) {
      const text = `paced: ${turn.rule} takes its next messages from ${new Date(turn.retryAt).toISOString()} (SMTP_DESTINATION_RATES)`;
      return { kind: 'postponed', retryAt: turn.retryAt, text, host: first.host };
    }
    if (turn && turn.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, turn.waitMs));
    let last: Attempted | undefined;
    for (const { host, addresses } of hosts) {
      for (const address of addresses) {
        const to = { host, address, port: this.settings.mxPort };
        // Under an enforced policy: TLS with a certificate for the MX name, or not this host.
        // Otherwise clear text only after a failed handshake (opportunistic TLS, RFC 7435),
        // and straight away for an hour after one (not a failing handshake per message).
        const clear = !enforced && (this.tlsFailedAt.get(address) ?? 0) > Date.now() - TLS_FAILURE_KEPT_MS;
        let result = await this.attempt(
          { ...to, tls: enforced ? 'verify' : clear ? 'none' : 'may' },
          envelope,
          message,
        );
        if (!enforced && !clear && result.kind !== 'sent' && result.stage === 'tls') {
          this.tlsFailedAt.delete(address);
          this.tlsFailedAt.set(address, Date.now());
          if (this.tlsFailedAt.size > 10_000) this.tlsFailedAt.delete(this.tlsFailedAt.keys().next().value!);
          result = await this.attempt({ ...to, tls: 'none' }, envelope, message);
        }
        if (result.kind === 'sent') return result;
        // "too much now" slows the destination's pace as well as its sessions
        if (result.code === 421) this.pace?.slowDown(host, address, Date.now());
        // A host that refuses at its greeting (421 busy, 554 no service), gives no answer at
        // all, or (under MTA-STS) fails TLS is skipped for the next, as Postfix's
        // smtp_skip_4xx_greeting and smtp_skip_5xx_greeting do; an answer to the transaction
        // itself ends the attempt, and so does a silence after the whole message went (that
        // host may have it already).
        if (
          result.stage === 'after-data' ||
          (result.stage !== 'greeting' && result.stage !== 'tls' && result.code !== null)
        )
          return result;
        last =
          enforced && result.stage === 'tls'
            ? {
                ...result,
                text: `MTA-STS (enforce): no TLS with a valid certificate for ${host}: ${result.text}`,
              }
            : result;
      }
    }
    // Every host refused to talk: try again later, never a bounce for a 5xx greeting alone.
    return last!.kind === 'permanent'
      ? { ...last!, kind: 'temporary', bounce: { type: 'soft', status: null } }
      : last!;
  }

  /** The sessions held now (metrics). */
  sessionStats(): SessionStats {
    return this.sessions.stats();
  }

  /** QUIT the sessions kept open (at stop). */
  close(): Promise<void> {
    return this.sessions.close();
  }

  private viaRelay(url: URL, envelope: { from: string; to: string }, message: Buffer): Promise<SmtpResult> {
    const secure = url.protocol === 'smtps:';
    return this.attempt(
      {
        host: url.hostname,
        address: url.hostname,
        port: Number(url.port) || (secure ? 465 : 587),
        // Credentials never travel in clear: without STARTTLS the relay is refused.
        tls: secure ? 'implicit' : 'require',
        ...(this.settings.relayCa && { ca: this.settings.relayCa }),
        ...(url.username && {
          auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
        }),
      },
      envelope,
      message,
    );
  }

  private async attempt(
    destination: Destination,
    envelope: { from: string; to: string },
    message: Buffer,
  ): Promise<Attempted> {
    const result = await this.sessions.transaction(destination, envelope, message);
    if (result.ok) {
      const code = Number(/^\d{3}/.exec(result.response)?.[0]) || null;
      return {
        kind: 'sent',
        code,
        text: result.response,
        host: destination.host,
        viaRelay: this.settings.relayUrl !== undefined,
      };
    }
    return classify(result.error, destination.host, result.afterData);
  }
}

/** A failed transaction as RFC 5321 classes it: 5xx permanent, anything else temporary. */
function classify(e: SmtpError, host: string, afterData: boolean): Attempted {
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  let text = replyText(code, e.response ?? e.message).slice(0, 500);
  if (afterData)
    text = `no reply to the end of the message (the server may have accepted it; it is sent again): ${text}`;
  // Authentication and TLS problems of a relay are its configuration: retried, never a bounce.
  const permanent = code !== null && code >= 500 && code < 600 && e.code !== 'EAUTH';
  // A handshake that fails surfaces as ETLS, or as a socket error carrying OpenSSL's words.
  const tls = e.code === 'ETLS' || e.command === 'STARTTLS' || /\bSSL routines\b/.test(e.message);
  const stage = afterData
    ? ('after-data' as const)
    : tls
      ? ('tls' as const)
      : e.command === 'CONN' && code !== null
        ? ('greeting' as const)
        : undefined;
  return {
    kind: permanent ? 'permanent' : 'temporary',
    code,
    text,
    host,
    bounce: permanent ? classifyRefusal(code, text) : { type: 'soft', status: null },
    ...(stage && { stage }),
  };
}
