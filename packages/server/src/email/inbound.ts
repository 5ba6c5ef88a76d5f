/**
 * The inbound SMTP listener (issue 34, `SMTP_LISTEN`): where return paths' MX (`INBOUND_MX_HOST`)
 * sends bounces (DSNs) and complaints (ARF reports). Built on `smtp-server` (Nodemailer's
 * maintained SMTP server) and read with mailparser (`feedback-report.ts`).
 *
 * It takes mail only for live return-path addresses: an address whose MAC is ours and whose
 * recipient exists (`return-path.ts`), and the `mailto:` unsubscribe addresses beside them. Everything else is refused at RCPT with 550 5.1.1, so it
 * is never a relay, and a forged or altered address changes nothing (and is logged). Size,
 * connections (in all and per client address), transactions per client address and minute,
 * and recipients per message are bounded. State
 * lives in the database: any process may take a report about any other process's message.
 */
import type { Readable } from 'node:stream';
import type { SMTPServerAddress, SMTPServerSession } from 'smtp-server';
import type { HostPort } from '../config.js';
import type { Feedback } from '../store/emails/types.js';
import { readFeedbackReport } from './feedback-report.js';
import { type ReturnPathPurpose, readReturnPath } from './return-path.js';

export interface InboundOptions {
  listen: HostPort;
  /** The name in our greeting and EHLO answer (`INBOUND_MX_HOST`). */
  hostName: string;
  /** The return-path MAC key (`return-path.ts`). */
  key: () => Buffer;
  /** Whether a recipient id names a recipient we sent to. */
  recipientExists: (recipientId: string) => Promise<boolean>;
  /** Whether a domain is a verified return path (mail to any address there is taken). */
  isReturnPathDomain: (domain: string) => Promise<boolean>;
  /** The recipient a report names by its original message and address (`postmaster@` mail). */
  recipientOf: (emailId: string, address: string | null) => Promise<string | undefined>;
  /** Record what came back; `false` when the recipient is gone. */
  record: (recipientId: string, feedback: Feedback) => Promise<boolean>;
  /** Mail to a List-Unsubscribe `mailto:` address: suppress the recipient for its stream. */
  unsubscribe: (recipientId: string) => Promise<boolean>;
  /** A report's size limit; bigger ones are refused at DATA (552). */
  maxBytes: number;
  log: {
    info: (fields: object, message: string) => void;
    warn: (fields: object, message: string) => void;
  };
}

export interface InboundListener {
  readonly address: { host: string; port: number };
  close(): Promise<void>;
}

/** Connections at once, in all and from one client address. */
const MAX_CLIENTS = 100;
const MAX_PER_CLIENT = 5;
/** Recipients in one transaction: one report names one return-path address. */
const MAX_RECIPIENTS = 10;
/**
 * Transactions one client address may open a minute (100 a second, above what one process
 * records: 69/s on SQLite). A big receiver's bounce burst after a
 * campaign stays under it; more waits (421: the sending MTA retries), so no one client can fill
 * the database's write queue.
 */
const MAX_PER_CLIENT_MINUTE = 6_000;

/**
 * What one accepted recipient address names: a recipient (a VERP address), or nothing yet (an
 * address such as `postmaster@` of a return-path domain, RFC 5321 §4.5.1): the report's
 * original `Message-ID` says which message then.
 */
type Named = { recipientId: string; purpose: ReturnPathPurpose } | { recipientId: null; purpose: 'bounce' };

/** An SMTP reply for a refusal, as smtp-server takes it from a callback's error. */
function reply(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

export async function startInboundListener(options: InboundOptions): Promise<InboundListener> {
  // loaded here: a process without SMTP_LISTEN never needs it
  const { SMTPServer } = await import('smtp-server');
  const perClient = new Map<string, number>();
  const perMinute = new Map<string, { start: number; count: number }>();
  /** What each open transaction's recipients name (smtp-server keeps the addresses only). */
  const accepted = new WeakMap<SMTPServerSession, Named[]>();
  const server = new SMTPServer({
    name: options.hostName,
    banner: 'bounces and feedback reports only',
    size: options.maxBytes,
    authOptional: true,
    disabledCommands: ['AUTH'],
    maxClients: MAX_CLIENTS,
    socketTimeout: 60_000,
    closeTimeout: 10_000,
    logger: false,
    onConnect(session, done) {
      const count = perClient.get(session.remoteAddress) ?? 0;
      if (count >= MAX_PER_CLIENT) return done(reply(421, '4.7.0 too many connections from your address'));
      perClient.set(session.remoteAddress, count + 1);
      done();
    },
    onClose(session) {
      const count = (perClient.get(session.remoteAddress) ?? 1) - 1;
      if (count <= 0) perClient.delete(session.remoteAddress);
      else perClient.set(session.remoteAddress, count);
    },
    onMailFrom(_address, session, done) {
      const now = Date.now();
      const window = perMinute.get(session.remoteAddress);
      if (window === undefined || now - window.start >= 60_000) {
        // the map holds the clients of the last minute only
        if (perMinute.size > 10_000) perMinute.clear();
        perMinute.set(session.remoteAddress, { start: now, count: 1 });
      } else if (++window.count > MAX_PER_CLIENT_MINUTE) {
        return done(reply(421, '4.7.0 too many reports from your address this minute; try again later'));
      }
      accepted.set(session, []);
      done();
    },
    onRcptTo(address: SMTPServerAddress, session, done) {
      const ids = accepted.get(session) ?? [];
      if (ids.length >= MAX_RECIPIENTS) return done(reply(452, '4.5.3 too many recipients'));
      const named = readReturnPath(options.key(), address.address);
      const refuse = (why: string) => {
        options.log.warn(
          { client: session.remoteAddress, recipient: address.address.slice(0, 200), why },
          'inbound mail refused at RCPT',
        );
        done(reply(550, '5.1.1 no such address here; this server takes only reports about our own mail'));
      };
      if (named === undefined) {
        const domain = address.address.slice(address.address.lastIndexOf('@') + 1);
        options.isReturnPathDomain(domain).then(
          (ours) => {
            if (!ours) return refuse('not one of our return-path addresses');
            ids.push({ recipientId: null, purpose: 'bounce' });
            accepted.set(session, ids);
            done();
          },
          () => done(reply(451, '4.3.0 try again later')),
        );
        return;
      }
      options.recipientExists(named.recipientId).then(
        (exists) => {
          if (!exists) return refuse('the message it names is gone');
          ids.push(named);
          accepted.set(session, ids);
          done();
        },
        () => done(reply(451, '4.3.0 try again later')),
      );
    },
    onData(stream: Readable, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if ((stream as Readable & { sizeExceeded?: boolean }).sizeExceeded)
          return done(reply(552, `5.3.4 a report may hold at most ${options.maxBytes} bytes`));
        const ids = accepted.get(session) ?? [];
        take(Buffer.concat(chunks), ids, session).then(
          () => done(null, '2.0.0 report taken'),
          (error: unknown) => {
            options.log.warn(
              { err: String(error) },
              'inbound report could not be recorded; the sender will retry',
            );
            done(reply(451, '4.3.0 try again later'));
          },
        );
      });
    },
  });

  async function take(raw: Buffer, named: Named[], session: SMTPServerSession): Promise<void> {
    // Mail to a List-Unsubscribe mailto: address is the request itself, whatever it says.
    for (const { recipientId } of named.filter((n) => n.purpose === 'unsubscribe')) {
      await options.unsubscribe(recipientId!);
      options.log.info({ client: session.remoteAddress, recipient: recipientId }, 'unsubscribed by mail');
    }
    const reports = named.filter((n) => n.purpose === 'bounce');
    if (reports.length === 0) return;
    const report = await readFeedbackReport(raw);
    const recipientIds = [
      ...new Set(reports.flatMap((n) => (n.recipientId === null ? [] : [n.recipientId]))),
    ];
    if (recipientIds.length === 0) {
      // At an address that names no recipient: the original message's id (ours: `<eml_…@domain>`)
      // and the address the report is about say which.
      const emailId = /^(eml_[a-z2-7]{20})@/.exec(report.originalMessageId ?? '')?.[1];
      const found =
        emailId && report.kind !== 'none' ? await options.recipientOf(emailId, report.recipient) : undefined;
      if (found === undefined) {
        options.log.info(
          { client: session.remoteAddress, kind: report.kind, originalMessageId: report.originalMessageId },
          'inbound report names no message of ours',
        );
        return;
      }
      recipientIds.push(found);
    }
    const fields = { client: session.remoteAddress, recipients: recipientIds, kind: report.kind };
    if (report.kind === 'none' || (report.kind === 'bounce' && report.action === 'delayed')) {
      options.log.info(
        { ...fields, why: report.kind === 'none' ? report.why : 'delayed' },
        'inbound report: nothing to record',
      );
      return;
    }
    const feedback: Feedback =
      report.kind === 'bounce'
        ? {
            kind: 'bounce',
            bounce: report.bounce,
            diagnostic: report.diagnostic,
            mxHost: report.reportingMta,
          }
        : { kind: 'complaint', feedbackType: report.feedbackType };
    for (const id of recipientIds) await options.record(id, feedback);
    options.log.info(
      {
        ...fields,
        ...(report.kind === 'bounce' && { bounceType: report.bounce.type, status: report.bounce.status }),
      },
      'inbound report recorded',
    );
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen.port, options.listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => options.log.warn({ err: String(error) }, 'inbound SMTP error'));
  const bound = server.server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : options.listen.port;
  return {
    address: { host: options.listen.host, port },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
