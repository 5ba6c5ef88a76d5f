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

/**
 * The footer's lines as HTML and text. `dark` gives a link its dark-mode class attribute; it is
 * called only for links written, so a footer without links adds no dark-mode rule.
 */
function lines(attrs: Attrs, dark: () => string = () => ''): { html: string; text: string }[] {
  const out: { html: string; text: string }[] = [];
  if (attrs.company) out.push({ html: `<strong>${escapeHtml(attrs.company)}</strong>`, text: attrs.company });
  if (attrs.address)
    out.push({ html: escapeHtml(attrs.address).replace(/\n/g, '<br>'), text: attrs.address });
  const contact: { html: string; text: string }[] = [];
  const mail = safeLinkUrl(attrs.email ? `mailto:${attrs.email}` : '');
  if (mail)
    contact.push({
      html: `<a href="${escapeHtml(mail)}"${dark()} style="${linkStyle}">${escapeHtml(attrs.email)}</a>`,
      text: attrs.email,
    });
  const tel = safeLinkUrl(attrs.phone ? `tel:${String(attrs.phone).replace(/[^\d+]/g, '')}` : '');
  if (tel)
    contact.push({
      html: `<a href="${escapeHtml(tel)}"${dark()} style="${linkStyle}">${escapeHtml(attrs.phone).replace(/ /g, '&nbsp;').replace(/-/g, '&#8209;')}</a>`,
      text: attrs.phone,
    });
  if (contact.length)
    out.push({
      html: contact.map((c) => c.html).join(' &middot; '),
      text: contact.map((c) => c.text).join(' · '),
    });
  if (attrs.note) out.push({ html: escapeHtml(attrs.note), text: attrs.note });
  const unsub = safeLinkUrl(attrs.unsubscribeUrl);
  if (unsub) {
    out.push({
      html: `<a href="${escapeHtml(unsub)}" target="_blank"${dark()} style="${linkStyle}">${escapeHtml(attrs.unsubscribeText || 'Unsubscribe')}</a>`,
      text: `${attrs.unsubscribeText || 'Unsubscribe'}: ${unsub}`,
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
      ...lines(node.attrs).map((l) => ['p', l.text]),
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
