/**
 * The MIME text of an accepted message, built once with nodemailer's MailComposer (a
 * maintained composer: encodings, folding and multipart/alternative done right), with its
 * Message-ID and Date fixed at acceptance so every attempt sends the same message. It is
 * signed per attempt (`delivery.ts`), after the per-recipient headers are added.
 */
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { MailAddress } from './address.js';

export interface ComposeInput {
  id: string;
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  replyTo: MailAddress[];
  subject: string;
  html: string;
  text: string;
  /** Caller headers, already checked (`headers.ts`). */
  headers: Record<string, string>;
  date: Date;
}

const formatted = (a: MailAddress) => ({ name: a.name, address: a.address });

/** The message with CRLF line endings; Bcc recipients are in the envelope only, never a header. */
export async function composeMessage(input: ComposeInput): Promise<string> {
  const composer = new MailComposer({
    from: formatted(input.from),
    to: input.to.map(formatted),
    ...(input.cc.length > 0 && { cc: input.cc.map(formatted) }),
    ...(input.replyTo.length > 0 && { replyTo: input.replyTo.map(formatted) }),
    subject: input.subject,
    html: input.html,
    text: input.text,
    headers: input.headers,
    messageId: `<${input.id}@${input.from.domain}>`,
    date: input.date,
    // Strings only: never read a file or a URL named in the request.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const built = await composer.compile().build();
  return built.toString('utf8');
}
