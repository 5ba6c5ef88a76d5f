import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../primitives/escape.js';
import { LINK, MUTED, textStyle } from '../../primitives/styles.js';
import { safeLinkUrl } from '../../primitives/url.js';
import type { ProblemCode } from '../../problems.js';
import { htmlMarker } from '../marker.js';
import { type Attrs, defineRendering } from '../rendering.js';

const ATTRS = {
  // Empty until the brand or the author gives them: an email never carries made-up contact data.
  company: a.text('', 'Company'),
  address: a.longText('', 'Postal address'),
  email: a.text('', 'Contact email', 254),
  phone: a.text('', 'Contact phone', 40),
  note: a.longText('You are receiving this email because you signed up.', 'Note'),
  unsubscribeText: a.text('Unsubscribe', 'Unsubscribe text', 80),
  unsubscribeUrl: a.link('Unsubscribe link'),
  align: a.align('center'),
};

const linkStyle = `color:${LINK};text-decoration:underline`;

/** A link of the footer: its address, its label, and how the label reads in HTML and text. */
interface Link {
  href: string;
  label: string;
  /** The label as HTML, when more than escaped (a phone number that must not wrap). */
  labelHtml?: string;
  /** The link in plain text, when more than its label. */
  text?: string;
  newTab?: boolean;
}

/** A piece of a footer line: text, bold text, a line break, the contact separator, or a link. */
export type Part = string | { strong: string } | 'br' | 'sep' | Link;

/**
 * The footer's lines, each described once; {@link lineHtml} and {@link lineText} write them out
 * here, and `lineView` in the editor.
 */
export function lines(attrs: Attrs): Part[][] {
  const out: Part[][] = [];
  if (attrs.company) out.push([{ strong: attrs.company }]);
  if (attrs.address)
    out.push(
      String(attrs.address)
        .split('\n')
        .flatMap((part, i): Part[] => (i ? ['br', part] : [part])),
    );
  const contact: Link[] = [];
  const mail = safeLinkUrl(attrs.email ? `mailto:${attrs.email}` : '');
  if (mail) contact.push({ href: mail, label: attrs.email });
  const tel = safeLinkUrl(attrs.phone ? `tel:${String(attrs.phone).replace(/[^\d+]/g, '')}` : '');
  if (tel)
    contact.push({
      href: tel,
      label: attrs.phone,
      labelHtml: escapeHtml(attrs.phone).replace(/ /g, '&nbsp;').replace(/-/g, '&#8209;'),
    });
  if (contact.length) out.push(contact.flatMap((c, i): Part[] => (i ? ['sep', c] : [c])));
  if (attrs.note) out.push([attrs.note]);
  const unsub = safeLinkUrl(attrs.unsubscribeUrl);
  if (unsub) {
    const label = attrs.unsubscribeText || 'Unsubscribe';
    out.push([{ href: unsub, label, text: `${label}: ${unsub}`, newTab: true }]);
  }
  return out;
}

/** A line as email HTML; `dark` gives a link its dark-mode class attribute (called per link). */
const lineHtml = (parts: Part[], dark: () => string): string =>
  parts
    .map((p) =>
      p === 'br'
        ? '<br>'
        : p === 'sep'
          ? ' &middot; '
          : typeof p === 'string'
            ? escapeHtml(p)
            : 'strong' in p
              ? `<strong>${escapeHtml(p.strong)}</strong>`
              : `<a href="${escapeHtml(p.href)}"${p.newTab ? ' target="_blank"' : ''}${dark()} style="${linkStyle}">${p.labelHtml ?? escapeHtml(p.label)}</a>`,
    )
    .join('');

const lineText = (parts: Part[]): string =>
  parts
    .map((p) =>
      p === 'br'
        ? '\n'
        : p === 'sep'
          ? ' · '
          : typeof p === 'string'
            ? p
            : 'strong' in p
              ? p.strong
              : (p.text ?? p.label),
    )
    .join('');

/** What the footer lacks: the postal address, the unsubscribe link. */
export function problems(attrs: Attrs): ProblemCode[] {
  const out: ProblemCode[] = [];
  if (!String(attrs.address).trim()) out.push('SEB_PROBLEM_NO_ADDRESS');
  if (!safeLinkUrl(attrs.unsubscribeUrl)) out.push('SEB_PROBLEM_NO_UNSUBSCRIBE');
  return out;
}

/** The email footer: company, postal address, contact links, a note and the unsubscribe link. */
export const footerRendering = defineRendering({
  name: 'footer',
  attrs: ATTRS,
  brand: (b) => ({
    company: b.signature.company,
    address: b.contact.address,
    email: b.contact.email,
    phone: b.contact.phone,
    unsubscribeText: b.unsubscribe.text,
    unsubscribeUrl: b.unsubscribe.link,
  }),
  problems,
  render: (_node, attrs, ctx) => {
    const dark = () => ctx.darkTextAttr(LINK);
    const body = lines(attrs)
      .map((l) => `<p class="sv-m" style="${textStyle(12, 1.6, '0 0 4px', MUTED)}">${lineHtml(l, dark)}</p>`)
      .join('');
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"${htmlMarker('footer', ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:16px 0 0;text-align:${attrs.align}">${body}</td></tr></table>`;
  },
  text: (_node, attrs) => lines(attrs).map(lineText).join('\n'),
});
