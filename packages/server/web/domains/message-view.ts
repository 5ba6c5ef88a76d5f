/**
 * One message as a person reads it, for the Sandbox and Emails sections: the email rendered in
 * a sandboxed frame, its text part and its header fields (folded away).
 */
import { el } from '../lib/dom.js';

export interface MessageParts {
  subject: string;
  html: string | null;
  text: string | null;
  headers: { name: string; value: string }[];
}

/** The heading, frame and folded parts showing `message`. */
export function messageView(message: MessageParts): HTMLElement[] {
  const frame = el('iframe', {
    className: 'capture-frame',
    title: `The email "${message.subject}" as rendered`,
  });
  // No scripts, no same origin: the email's HTML cannot reach this page or its key.
  frame.setAttribute('sandbox', '');
  frame.srcdoc = message.html ?? `<pre>${escapeHtml(message.text ?? '')}</pre>`;
  return [
    el('h3', { textContent: 'As rendered' }),
    frame,
    el(
      'details',
      {},
      el('summary', { textContent: 'Text part' }),
      el('pre', { className: 'capture-pre', textContent: message.text ?? '(none)' }),
    ),
    el(
      'details',
      {},
      el('summary', { textContent: `Headers (${message.headers.length})` }),
      el('pre', {
        className: 'capture-pre',
        textContent: message.headers.map((h) => `${h.name}: ${h.value}`).join('\n'),
      }),
    ),
  ];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
