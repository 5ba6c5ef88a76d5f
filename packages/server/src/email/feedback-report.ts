/**
 * What mail to a return path says (issue 34), read with mailparser:
 *
 * - a **delivery status notification** (RFC 3464: `multipart/report; report-type=delivery-status`):
 *   per recipient an `Action` (`failed`, `delayed`, `delivered`, `relayed`, `expanded`), a
 *   `Status` (RFC 3463) and a `Diagnostic-Code`, usually the receiver's SMTP reply;
 * - a **feedback report** (ARF, RFC 5965: `report-type=feedback-report`): a complaint, with its
 *   `Feedback-Type` (`abuse`, `fraud`, `virus`, `other`; `not-spam` is no complaint);
 * - anything else that came back (auto-replies, the odd MTA's own bounce text): a bounce only
 *   when its text carries a permanent enhanced status code, as RFC 3463 writes it.
 *
 * The report's envelope recipient (our VERP address) says which message and recipient it is
 * about; the original `Message-ID`, from the returned headers, is kept as a fallback for
 * reports that reach another address of ours.
 */
import type { ParsedMail } from 'mailparser';
import { lazy } from '../lazy.js';
import { type BounceClass, classifyRefusal } from './bounce.js';

const mailparser = lazy(() => import('mailparser'));

export type FeedbackReport =
  | {
      kind: 'bounce';
      /** `failed` (a bounce) or `delayed` (still being retried: nothing to record). */
      action: 'failed' | 'delayed';
      bounce: BounceClass;
      /** The receiver's words: `Diagnostic-Code` without its type, or the line the status came from. */
      diagnostic: string;
      /** The MTA that wrote the report (`Reporting-MTA`), when it says. */
      reportingMta: string | null;
      /** The address it is about (`Final-Recipient`), when it says. */
      recipient: string | null;
      originalMessageId: string | null;
    }
  | { kind: 'complaint'; feedbackType: string; recipient: string | null; originalMessageId: string | null }
  /** Nothing to act on (an auto-reply, a delivery report, a `not-spam` report), and why. */
  | { kind: 'none'; why: string; originalMessageId: string | null };

/** Reads one message that came to a return path. */
export async function readFeedbackReport(raw: Buffer): Promise<FeedbackReport> {
  // keepDeliveryStatus: the status part as an attachment of its own, not folded into the text
  const { simpleParser } = await mailparser();
  const mail = await simpleParser(raw, {
    keepDeliveryStatus: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
  });
  const reportType = reportTypeOf(mail);
  const part = (type: string) => mail.attachments.find((a) => a.contentType.toLowerCase() === type);
  const originalMessageId = originalId(mail, raw);
  if (reportType === 'feedback-report') {
    const report = part('message/feedback-report');
    const fields = report ? fieldsOf(report.content.toString('utf8')) : new Map<string, string>();
    const feedbackType = fields.get('feedback-type') ?? 'abuse';
    if (feedbackType.toLowerCase() === 'not-spam')
      return { kind: 'none', why: 'a not-spam report', originalMessageId };
    const recipient = addressOf(fields.get('original-rcpt-to'));
    return { kind: 'complaint', feedbackType: feedbackType.toLowerCase(), recipient, originalMessageId };
  }
  if (reportType === 'delivery-status') {
    const status = part('message/delivery-status') ?? part('message/global-delivery-status');
    const [perMessage, ...recipients] = status ? statusBlocks(status.content.toString('utf8')) : [];
    const reportingMta = perMessage?.get('reporting-mta')?.replace(/^[a-z0-9-]+\s*;\s*/i, '') || null;
    // One recipient per report is what VERP gives us; the worst one otherwise.
    const failed = recipients.find((r) => r.get('action')?.toLowerCase() === 'failed');
    const delayed = recipients.find((r) => r.get('action')?.toLowerCase() === 'delayed');
    const chosen = failed ?? delayed;
    if (chosen === undefined)
      return { kind: 'none', why: 'a report of delivery, not failure', originalMessageId };
    const diagnostic = (chosen.get('diagnostic-code') ?? '').replace(/^[a-z0-9-]+\s*;\s*/i, '').trim();
    const statusCode = /^([245])\.\d{1,3}\.\d{1,3}/.exec(chosen.get('status') ?? '')?.[0] ?? null;
    const code = Number(/^\d{3}/.exec(diagnostic)?.[0]) || null;
    return {
      kind: 'bounce',
      action: failed ? 'failed' : 'delayed',
      bounce: classifyRefusal(code, diagnostic, statusCode),
      diagnostic: diagnostic || (chosen.get('status') ?? ''),
      reportingMta,
      recipient: addressOf(chosen.get('final-recipient') ?? chosen.get('original-recipient')),
      originalMessageId,
    };
  }
  // Neither: a bounce written as text. Only a permanent enhanced code in it counts.
  const text = `${mail.subject ?? ''}\n${mail.text ?? ''}`;
  const line = text.split('\n').find((l) => /(?:^|\s)5\.\d{1,3}\.\d{1,3}\b/.test(l));
  if (line === undefined)
    return { kind: 'none', why: 'no report and no permanent status code', originalMessageId };
  const status = /5\.\d{1,3}\.\d{1,3}/.exec(line)![0];
  const code = Number(/\b5\d\d\b/.exec(line)?.[0]) || null;
  return {
    kind: 'bounce',
    action: 'failed',
    bounce: classifyRefusal(code, line.trim(), status),
    diagnostic: line.trim().slice(0, 500),
    reportingMta: null,
    recipient: null,
    originalMessageId,
  };
}

/** The address of a `Final-Recipient`-style field (`rfc822; ann@example.com`, `<ann@…>`), lowercased. */
function addressOf(field: string | undefined): string | null {
  const address = field
    ?.replace(/^[a-z0-9-]+\s*;\s*/i, '')
    .replace(/^<|>$/g, '')
    .trim()
    .toLowerCase();
  return address && /^[^\s@]+@[^\s@]+$/.test(address) ? address : null;
}

function reportTypeOf(mail: ParsedMail): string | null {
  const type = mail.headers.get('content-type') as
    | { value?: string; params?: Record<string, string> }
    | undefined;
  if (type?.value?.toLowerCase() !== 'multipart/report') return null;
  return type.params?.['report-type']?.toLowerCase() ?? null;
}

/** Header-style fields (`Name: value`, folded lines joined), names lowercased; the first of each wins. */
function fieldsOf(block: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of block
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]+/g, ' ')
    .split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** A delivery-status body: the per-message block, then one block per recipient (RFC 3464 §2.1). */
function statusBlocks(body: string): Map<string, string>[] {
  return body
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .filter((b) => b.trim() !== '')
    .map(fieldsOf);
}

/**
 * The returned message's `Message-ID`: from a `text/rfc822-headers` (or `message/rfc822`) part
 * mailparser kept apart, else the last `Message-ID` field in the raw report that is not the
 * report's own (mailparser folds an inline `message/rfc822` part into the text).
 */
function originalId(mail: ParsedMail, raw: Buffer): string | null {
  const fromParts = idFromParts(mail);
  if (fromParts !== null) return fromParts;
  const own = mail.messageId?.replace(/^<|>$/g, '');
  const ids = [...raw.toString('latin1').matchAll(/^message-id:[ \t]*<([^>\r\n]{1,250})>/gim)].map(
    (m) => m[1]!,
  );
  return ids.filter((id) => id !== own).at(-1) ?? null;
}

function idFromParts(mail: ParsedMail): string | null {
  for (const attachment of mail.attachments) {
    const type = attachment.contentType.toLowerCase();
    if (!['message/rfc822', 'text/rfc822-headers', 'message/global', 'message/global-headers'].includes(type))
      continue;
    const text = attachment.content.toString('utf8');
    const headers = text.split(/\r?\n\r?\n/)[0] ?? '';
    const id = fieldsOf(headers).get('message-id');
    if (id) return id.replace(/^<|>$/g, '');
  }
  return null;
}
