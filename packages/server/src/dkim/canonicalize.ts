/**
 * Message parsing and the "relaxed" canonicalizations of RFC 6376 §3.4.2 (header) and §3.4.4
 * (body). Pure, on strings of octets (latin1), so 8-bit bodies hash byte for byte.
 */

/** One header field as it appears in the message, folding kept. */
export interface HeaderField {
  /** The field name as written (case kept). */
  name: string;
  /** The whole field, `Name: value` with its folding, without the final CRLF. */
  raw: string;
}

/** A message split at the first empty line (RFC 5322 §2.1), line endings normalised to CRLF. */
export interface ParsedMessage {
  headers: HeaderField[];
  /** Everything after the empty line (CRLF line endings). */
  body: string;
}

/**
 * The message as a string of octets (one char per byte) with CRLF line endings: a string
 * argument is taken as UTF-8 text, a Buffer as the bytes. Bare LF and bare CR become CRLF
 * (SMTP carries CRLF; an `.eml` written on Unix often has LF only). A message without the
 * empty line that ends the header gets one, so every reader finds where the header ends.
 */
export function messageOctets(message: Buffer | string): string {
  const bytes = typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
  const text = bytes.toString('latin1').replace(/\r\n|\r|\n/g, '\r\n');
  if (text.startsWith('\r\n') || text.includes('\r\n\r\n')) return text;
  return text.endsWith('\r\n') || text === '' ? `${text}\r\n` : `${text}\r\n\r\n`;
}

/**
 * Normalise bare LF and bare CR to CRLF (SMTP carries CRLF; an `.eml` written on Unix often
 * has LF only), then split header and body.
 */
export function parseMessage(message: Buffer | string): ParsedMessage {
  const text = messageOctets(message);
  const end = text.startsWith('\r\n') ? 0 : text.indexOf('\r\n\r\n');
  const headerText = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end + (end === 0 ? 2 : 4));
  const headers: HeaderField[] = [];
  for (const line of headerText.split('\r\n')) {
    if (line === '') continue;
    const last = headers[headers.length - 1];
    // RFC 5322 §2.2.3: a line starting with WSP continues the previous field.
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last.raw += `\r\n${line}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw new RangeError(`not a header field: ${JSON.stringify(line.slice(0, 40))}`);
    headers.push({ name: line.slice(0, colon).trim(), raw: line });
  }
  return { headers, body };
}

/**
 * RFC 6376 §3.4.2: lowercase the name, unfold, collapse runs of WSP to one SP, drop WSP at the
 * end of the value and around the colon. Returns `name:value` without CRLF.
 */
export function relaxedHeader(raw: string): string {
  const colon = raw.indexOf(':');
  const name = raw.slice(0, colon).trim().toLowerCase();
  const value = raw
    .slice(colon + 1)
    .replace(/\r\n(?=[ \t])/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

/**
 * RFC 6376 §3.4.4: drop WSP at line ends, collapse runs of WSP to one SP, drop empty lines at
 * the end; a non-empty body ends with exactly one CRLF, an empty body stays empty.
 */
export function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}
