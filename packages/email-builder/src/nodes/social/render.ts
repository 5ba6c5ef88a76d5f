import { BRAND_NETWORKS } from '../../branding/check.js';
import { a } from '../../model/attrs.js';
import { contrast, readable } from '../../primitives/contrast.js';
import { escapeHtml } from '../../primitives/escape.js';
import { msoOnly } from '../../primitives/mso.js';
import { FONT, TABLE } from '../../primitives/styles.js';
import { safeLinkUrl } from '../../primitives/url.js';
import type { ProblemCode } from '../../problems.js';
import { htmlMarker } from '../marker.js';
import { type Attrs, defineRendering } from '../rendering.js';

/** The networks offered, with their label and brand colour. */
export const NETWORKS: Record<string, { label: string; color: string }> = {
  facebook: { label: 'Facebook', color: '#1877f2' },
  instagram: { label: 'Instagram', color: '#d62976' },
  twitter: { label: 'X', color: '#000000' },
  linkedin: { label: 'LinkedIn', color: '#0a66c2' },
  youtube: { label: 'YouTube', color: '#ff0000' },
  github: { label: 'GitHub', color: '#24292f' },
  tiktok: { label: 'TikTok', color: '#000000' },
  website: { label: 'Website', color: '#52525b' },
};

const ATTRS = {
  links: {
    kind: 'list',
    label: 'Links',
    default: [
      { network: 'facebook', url: '' },
      { network: 'instagram', url: '' },
      { network: 'linkedin', url: '' },
    ],
    item: {
      network: a.choice(
        'website',
        Object.keys(NETWORKS),
        'Network',
        Object.values(NETWORKS).map((n) => n.label),
      ),
      url: a.link('Profile URL'),
    },
  },
  align: a.align('center'),
  variant: a.choice('brand', ['brand', 'outline'], 'Style', ['Brand colours', 'Outline']),
} as const;

/**
 * Every pill is at least this wide (its label centred), so pills line up in even rows like
 * buttons of one size. 76 px holds the widest label, "Instagram", in DejaVu Sans Bold, the
 * widest face a reader is likely to have; a wider one makes its pill grow, never overflow.
 */
const PILL_MIN = 76;
/** A pill's width in the row: its minimum, side padding (2 × 10), border (2 × 1), gap (2 × 3). */
export const PILL_SLOT = PILL_MIN + 20 + 2 + 6;
/** The widest content of a phone (414 px, less the email's phone margins) holds three slots. */
export const PHONE_SLOTS = 3;

/**
 * The fill of a brand-coloured pill: the network's colour, darkened just enough that its white
 * label reaches WCAG AA (Facebook's #1877f2 gives 4.2:1 and YouTube's #ff0000 4.0:1 as they are).
 */
export function pillFill(network: string): string {
  return readable(NETWORKS[network]?.color ?? '#52525b');
}

/** A pill's inline style, the same in the email and the editor. */
export function pillStyle(network: string, variant: string): string {
  const fill = pillFill(network);
  const look =
    variant === 'outline'
      ? `border:1px solid #d4d4d8;color:#3f3f46;background-color:#ffffff`
      : `border:1px solid ${fill};color:#ffffff;background-color:${fill}`;
  return `display:inline-block;min-width:${PILL_MIN}px;padding:6px 10px;border-radius:999px;${look};font-family:${FONT};font-size:13px;font-weight:600;line-height:18px;text-align:center;text-decoration:none`;
}

/**
 * How many pills a row may hold for `count` pills in `slots` places: as many rows as needed,
 * and the pills spread evenly over them (six in rows of 3 and 3, never 5 and 1). Rows fill in
 * turn, so up to six (the networks of BrandSettings) the rows differ by one at most.
 */
export function pillsPerRow(count: number, slots: number): number {
  const rows = Math.ceil(count / Math.max(1, slots));
  return Math.ceil(count / rows);
}

function links(attrs: Attrs): { network: string; url: string }[] {
  return (attrs.links as { network: string; url: string }[]).filter((l) => safeLinkUrl(l.url) !== '');
}

/** A row without one usable profile address renders nothing: the author is told, not left to find out. */
export const problems = (attrs: Attrs): ProblemCode[] =>
  links(attrs).length ? [] : ['SEB_PROBLEM_NO_SOCIAL_LINKS'];

/**
 * Social profile links as labelled pills: text, not icon images, so they show with images off
 * (Outlook's default) and need no image host; each link is named for screen readers.
 */
export const socialLinksRendering = defineRendering({
  name: 'socialLinks',
  attrs: ATTRS,
  // the networks the brand gives, only those
  brand: ({ socialMedia }) => {
    const links = BRAND_NETWORKS.flatMap((network) => {
      const url = socialMedia[network];
      return url ? [{ network, url }] : [];
    });
    return links.length ? { links } : {};
  },
  problems,
  render: (_node, attrs, ctx) => {
    const items = links(attrs);
    if (items.length === 0) return '';
    // Hybrid: inline-block pills wrap by themselves on a narrow phone (a table row would
    // overflow it). Their box is at most `perRow` slots wide, so the rows come out even; on a
    // phone a class narrows it further where greedy wrapping would leave one pill alone (four
    // pills as 2 and 2, not 3 and 1). Outlook for Windows, which ignores inline-block and
    // max-width, gets a ghost table of the same rows.
    const perRow = pillsPerRow(items.length, Math.floor(ctx.width / PILL_SLOT));
    const onPhone = pillsPerRow(items.length, PHONE_SLOTS);
    const phoneClass = onPhone < perRow ? ` class="sv-s${onPhone}"` : '';
    // a pill whose fill hardly stands out from the dark card (X, GitHub) gets a light edge there
    const edge = (network: string) =>
      attrs.variant === 'brand' && contrast(pillFill(network), ctx.darkSurface) < 3 ? ' class="sv-pe"' : '';
    const pills = items
      .map((l, i) => {
        const label = NETWORKS[l.network]?.label ?? 'Link';
        const cell = i === 0 ? '' : msoOnly(i % perRow === 0 ? '</td></tr><tr><td>' : '</td><td>');
        return `${cell}<div style="display:inline-block;padding:0 3px 6px"><a href="${escapeHtml(safeLinkUrl(l.url))}" target="_blank"${edge(l.network)} style="${pillStyle(l.network, attrs.variant)}">${escapeHtml(label)}</a></div>`;
      })
      .join('');
    const open = msoOnly(
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="${attrs.align}"><tr><td>`,
    );
    const box = `<div${phoneClass} style="display:inline-block;max-width:${perRow * PILL_SLOT}px">`;
    return `${TABLE}${htmlMarker('socialLinks', ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:${ctx.flushEnd ? '0' : '0 0 10px'};text-align:${attrs.align}">${open}${box}${pills}</div>${msoOnly('</td></tr></table>')}</td></tr></table>`;
  },
  text: (_node, attrs) =>
    links(attrs)
      .map((l) => `${NETWORKS[l.network]?.label ?? 'Link'}: ${safeLinkUrl(l.url)}`)
      .join('\n'),
});
