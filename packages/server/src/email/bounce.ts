/**
 * What a refusal says about the address (issue 34), as Postmark and SES sort bounces, from the
 * enhanced status code (RFC 3463) first and the reply's words only when a server gives none:
 *
 * - `hard`: the address or its domain does not exist (5.1.x, 5.2.1 disabled). The only kind,
 *   with complaints, that suppresses the address: mail to it can never arrive.
 * - `soft`: the address exists but cannot take this message now or at this size (4.x.x,
 *   5.2.2 mailbox full, 5.2.3 too large, 5.3.x, 5.4.x, 5.5.x).
 * - `block`: the receiver refused the sender or the content (5.7.x policy, RBL listings,
 *   reputation, 5.6.x content): the address is good, so suppressing it would punish the
 *   recipient for our IP's listing. A sender that sees many of these has a problem to fix.
 * - `undetermined`: a 5xx with nothing to go on.
 */

export type BounceType = 'hard' | 'soft' | 'block' | 'undetermined';

export interface BounceClass {
  type: BounceType;
  /** The enhanced status code, such as `5.1.1`, when the reply had one. */
  status: string | null;
}

/** `X.Y.Z` after the basic code, as RFC 3463 writes it (class 2, 4 or 5; up to three digits each). */
const ENHANCED = /^(?:\d{3}[ -])?\s*([245])\.(\d{1,3})\.(\d{1,3})\b/;

/** Words receivers use when the address does not exist, for replies without an enhanced code. */
const NO_SUCH_ADDRESS =
  /\b(?:user unknown|unknown user|no such (?:user|mailbox|recipient|address)|does not exist|doesn['’]t exist|invalid (?:recipient|mailbox|address)|mailbox unavailable|recipient (?:address )?rejected: user|not a valid mailbox|address rejected|unrouteable address|account (?:has been )?disabled|accepts no mail|neither MX nor address)\b/i;

/** Words of a policy refusal: a blocklist, reputation, spam, a sender the receiver will not take. */
const POLICY =
  /\b(?:block(?:ed|list(?:ed)?)|black ?list(?:ed)?|spamhaus|spamcop|barracuda|rbl|dnsbl|listed (?:at|on|in|by)|reputation|spam|policy|rejected for policy|not authori[sz]ed|access denied|dmarc|spf|dkim)\b/i;

/** Words of a full mailbox or a message too big. */
const FULL =
  /\b(?:over ?quota|quota exceeded|mailbox (?:is )?full|insufficient (?:system )?storage|too large|message size)\b/i;

/** Classifies one refusal: `code` the basic SMTP code (or `null`), `text` the reply or the reason. */
export function classifyRefusal(code: number | null, text: string, status?: string | null): BounceClass {
  const found = status ?? enhancedStatus(text);
  if (found !== null) return { type: byStatus(found, text), status: found };
  if (code !== null && code >= 400 && code < 500) return { type: 'soft', status: null };
  if (NO_SUCH_ADDRESS.test(text)) return { type: 'hard', status: null };
  if (POLICY.test(text)) return { type: 'block', status: null };
  if (code === 552 || FULL.test(text)) return { type: 'soft', status: null };
  return { type: 'undetermined', status: null };
}

/** The enhanced status code at the start of a reply (after its basic code), or `null`. */
export function enhancedStatus(text: string): string | null {
  const match = ENHANCED.exec(text.trim());
  return match ? `${match[1]}.${Number(match[2])}.${Number(match[3])}` : null;
}

function byStatus(status: string, text: string): BounceType {
  const [klass, subject, detail] = status.split('.').map(Number) as [number, number, number];
  if (klass !== 5) return 'soft';
  switch (subject) {
    case 1:
      // 5.1.7 and 5.1.8: our sender address was refused, not the recipient's.
      return detail === 7 || detail === 8 ? 'block' : 'hard';
    case 2:
      return detail === 1 ? 'hard' : 'soft';
    case 6:
    case 7:
      return 'block';
    case 4:
      // Exchange Online's directory check answers an unknown recipient with 550 5.4.1
      // "Recipient address rejected: Access denied".
      return detail === 1 && NO_SUCH_ADDRESS.test(text) ? 'hard' : 'soft';
    case 3:
    case 5:
      return 'soft';
    default:
      return 'undetermined';
  }
}

/**
 * The reply as it is shown and stored: the basic code once. nodemailer's `response` already
 * starts with it (`550 5.1.1 …`); a reason without one gets it in front.
 */
export function replyText(code: number | null, text: string): string {
  const trimmed = text.trim();
  if (code === null || trimmed.startsWith(String(code))) return trimmed;
  return `${code} ${trimmed}`;
}
