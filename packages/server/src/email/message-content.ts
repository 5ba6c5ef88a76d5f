/**
 * What a stored MIME message shows a person: its header fields as they stand, and its HTML and
 * text parts decoded (mailparser). Shared by the sandbox's capture inbox and
 * `GET /api/public/emails/{id}/content`, so both read a message the same way.
 */
import { lazy } from '../lazy.js';

const mailparser = lazy(() => import('mailparser'));

export interface MessageContent {
  headers: { name: string; value: string }[];
  html: string | null;
  text: string | null;
}

/** Reads `message` (CRLF line endings, bytes as latin1 code units, as stored). */
export async function readMessage(message: string): Promise<MessageContent> {
  const { simpleParser } = await mailparser();
  const parsed = await simpleParser(Buffer.from(message, 'latin1'), { skipImageLinks: true });
  return {
    headers: headerFields(message),
    html: parsed.html === false ? null : (parsed.html ?? null),
    text: parsed.text ?? null,
  };
}

/** The header fields as they stand in the message, unfolded, in order. */
function headerFields(message: string): { name: string; value: string }[] {
  const end = message.indexOf('\r\n\r\n');
  const block = end === -1 ? message : message.slice(0, end);
  return block
    .split(/\r\n(?![ \t])/)
    .filter((line) => line.includes(':'))
    .map((line) => {
      const colon = line.indexOf(':');
      return {
        name: line.slice(0, colon),
        value: line
          .slice(colon + 1)
          .replace(/\r\n/g, '')
          .trim(),
      };
    });
}

/**
 * `message` with its `Date` header field set to `at`, written as the composer writes it: a
 * scheduled message moved by `PATCH` says when it really went. Only the header section is
 * read; a message without the field is returned unchanged.
 */
export function withDate(message: string, at: number): string {
  const end = message.indexOf('\r\n\r\n');
  const head = end === -1 ? message : message.slice(0, end);
  const date = new Date(at).toUTCString().replace(/GMT/, '+0000');
  const changed = head.replace(/(^|\r\n)Date:[^\r\n]*(\r\n[ \t][^\r\n]*)*/i, `$1Date: ${date}`);
  return changed + message.slice(head.length);
}
