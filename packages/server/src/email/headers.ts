/**
 * The caller's extra headers (`headers` in `POST /api/public/emails`): names as RFC 5322 allows,
 * values on one line, and none of the headers the service writes itself (addresses, subject,
 * identity, MIME structure, the signature), which a request could otherwise forge or break.
 */

/** Written by the service: a caller's value would contradict or break the message. */
const RESERVED = new Set([
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'dkim-signature',
  'return-path',
  'received',
]);

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
    if (RESERVED.has(name.toLowerCase()))
      return { ok: false, message: `headers: ${name} is set by the service; use the request's own field` };
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
