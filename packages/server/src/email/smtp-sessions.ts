/**
 * SMTP sessions to MX hosts, kept open and reused as an MTA does (issue 35): one destination is
 * one MX address (with its port and TLS mode), so the many domains a mailbox provider serves
 * from the same hosts share their sessions (KumoMTA's "MX rollup"). Per destination:
 *
 * - at most `perDestination` sessions at once; more transactions wait for one to come free,
 *   instead of opening a session each (receivers throttle and block senders that do that).
 *   A destination starts at {@link INITIAL_SESSIONS} and earns more as Postfix's concurrency
 *   feedback does: +1/n per message accepted, −1/n per failure of the host itself (no
 *   connection, a refusing greeting, a silence), halved by a 421, never under one; after
 *   {@link PAUSE_AFTER_FAILURES} such failures in a row the destination is paused;
 * - a session carries up to `messagesPerSession` transactions, one after another (RSET after
 *   a refused one), then ends with QUIT;
 * - an idle session ends with QUIT after {@link IDLE_MS} (Postfix's
 *   `smtp_connection_cache_time_limit`), and every idle session at `close()`.
 *
 * Timeouts follow RFC 5321 §4.5.3.2 in two parts: `timeoutMs` for the connection, the greeting
 * and every command, and `dataDoneTimeoutMs` (10 minutes by default, the RFC's) for the reply to
 * the final ".", which content scanners can take long to give: a shorter wait there sends a
 * copy the server already has.
 *
 * The client is nodemailer's `SMTPConnection` (EHLO, STARTTLS, pipelining, dot-stuffing).
 */
import { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import type SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';
import { lazy } from '../lazy.js';

/** Loaded with the first message: a process that never sends never needs it. */
const loadConnection = lazy(async () => (await import('nodemailer/lib/smtp-connection/index.js')).default);

/** Sessions a destination may have at first (Postfix: `initial_destination_concurrency`, 5). */
export const INITIAL_SESSIONS = 5;

/**
 * A destination whose host failed this many times in a row is paused: its transactions fail at
 * once (the next MX is tried, or the recipient deferred) instead of each trying the host again,
 * first for {@link FIRST_PAUSE_MS}, doubled with each further failure up to {@link MAX_PAUSE_MS}.
 * Postfix marks such a destination dead in the same way.
 */
export const PAUSE_AFTER_FAILURES = 3;
export const FIRST_PAUSE_MS = 30_000;
export const MAX_PAUSE_MS = 600_000;
/** Destinations kept before idle ones are forgotten (see `sweep`). */
const SWEEP_AT = 10_000;
/** The `code` of a transaction refused because its destination is paused. */
export const PAUSED = 'EPAUSED';

/** An idle session is ended after this long (Postfix: `smtp_connection_cache_time_limit`, 2 s). */
export const IDLE_MS = 2_000;

export interface SessionLimits {
  /** Sessions open at once to one destination. */
  perDestination: number;
  /** Transactions one session carries before it ends. */
  messagesPerSession: number;
}

export interface Destination {
  /** The host's name: TLS's server name (SNI). */
  host: string;
  /** The address (or a relay's name) connected to: with `port` and `tls`, the destination. */
  address: string;
  port: number;
  /**
   * `may`: STARTTLS when offered, certificate unchecked (an MX, RFC 7435); `none`: clear text
   * (after a failed handshake); `verify`: STARTTLS or nothing, the certificate checked against
   * the system's CAs (and {@link SessionSettings.ca}) and the MX name (an enforced MTA-STS
   * policy); `require`: the same for a relay on 587 (its own `ca`); `implicit`: TLS from the
   * start (a relay on 465).
   */
  tls: 'may' | 'none' | 'verify' | 'require' | 'implicit';
  /** PEM certificates a relay's certificate may chain to, beside the system's. */
  ca?: string;
  /** A relay's credentials (sent only over TLS). */
  auth?: { user: string; pass: string };
}

/** What {@link SmtpSessions.stats} counts. */
export interface SessionStats {
  busy: number;
  idle: number;
  /** Destinations holding at least one session. */
  destinations: number;
  /** The most sessions one destination holds. */
  mostPerDestination: number;
  /** Destinations no session is tried to, after failures in a row. */
  paused: number;
}

export interface SessionSettings {
  heloName: string;
  timeoutMs: number;
  dataDoneTimeoutMs: number;
  limits: SessionLimits;
  /** PEM certificates a `verify` destination's certificate may chain to, beside the system's. */
  ca?: string;
}

/** What a transaction's failure looked like, as nodemailer reports it. */
export interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

export type TransactionResult =
  | { ok: true; response: string; reused: boolean }
  | {
      ok: false;
      error: SmtpError;
      /**
       * The whole message was handed over and no reply came (a timeout, a dropped
       * connection): the server may have accepted it.
       */
      afterData: boolean;
    };

interface Session {
  connection: SMTPConnection;
  transactions: number;
  idleTimer?: NodeJS.Timeout;
  /** The connection is over (ended by either side). */
  ended: boolean;
  /** Counted out of its destination's open sessions. */
  retired: boolean;
}

interface DestinationState {
  open: number;
  /** Failures of the host in a row (no connection, a refusing greeting, a silence, 421). */
  failures: number;
  /** No session is tried before this time (ms since the epoch). */
  pausedUntil: number;
  lastFailure: string;
  /** Sessions allowed now, between 1 and `perDestination` (a fraction counts as its floor). */
  window: number;
  idle: Session[];
  waiting: Array<() => void>;
}

export class SmtpSessions {
  private readonly destinations = new Map<string, DestinationState>();
  /** The number of destinations at which idle ones are next forgotten. */
  private sweepAt = SWEEP_AT;
  private closed = false;

  constructor(private readonly settings: SessionSettings) {}

  /** One transaction to `destination`, on an idle session of its own or a new one. */
  async transaction(
    destination: Destination,
    envelope: { from: string; to: string },
    message: Buffer,
  ): Promise<TransactionResult> {
    const key = `${destination.address}|${destination.port}|${destination.tls}|${destination.auth?.user ?? ''}`;
    const state = this.stateOf(key);
    for (let fresh = false; ; fresh = true) {
      let session: Session;
      try {
        session = await this.acquire(state, destination, fresh);
      } catch (error) {
        // A failed handshake is the host's TLS, not the host: the caller may go on in clear.
        const code = (error as SmtpError).code;
        if (code !== PAUSED && code !== 'ETLS') this.hostFailed(state, error as SmtpError);
        return { ok: false, error: error as SmtpError, afterData: false };
      }
      const reused = session.transactions > 0;
      const result = await this.send(session, envelope, message);
      session.transactions++;
      if (result.ok) {
        this.feedback(state, +1);
        this.release(state, session, true);
        return { ...result, reused };
      }
      const answered = typeof result.error.responseCode === 'number' && result.error.command !== 'CONN';
      // A kept session the server had closed meanwhile fails before any reply: nothing of
      // the message was sent, so a new session is tried once.
      const again = reused && !answered && !result.bodyStarted && !fresh;
      // A silence, a drop, or 421 (the server closing the channel) is the host's failure; a
      // refusal of this message or recipient is not.
      if (!again && (!answered || result.error.responseCode === 421)) this.hostFailed(state, result.error);
      // A refusal leaves the session usable once reset; a silence or a drop does not.
      this.release(state, session, answered && (await this.reset(session)));
      if (again) continue;
      return { ok: false, error: result.error, afterData: result.afterData };
    }
  }

  /**
   * The sessions held now, for the metrics (issue 39): in use and idle, the destinations with
   * any, the most any one destination holds, and the destinations paused after failures. A
   * destination is never a metric label (MX hosts are unbounded); these sums say as much.
   */
  stats(now = Date.now()): SessionStats {
    const stats = { busy: 0, idle: 0, destinations: 0, mostPerDestination: 0, paused: 0 };
    for (const state of this.destinations.values()) {
      stats.busy += state.open - state.idle.length;
      stats.idle += state.idle.length;
      if (state.open > 0) stats.destinations += 1;
      stats.mostPerDestination = Math.max(stats.mostPerDestination, state.open);
      if (state.pausedUntil > now) stats.paused += 1;
    }
    return stats;
  }

  /** QUIT every idle session; sessions in use end when their transaction does. */
  async close(): Promise<void> {
    this.closed = true;
    const ending: Promise<void>[] = [];
    for (const state of this.destinations.values()) {
      for (const session of state.idle.splice(0)) ending.push(this.end(state, session));
    }
    await Promise.all(ending);
  }

  private stateOf(key: string): DestinationState {
    let state = this.destinations.get(key);
    if (state === undefined) {
      if (this.destinations.size >= this.sweepAt) this.sweep();
      state = {
        open: 0,
        failures: 0,
        pausedUntil: 0,
        lastFailure: '',
        window: Math.min(INITIAL_SESSIONS, this.settings.limits.perDestination),
        idle: [],
        waiting: [],
      };
      this.destinations.set(key, state);
    }
    return state;
  }

  private async acquire(state: DestinationState, destination: Destination, fresh: boolean): Promise<Session> {
    for (;;) {
      const now = Date.now();
      if (now < state.pausedUntil) {
        const seconds = Math.ceil((state.pausedUntil - now) / 1000);
        throw Object.assign(
          new Error(
            `${destination.host} [${destination.address}] is paused for ${seconds} s after ${state.failures} failures in a row (the last: ${state.lastFailure})`,
          ),
          { code: PAUSED },
        );
      }
      if (!fresh) {
        const idle = state.idle.pop();
        if (idle) {
          clearTimeout(idle.idleTimer);
          return idle;
        }
      }
      if (state.open < Math.floor(state.window)) {
        state.open++;
        // a failed connection is counted out (retired) by connect() itself
        return await this.connect(state, destination);
      }
      await new Promise<void>((resolve) => state.waiting.push(resolve));
    }
  }

  private async connect(state: DestinationState, destination: Destination): Promise<Session> {
    const SMTPConnection = await loadConnection();
    const s = this.settings;
    const tls = destination.tls;
    // Certificates beside the system's (Node's `ca` alone would replace them): the test CA of
    // MX hosts under MTA-STS, a private relay's own.
    const extraCa = tls === 'verify' ? s.ca : destination.ca;
    const connection = new SMTPConnection({
      host: destination.address,
      port: destination.port,
      secure: tls === 'implicit',
      name: s.heloName,
      ...(tls === 'none' && { ignoreTLS: true }),
      ...((tls === 'require' || tls === 'verify') && { requireTLS: true }),
      tls:
        tls === 'may'
          ? // MX hosts rarely hold a certificate for their MX name; encryption still beats none
            { servername: destination.host, rejectUnauthorized: false }
          : {
              servername: destination.host,
              rejectUnauthorized: true,
              ...(extraCa && { ca: [...rootCertificates, extraCa] }),
            },
      connectionTimeout: s.timeoutMs,
      greetingTimeout: s.timeoutMs,
      socketTimeout: s.timeoutMs,
      logger: false,
    });
    const session: Session = { connection, transactions: 0, ended: false, retired: false };
    // A session the server ends (its own idle timeout) leaves the pool and frees its place.
    const gone = () => {
      session.ended = true;
      this.retire(state, session);
    };
    connection.on('error', gone);
    connection.on('end', gone);
    // nodemailer reports a failed connection (refused, silent, a 4xx/5xx greeting, a failed
    // handshake) as an `error` event, never to connect()'s callback.
    await new Promise<void>((resolve, reject) => {
      const failed = (error: SmtpError) => {
        // A certificate refused mid-STARTTLS comes as a socket error (ESOCKET): it is TLS's.
        if ((connection as { upgrading?: boolean }).upgrading) error.code = 'ETLS';
        session.ended = true;
        this.retire(state, session);
        connection.close();
        reject(error);
      };
      connection.once('error', failed);
      connection.connect(() => {
        if (!destination.auth) {
          connection.off('error', failed);
          resolve();
          return;
        }
        connection.login(destination.auth, (error) => {
          connection.off('error', failed);
          if (error) failed(error);
          else resolve();
        });
      });
    });
    return session;
  }

  private send(
    session: Session,
    envelope: { from: string; to: string },
    message: Buffer,
  ): Promise<
    { ok: true; response: string } | { ok: false; error: SmtpError; afterData: boolean; bodyStarted: boolean }
  > {
    const { connection } = session;
    // RFC 6531 §3.2: a non-ASCII address goes only to a server that offers SMTPUTF8; elsewhere
    // it is a refusal of this recipient (nodemailer would send it regardless).
    if (/[^\p{ASCII}]/u.test(envelope.from + envelope.to) && !offers(connection, 'SMTPUTF8')) {
      const response = `553 5.6.7 ${envelope.to}: the server does not offer SMTPUTF8, which an address with non-ASCII characters needs (RFC 6531)`;
      const error: SmtpError = Object.assign(new Error(response), {
        responseCode: 553,
        response,
        command: 'MAIL FROM',
      });
      return Promise.resolve({ ok: false, error, afterData: false, bodyStarted: false });
    }
    let bodyStarted = false;
    let afterData = false;
    const body = new Readable({
      read() {
        bodyStarted = true;
        this.push(message);
        this.push(null);
      },
    });
    // Once the whole message is handed over, the wait is for the final reply: RFC 5321 gives
    // it 10 minutes (§4.5.3.2.6), longer than any other.
    body.once('end', () => {
      afterData = true;
      connection._socket?.setTimeout(this.settings.dataDoneTimeoutMs);
    });
    return new Promise((resolve) => {
      // A silence or a drop mid-transaction is an `error` event (or the end) of the connection,
      // never the callback of send().
      const lost = (error?: SmtpError) => {
        settle({
          ok: false,
          error: error ?? Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' }),
          afterData,
          bodyStarted,
        });
      };
      const settle = (result: Parameters<typeof resolve>[0]) => {
        connection.off('error', lost);
        connection.off('end', lost);
        connection._socket?.setTimeout(this.settings.timeoutMs);
        resolve(result);
      };
      connection.once('error', lost);
      connection.once('end', lost);
      connection.send({ from: envelope.from, to: [envelope.to] }, body, (error, info) => {
        if (error) settle({ ok: false, error, afterData: false, bodyStarted });
        else settle({ ok: true, response: info.response ?? '' });
      });
    });
  }

  /** RSET after a refused transaction: resolves to whether the session can carry another. */
  private reset(session: Session): Promise<boolean> {
    if (session.ended) return Promise.resolve(false);
    const { connection } = session;
    return new Promise((resolve) => {
      // no answer to RSET is an `error` event (a timeout) or the end, never reset()'s callback
      const lost = () => done(false);
      const done = (ok: boolean) => {
        connection.off('error', lost);
        connection.off('end', lost);
        resolve(ok);
      };
      connection.once('error', lost);
      connection.once('end', lost);
      connection.reset((error) => done(!error));
    });
  }

  private release(state: DestinationState, session: Session, reusable: boolean): void {
    const keep =
      reusable &&
      !this.closed &&
      !session.ended &&
      session.transactions < this.settings.limits.messagesPerSession;
    if (!keep) {
      void this.end(state, session);
      return;
    }
    session.idleTimer = setTimeout(() => void this.end(state, session), IDLE_MS);
    session.idleTimer.unref();
    state.idle.push(session);
    state.waiting.shift()?.();
  }

  /** QUIT (or close a session already over), and count it out of its destination. */
  private end(state: DestinationState, session: Session): Promise<void> {
    const { connection } = session;
    const quitting = !session.ended;
    session.ended = true;
    this.retire(state, session);
    if (!quitting) {
      connection.close();
      return Promise.resolve();
    }
    connection.quit();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        connection.close();
        resolve();
      }, this.settings.timeoutMs);
      timer.unref();
      connection.once('end', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Concurrency feedback: the window grows by 1/window with each accepted message and shrinks
   * as much with each failure of the host, so a healthy MX soon gets `perDestination` sessions
   * and a struggling one fewer, down to one.
   */
  private hostFailed(state: DestinationState, error: SmtpError): void {
    // 421 is the server saying it has too much (RFC 5321 §3.8): one alone halves the sessions
    // at once, as TCP halves its window on a loss; a silence or a refused connection costs the
    // 1/n of Postfix's feedback.
    if (error.responseCode === 421) state.window = Math.max(1, state.window / 2);
    else this.feedback(state, -1);
    state.failures++;
    state.lastFailure = (error.response ?? error.message).slice(0, 200);
    if (state.failures >= PAUSE_AFTER_FAILURES) {
      const pause = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (state.failures - PAUSE_AFTER_FAILURES));
      state.pausedUntil = Date.now() + pause;
      // the transactions waiting for a session learn of the pause now
      for (const wake of state.waiting.splice(0)) wake();
    }
  }

  private feedback(state: DestinationState, sign: 1 | -1): void {
    if (sign > 0) state.failures = 0;
    const max = this.settings.limits.perDestination;
    state.window = Math.min(max, Math.max(1, state.window + sign / state.window));
    // A grown window lets a waiting transaction open a session now.
    if (sign > 0 && state.waiting.length > 0 && state.open < Math.floor(state.window))
      state.waiting.shift()!();
  }

  /**
   * Forget destinations with nothing open, idle or waiting and no pause in force: one kept per
   * MX address ever mailed would grow without end (their earned windows go too, as in
   * Postfix). The next sweep comes when the map has doubled from what is left.
   */
  private sweep(): void {
    const now = Date.now();
    for (const [key, state] of this.destinations)
      if (
        state.open === 0 &&
        state.idle.length === 0 &&
        state.waiting.length === 0 &&
        state.pausedUntil <= now
      )
        this.destinations.delete(key);
    this.sweepAt = Math.max(SWEEP_AT, this.destinations.size * 2);
  }

  /** Out of the idle list and the count of open sessions, once; a waiting transaction goes on. */
  private retire(state: DestinationState, session: Session): void {
    clearTimeout(session.idleTimer);
    const at = state.idle.indexOf(session);
    if (at !== -1) state.idle.splice(at, 1);
    if (session.retired) return;
    session.retired = true;
    state.open--;
    state.waiting.shift()?.();
  }
}

/** Whether the server named `extension` in its EHLO answer (nodemailer keeps the list, untyped). */
function offers(connection: SMTPConnection, extension: string): boolean {
  return (
    (connection as unknown as { _supportedExtensions?: string[] })._supportedExtensions?.includes(
      extension,
    ) ?? false
  );
}
