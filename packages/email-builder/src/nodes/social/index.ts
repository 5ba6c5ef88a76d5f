import { insertBlock } from '../commands.js';
import { defineBlock, problemHints } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { NETWORKS, pillStyle, problems, socialLinksRendering } from './render.js';

/**
 * Social links in the editor: the pills as the email shows them, empty ones dimmed; inserted
 * with the brand's networks.
 */
export const socialLinks = defineBlock({
  ...socialLinksRendering,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('socialLinks', socialLinksRendering.attrs)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('socialLinks', socialLinksRendering.attrs, node.attrs),
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
      ...problemHints(problems(node.attrs)),
    ],
  },
  slash: [
    {
      id: 'social',
      group: 'Brand',
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
      icon: 'social',
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
