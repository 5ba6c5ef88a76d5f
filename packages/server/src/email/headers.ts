/**
 * The caller's extra headers (`headers` in `POST /api/public/emails`): names as RFC 5322 allows,
 * values on one line, and none of the headers the service writes itself (addresses, subject,
 * identity, MIME structure, the signature), which a request could otherwise forge or break.
 */

/**
 * The headers a caller may not write, in one table (documented in docs/api-guide.md, "Your own
 * headers"). A name matches an entry exactly (in any case), or starts with it when the
 * entry ends in `*`. Two kinds:
 * - **the service's**: addresses, subject, identity and MIME structure come from the request's
 *   own fields, and a caller's copy would contradict or break the message;
 * - **the receiving side's**: trace fields and authentication verdicts (RFC 5321 §4.4, RFC 8601,
 *   RFC 8617, RFC 5322 §3.6.6) are what receivers and their filters trust as written by mail
 *   servers on the way; a tenant forging them could fake a pass, or another sender's history.
 */
export const RESERVED_HEADERS: readonly { name: string; whose: 'service' | 'receivers' }[] = [
  ...[
    'From',
    'Sender',
    'To',
    'Cc',
    'Bcc',
    'Reply-To',
    'Subject',
    'Date',
    'Message-ID',
    'MIME-Version',
    'Content-*',
    'DKIM-*',
    // Gmail's feedback loop reads it; the service writes it (issue 34)
    'Feedback-ID',
  ].map((name) => ({ name, whose: 'service' as const })),
  ...[
    'Return-Path',
    'Received*',
    'Delivered-To',
    'Authentication-Results',
    'ARC-*',
    'Resent-*',
    'X-Original-*',
    'Original-Recipient',
  ].map((name) => ({ name, whose: 'receivers' as const })),
];

const reservedNames = new Map(
  RESERVED_HEADERS.filter((h) => !h.name.endsWith('*')).map((h) => [h.name.toLowerCase(), h] as const),
);
const reservedPrefixes = RESERVED_HEADERS.filter((h) => h.name.endsWith('*')).map((h) => ({
  ...h,
  prefix: h.name.slice(0, -1).toLowerCase(),
}));

/** The table's entry for a header name, if the caller may not write it. */
export function reservedHeader(name: string): (typeof RESERVED_HEADERS)[number] | undefined {
  const lower = name.toLowerCase();
  return reservedNames.get(lower) ?? reservedPrefixes.find((h) => lower.startsWith(h.prefix));
}

/** RFC 5322 §2.2: printable ASCII but the colon. */
const FIELD_NAME = /^[!-9;-~]+$/;
const MAX_HEADERS = 50;
const MAX_VALUE = 998;

export type CheckedHeaders = { ok: true; value: Record<string, string> } | { ok: false; message: string };

export function checkHeaders(headers: Record<string, string> | undefined): CheckedHeaders {
  const entries = Object.entries(headers ?? {});
  if (entries.length > MAX_HEADERS) return { ok: false, message: `headers: at most ${MAX_HEADERS}` };
  for (const [name, value] of entries) {
    if (!FIELD_NAME.test(name))
      return { ok: false, message: `headers: ${JSON.stringify(name.slice(0, 80))} is not a header name` };
    const reserved = reservedHeader(name);
    if (reserved?.whose === 'service')
      return { ok: false, message: `headers: ${name} is set by the service; use the request's own field` };
    if (reserved?.whose === 'receivers')
      return {
        ok: false,
        message: `headers: ${name} is written by the mail servers a message passes through, never by its sender`,
      };
    if (/[\r\n\0]/.test(value))
      return { ok: false, message: `headers: the value of ${name} must be one line` };
    if (value.length > MAX_VALUE)
      return { ok: false, message: `headers: the value of ${name} is over ${MAX_VALUE} characters` };
  }
  return { ok: true, value: Object.fromEntries(entries) };
}

/** Whether the caller set a header (case-insensitive), e.g. its own List-Unsubscribe. */
export const hasHeader = (headers: Record<string, string>, name: string): boolean =>
  Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase());
