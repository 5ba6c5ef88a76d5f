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
import type nodemailer from 'nodemailer';
import { lazy } from '../lazy.js';
import { type BounceClass, classifyRefusal, replyText } from './bounce.js';
import type { FindMailHosts } from './mx.js';

/** Loaded with the first message: a process that never sends never needs it. */
const loadNodemailer = lazy(() => import('nodemailer'));

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; direct delivery to MX hosts when absent. */
  relayUrl: URL | undefined;
  /** PEM certificates the relay's certificate may chain to, beside the system's. */
  relayCa: string | undefined;
  /** Port of MX hosts (25; tests may move it). */
  mxPort: number;
  /** The name this service gives in EHLO. */
  heloName: string;
  timeoutMs: number;
}

export type SmtpResult =
  | { kind: 'sent'; code: number | null; text: string; host: string; viaRelay: boolean }
  | {
      kind: 'temporary' | 'permanent';
      code: number | null;
      text: string;
      host: string | null;
      /** What a refusal says about the address; for a temporary one, always `soft`. */
      bounce: BounceClass;
      /** Where it failed: at the greeting, in the TLS handshake, or later. */
      stage?: 'greeting' | 'tls';
    };

export async function sendOnce(
  settings: SmtpSettings,
  findHosts: FindMailHosts,
  envelope: { from: string; to: string },
  message: Buffer,
): Promise<SmtpResult> {
  if (settings.relayUrl) return viaRelay(settings, envelope, message);
  const { default: nodemailer } = await loadNodemailer();
  const domain = envelope.to.slice(envelope.to.lastIndexOf('@') + 1);
  const route = await findHosts(domain);
  if (!route.ok) {
    return {
      kind: route.permanent ? 'permanent' : 'temporary',
      code: null,
      text: route.reason,
      host: null,
      bounce: classifyRefusal(null, route.reason, route.status),
    };
  }
  let last: SmtpResult | undefined;
  for (const { host, addresses } of route.hosts) {
    for (const address of addresses) {
      const once = async (tls: boolean) => {
        const transport = nodemailer.createTransport({
          host: address,
          port: settings.mxPort,
          secure: false,
          name: settings.heloName,
          // Clear text only after a failed handshake: opportunistic TLS (RFC 7435), as Postfix's
          // level `may` does, since no policy (MTA-STS, DANE) asks for TLS here.
          ...(tls ? { tls: { servername: host, rejectUnauthorized: false } } : { ignoreTLS: true }),
          ...timeouts(settings.timeoutMs),
        });
        try {
          return await attempt(transport, envelope, message, host, false);
        } finally {
          transport.close();
        }
      };
      let result = await once(true);
      if (result.kind !== 'sent' && result.stage === 'tls') result = await once(false);
      if (result.kind === 'sent') return result;
      // A host that refuses at its greeting (421 busy, 554 no service) or gives no answer at
      // all is skipped for the next, as Postfix's smtp_skip_4xx_greeting and
      // smtp_skip_5xx_greeting do; an answer to the transaction itself ends the attempt.
      if (result.stage !== 'greeting' && result.code !== null) return result;
      last = result;
    }
  }
  // Every host refused to talk: try again later, never a bounce for a 5xx greeting alone.
  return last!.kind === 'permanent'
    ? { ...last!, kind: 'temporary', bounce: { type: 'soft', status: null } }
    : last!;
}

async function viaRelay(
  settings: SmtpSettings,
  envelope: { from: string; to: string },
  message: Buffer,
): Promise<SmtpResult> {
  const url = settings.relayUrl!;
  const secure = url.protocol === 'smtps:';
  const { default: nodemailer } = await loadNodemailer();
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    // Credentials never travel in clear: without STARTTLS the relay is refused.
    requireTLS: !secure,
    name: settings.heloName,
    ...(url.username && {
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
    }),
    ...(settings.relayCa && { tls: { ca: settings.relayCa } }),
    ...timeouts(settings.timeoutMs),
  });
  try {
    return await attempt(transport, envelope, message, url.hostname, true);
  } finally {
    transport.close();
  }
}

const timeouts = (ms: number) => ({ connectionTimeout: ms, greetingTimeout: ms, socketTimeout: ms });

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

async function attempt(
  transport: nodemailer.Transporter,
  envelope: { from: string; to: string },
  message: Buffer,
  host: string,
  relay: boolean,
): Promise<SmtpResult> {
  try {
    const info = await transport.sendMail({
      envelope: { from: envelope.from, to: [envelope.to] },
      raw: message,
    });
    const code = Number(/^\d{3}/.exec(info.response ?? '')?.[0]) || null;
    return { kind: 'sent', code, text: info.response ?? '', host, viaRelay: relay };
  } catch (error) {
    const e = error as SmtpError;
    const code = typeof e.responseCode === 'number' ? e.responseCode : null;
    const text = replyText(code, e.response ?? e.message).slice(0, 500);
    // Authentication and TLS problems of a relay are its configuration: retried, never a bounce.
    const permanent = code !== null && code >= 500 && code < 600 && e.code !== 'EAUTH';
    // A handshake that fails surfaces as ETLS, or as a socket error carrying OpenSSL's words.
    const tls = e.code === 'ETLS' || e.command === 'STARTTLS' || /\bSSL routines\b/.test(e.message);
    const stage = tls
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
}
