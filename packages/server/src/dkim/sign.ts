/**
 * DKIM signing (RFC 6376 §5): rsa-sha256 (RFC 8301 §3.1: the only RSA algorithm signers may
 * use), relaxed/relaxed canonicalization. Pure: key, clock and message come in.
 */
import { createHash, type KeyObject, sign } from 'node:crypto';
import { type HeaderField, messageOctets, parseMessage, relaxedBody, relaxedHeader } from './canonicalize.js';

/**
 * Header fields signed when present (RFC 6376 §5.4.1 lists what SHOULD be signed). `from` is
 * required (§5.4).
 */
export const SIGNED_HEADERS = [
  'from',
  'reply-to',
  'subject',
  'date',
  'to',
  'cc',
  'message-id',
  'in-reply-to',
  'references',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'list-id',
  'list-unsubscribe',
  'list-unsubscribe-post',
  // Gmail's feedback loop trusts it only under the sender's signature
  'feedback-id',
] as const;

/** Listed once more than they occur, so a second instance added in transit breaks the signature (§8.15). */
const OVERSIGNED = new Set(['from', 'subject', 'to', 'date', 'reply-to', 'cc']);

export interface SignOptions {
  /** `d=`: the signing domain. */
  domain: string;
  /** `s=`: the selector, the token of the key record `<s>._domainkey.<d>`. */
  selector: string;
  privateKey: KeyObject;
  /** `t=`, seconds since the epoch (default: now). */
  timestamp?: number;
}

/** A message without a From field cannot be signed (RFC 6376 §5.4: From MUST be signed). */
export class UnsignableMessageError extends Error {}

/**
 * The `DKIM-Signature` field for `message` (ending in CRLF), to be prepended to it. The
 * message is read as {@link messageOctets} makes it: CRLF line endings, as SMTP carries it;
 * a string is UTF-8 text.
 */
export function dkimSignature(message: Buffer | string, options: SignOptions): string {
  const { headers, body } = parseMessage(message);
  const present = new Map<string, HeaderField[]>();
  for (const field of headers) {
    const key = field.name.toLowerCase();
    present.set(key, [...(present.get(key) ?? []), field]);
  }
  if (!present.has('from')) throw new UnsignableMessageError('the message has no From header field');
  // h=: each present field once per instance, plus once more for oversigned names.
  const names: string[] = [];
  for (const name of SIGNED_HEADERS) {
    const count = present.get(name)?.length ?? 0;
    for (let i = 0; i < count + (count > 0 && OVERSIGNED.has(name) ? 1 : 0); i++) names.push(name);
  }
  const bodyHash = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const unsigned =
    `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${options.domain};\r\n` +
    `\ts=${options.selector}; t=${timestamp};\r\n` +
    `\th=${names.join(':')};\r\n` +
    `\tbh=${bodyHash};\r\n` +
    '\tb=';
  // §5.4.2: several instances of a field are signed from the last one upwards.
  const used = new Map<string, number>();
  const signed: string[] = [];
  for (const name of names) {
    const instances = present.get(name) ?? [];
    const n = used.get(name) ?? 0;
    used.set(name, n + 1);
    const field = instances[instances.length - 1 - n];
    if (field) signed.push(`${relaxedHeader(field.raw)}\r\n`);
  }
  // §3.7: the DKIM-Signature field itself comes last, b= empty, without its final CRLF.
  const data = signed.join('') + relaxedHeader(unsigned);
  const signature = sign('sha256', Buffer.from(data, 'latin1'), options.privateKey).toString('base64');
  return `${unsigned}${fold(signature)}\r\n`;
}

/** The message with its `DKIM-Signature` field prepended, exactly as signed ({@link messageOctets}). */
export function signMessage(message: Buffer | string, options: SignOptions): Buffer {
  const text = messageOctets(message);
  return Buffer.from(dkimSignature(Buffer.from(text, 'latin1'), options) + text, 'latin1');
}

/** Fold a base64 value into 72-character pieces; verifiers ignore the whitespace in b= (§3.5). */
function fold(value: string): string {
  const pieces: string[] = [];
  for (let i = 0; i < value.length; i += 72) pieces.push(value.slice(i, i + 72));
  return pieces.join('\r\n\t ');
}
