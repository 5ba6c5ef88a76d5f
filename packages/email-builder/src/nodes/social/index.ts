import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../render/escape.js';
import { msoOnly } from '../../render/mso.js';
import { FONT, TABLE } from '../../render/styles.js';
import { safeLinkUrl } from '../../render/url.js';
import { ICONS } from '../../ui/icons.js';
import { insertBlock } from '../commands.js';
import { type Attrs, defineBlock, domMarker, htmlMarker, markerRule } from '../define.js';

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

function pillStyle(network: string, variant: string): string {
  const color = NETWORKS[network]?.color ?? '#52525b';
  const look =
    variant === 'outline'
      ? `border:1px solid #d4d4d8;color:#3f3f46;background-color:#ffffff`
      : `border:1px solid ${color};color:#ffffff;background-color:${color}`;
  return `display:inline-block;padding:6px 14px;border-radius:999px;${look};font-family:${FONT};font-size:13px;font-weight:600;line-height:18px;text-decoration:none`;
}

function links(attrs: Attrs): { network: string; url: string }[] {
  return (attrs.links as { network: string; url: string }[]).filter((l) => safeLinkUrl(l.url) !== '');
}

/**
 * Social profile links as labelled pills: text, not icon images, so they show with images off
 * (Outlook's default) and need no image host; each link is named for screen readers.
 */
export const socialLinks = defineBlock({
  name: 'socialLinks',
  attrs: ATTRS,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('socialLinks', ATTRS)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('socialLinks', ATTRS, node.attrs),
        class: 'sv-social',
        style: `text-align:${node.attrs.align}`,
      },
      ...(node.attrs.links as { network: string; url: string }[]).map((l) => [
        'span',
        {
          class: l.url ? 'sv-pill' : 'sv-pill sv-pill-empty',
          style: pillStyle(l.network, node.attrs.variant),
        },
        NETWORKS[l.network]?.label ?? l.network,
      ]),
    ],
  },
  render: (_node, attrs) => {
    const items = links(attrs);
    if (items.length === 0) return '';
    // Hybrid: inline-block pills wrap onto more lines on a narrow phone (a table row would
    // overflow it); Outlook for Windows, which ignores inline-block, gets a ghost table row.
    const pills = items
      .map((l) => {
        const label = NETWORKS[l.network]?.label ?? 'Link';
        return `<div style="display:inline-block;padding:0 4px 8px"><a href="${escapeHtml(safeLinkUrl(l.url))}" target="_blank" style="${pillStyle(l.network, attrs.variant)}">${escapeHtml(label)}</a></div>`;
      })
      .join(msoOnly('</td><td>'));
    const open = msoOnly(
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="${attrs.align}"><tr><td>`,
    );
    return `${TABLE}${htmlMarker('socialLinks', ATTRS, attrs)}><tr><td align="${attrs.align}" style="padding:0 0 8px;text-align:${attrs.align}">${open}${pills}${msoOnly('</td></tr></table>')}</td></tr></table>`;
  },
  text: (_node, attrs) =>
    links(attrs)
      .map((l) => `${NETWORKS[l.network]?.label ?? 'Link'}: ${safeLinkUrl(l.url)}`)
      .join('\n'),
  slash: [
    {
      id: 'social',
      title: 'Social links',
      description: 'Links to your social profiles',
      keywords: [
        'social',
        'facebook',
        'instagram',
        'twitter',
        'x',
        'linkedin',
        'youtube',
        'github',
        'follow',
      ],
      icon: ICONS.social,
      run: (host, from, to) =>
        insertBlock(
          host,
          from,
          to,
          host.view.state.schema.nodes.socialLinks!.create(host.branded('socialLinks')),
        ),
    },
  ],
});
