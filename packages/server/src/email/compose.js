/**
 * The MIME text of an accepted message, built once with nodemailer's MailComposer (a
 * maintained composer: encodings, folding and multipart/alternative done right), with its
 * Message-ID and Date fixed at acceptance so every attempt sends the same message. It is
 * signed per attempt (`jobs/email-sender.ts`), after the per-recipient headers are added.
 *
 * Runs on the render threads (`render/worker.js`), never on the event loop: html-to-text and
 * MIME encoding of a 10 MB body took 20–40 s of CPU, and on the event loop that froze every
 * account's requests and the DKIM responder (issue 33). Plain JavaScript because worker threads
 * start without the tests' TypeScript loader; the types are in `render/pool.ts`.
 */
import { compile } from 'html-to-text';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { addTracking } from './tracked-links.js';

/**
 * The HTML's text, lines of 78. Compiled once: html-to-text's `convert` compiles its options
 * (selector trees) on every call, 20 times the conversion of a short message itself
 * (291 µs against 14 µs), and a batch of 100 paid it 100 times.
 */
const htmlToText = compile({ wordwrap: 78 });

/** @param {{ name: string, address: string }} a */
const formatted = (a) => ({ name: a.name, address: a.address });

/**
 * The message with CRLF line endings; Bcc recipients are in the envelope only, never a header.
 * Without `text`, the text part is the HTML's text (html-to-text, lines of 78).
 * @param {import('../render/pool.js').ComposeInput} input
 * @returns {Promise<string>}
 */
export async function composeMessage(input) {
  // Tracked links in the text part too when it is converted from the HTML, as people click
  // there; the pixel only in the HTML.
  const t = input.tracking;
  const linked = t ? addTracking(input.html, { ...t, opens: false }) : input.html;
  const html = t ? addTracking(linked, { ...t, clicks: false }) : linked;
  const composer = new MailComposer({
    from: formatted(input.from),
    to: input.to.map(formatted),
    ...(input.cc.length > 0 && { cc: input.cc.map(formatted) }),
    ...(input.replyTo.length > 0 && { replyTo: input.replyTo.map(formatted) }),
    subject: input.subject,
    html,
    text: input.text ?? htmlToText(linked),
    // A tracked message's parts are base64, so the sender can find and personalise each
    // recipient's tokens (`tracking.ts`): quoted-printable may fold a line inside one.
    ...(input.tracking && { textEncoding: 'base64' }),
    headers: input.headers,
    attachments: input.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      encoding: 'base64',
      ...(a.contentType && { contentType: a.contentType }),
      // with a Content-ID, shown where the HTML names it (cid:), not as a file
      ...(a.contentId && { cid: a.contentId, contentDisposition: 'inline' }),
    })),
    messageId: `<${input.id}@${input.from.domain}>`,
    date: new Date(input.date),
    // Strings only: never read a file or a URL named in the request.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const built = await composer.compile().build();
  return built.toString('utf8');
}
