import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../primitives/escape.js';
import { flowBox, MUTED, textStyle } from '../../primitives/styles.js';
import { safeImageUrl } from '../../primitives/url.js';
import type { ProblemCode } from '../../problems.js';
import { htmlMarker } from '../marker.js';
import { type Attrs, defineRendering } from '../rendering.js';

const ATTRS = {
  closing: a.text('Best regards,', 'Closing line', 80),
  avatar: a.image('Photo'),
  // Empty until the brand or the author gives them: an email never signs with a made-up name.
  name: a.text('', 'Name', 120),
  position: a.text('', 'Position', 120),
  company: a.text('', 'Company', 120),
};

/** What the signature lacks: the sender's name. */
export const problems = (attrs: Attrs): ProblemCode[] =>
  String(attrs.name).trim() ? [] : ['SEB_PROBLEM_NO_SENDER_NAME'];

/** A sign-off: closing line, round photo, name, position and company. */
export const signatureRendering = defineRendering({
  name: 'signature',
  attrs: ATTRS,
  brand: ({ signature: s }) => ({ avatar: s.avatar, name: s.name, position: s.position, company: s.company }),
  problems,
  render: (_node, attrs, ctx) => {
    const avatar = safeImageUrl(attrs.avatar);
    // the space between photo and name is on the photo's far side: its right, its left in
    // a right-to-left document, where the photo comes first on the right
    const gap = flowBox(ctx.settings.dir, '0', '12px', '0', '0');
    const photo = avatar
      ? `<td width="56" valign="middle" style="padding:${gap}"><img src="${escapeHtml(avatar)}" alt="${escapeHtml(attrs.name || 'Photo')}" width="56" height="56" style="display:block;width:56px;height:56px;border:0;border-radius:28px"></td>`
      : '';
    const role = [attrs.position, attrs.company]
      .filter(Boolean)
      .map((s) => escapeHtml(s))
      .join(' &middot; ');
    const closing = attrs.closing
      ? `<p class="sv-t" style="${textStyle(16, 1.6, '0 0 12px')}">${escapeHtml(attrs.closing)}</p>`
      : '';
    const name = attrs.name
      ? `<p class="sv-t" style="${textStyle(16, 1.4)};font-weight:700">${escapeHtml(attrs.name)}</p>`
      : '';
    const roleLine = role ? `<p class="sv-m" style="${textStyle(14, 1.4, '0', MUTED)}">${role}</p>` : '';
    const person =
      photo || name || roleLine
        ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>${photo}<td valign="middle">${name}${roleLine}</td></tr></table>`
        : '';
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"${htmlMarker('signature', ATTRS, attrs)}><tr><td style="padding:${ctx.flushEnd ? '0' : '0 0 16px'}">${closing}${person}</td></tr></table>`;
  },
  text: (_node, attrs) =>
    [attrs.closing, attrs.name, [attrs.position, attrs.company].filter(Boolean).join(', ')]
      .filter(Boolean)
      .join('\n'),
});
