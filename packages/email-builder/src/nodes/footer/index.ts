import type { DOMOutputSpec } from 'prosemirror-model';
import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../render/escape.js';
import { LINK, MUTED, textStyle } from '../../render/styles.js';
import { safeLinkUrl } from '../../render/url.js';
import { ICONS } from '../../ui/icons.js';
import { insertBlock } from '../commands.js';
import { type Attrs, defineBlock, domMarker, htmlMarker, markerRule } from '../define.js';

const ATTRS = {
  company: a.text('Your Company', 'Company'),
  address: a.longText('123 Main Street, City, Country', 'Postal address'),
  email: a.text('', 'Contact email', 254),
  phone: a.text('', 'Contact phone', 40),
  note: a.longText('You are receiving this email because you signed up.', 'Note'),
  unsubscribeText: a.text('Unsubscribe', 'Unsubscribe text', 80),
  unsubscribeUrl: a.link('Unsubscribe link'),
  align: a.align('center'),
};

const linkStyle = `color:${LINK};text-decoration:underline`;

/** A child in the editor's view of a line: text or an element. */
type ViewChild = string | DOMOutputSpec;

/** One footer line: its email HTML, its plain text, and its children in the editor. */
interface Line {
  html: string;
  text: string;
  view: ViewChild[];
}

/**
 * A link in the editor's view: looks like the email's link and shows its address on hover,
 * but is not an `<a>`, so a click while editing selects the footer instead of navigating.
 */
const viewLink = (href: string, label: string): ViewChild => [
  'span',
  { class: 'sv-footer-link', title: href },
  label,
];

/**
 * The footer's lines. `dark` gives a link its dark-mode class attribute; it is called only for
 * links written, so a footer without links adds no dark-mode rule.
 */
function lines(attrs: Attrs, dark: () => string = () => ''): Line[] {
  const out: Line[] = [];
  if (attrs.company)
    out.push({
      html: `<strong>${escapeHtml(attrs.company)}</strong>`,
      text: attrs.company,
      view: [['strong', attrs.company]],
    });
  if (attrs.address)
    out.push({
      html: escapeHtml(attrs.address).replace(/\n/g, '<br>'),
      text: attrs.address,
      view: String(attrs.address)
        .split('\n')
        .flatMap((part, i): ViewChild[] => (i ? [['br'], part] : [part])),
    });
  const contact: Line[] = [];
  const mail = safeLinkUrl(attrs.email ? `mailto:${attrs.email}` : '');
  if (mail)
    contact.push({
      html: `<a href="${escapeHtml(mail)}"${dark()} style="${linkStyle}">${escapeHtml(attrs.email)}</a>`,
      text: attrs.email,
      view: [viewLink(mail, attrs.email)],
    });
  const tel = safeLinkUrl(attrs.phone ? `tel:${String(attrs.phone).replace(/[^\d+]/g, '')}` : '');
  if (tel)
    contact.push({
      html: `<a href="${escapeHtml(tel)}"${dark()} style="${linkStyle}">${escapeHtml(attrs.phone).replace(/ /g, '&nbsp;').replace(/-/g, '&#8209;')}</a>`,
      text: attrs.phone,
      view: [viewLink(tel, attrs.phone)],
    });
  if (contact.length)
    out.push({
      html: contact.map((c) => c.html).join(' &middot; '),
      text: contact.map((c) => c.text).join(' · '),
      view: contact.flatMap((c, i) => (i ? [' · ', ...c.view] : c.view)),
    });
  if (attrs.note) out.push({ html: escapeHtml(attrs.note), text: attrs.note, view: [attrs.note] });
  const unsub = safeLinkUrl(attrs.unsubscribeUrl);
  if (unsub) {
    const label = attrs.unsubscribeText || 'Unsubscribe';
    out.push({
      html: `<a href="${escapeHtml(unsub)}" target="_blank"${dark()} style="${linkStyle}">${escapeHtml(label)}</a>`,
      text: `${label}: ${unsub}`,
      view: [viewLink(unsub, label)],
    });
  }
  return out;
}

/** The email footer: company, postal address, contact links, a note and the unsubscribe link. */
export const footer = defineBlock({
  name: 'footer',
  attrs: ATTRS,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('footer', ATTRS)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('footer', ATTRS, node.attrs),
        class: 'sv-footer',
        style: `text-align:${node.attrs.align}`,
      },
      ...lines(node.attrs).map((l): DOMOutputSpec => ['p', ...l.view]),
      ...(safeLinkUrl(node.attrs.unsubscribeUrl)
        ? []
        : [['p', { class: 'sv-hint' }, `${node.attrs.unsubscribeText} (add the unsubscribe link)`]]),
    ],
  },
  render: (_node, attrs, ctx) => {
    const body = lines(attrs, () => ctx.darkTextAttr(LINK))
      .map((l) => `<p class="sv-m" style="${textStyle(12, 1.6, '0 0 4px', MUTED)}">${l.html}</p>`)
      .join('');
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"${htmlMarker('footer', ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:16px 0 0;text-align:${attrs.align}">${body}</td></tr></table>`;
  },
  text: (_node, attrs) =>
    lines(attrs)
      .map((l) => l.text)
      .join('\n'),
  slash: [
    {
      id: 'footer',
      title: 'Footer',
      description: 'Address, contact and unsubscribe link',
      keywords: ['footer', 'unsubscribe', 'address', 'contact', 'legal'],
      icon: ICONS.footer,
      run: (host, from, to) =>
        insertBlock(host, from, to, host.view.state.schema.nodes.footer!.create(host.branded('footer'))),
    },
  ],
});
