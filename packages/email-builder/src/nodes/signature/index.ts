import { insertBlock } from '../commands.js';
import { defineBlock, problemHints } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { problems, signatureRendering } from './render.js';

/** The signature in the editor: as the email shows it, with a prompt where the name is missing. */
export const signature = defineBlock({
  ...signatureRendering,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('signature', signatureRendering.attrs)],
    toDOM: (node) => [
      'div',
      { ...domMarker('signature', signatureRendering.attrs, node.attrs), class: 'sv-signature' },
      ['p', node.attrs.closing],
      [
        'div',
        { class: 'sv-signature-row' },
        ...(node.attrs.avatar ? [['img', { src: node.attrs.avatar, alt: node.attrs.name }]] : []),
        [
          'div',
          node.attrs.name ? ['strong', node.attrs.name] : problemHints(problems(node.attrs))[0]!,
          ['span', [node.attrs.position, node.attrs.company].filter(Boolean).join(' · ')],
        ],
      ],
    ],
  },
  slash: [
    {
      id: 'signature',
      group: 'Brand',
      title: 'Signature',
      description: 'Sign off with name, role and photo',
      keywords: ['signature', 'sign', 'regards', 'author', 'sender'],
      icon: 'signature',
      run: (host, from, to) =>
        insertBlock(
          host,
          from,
          to,
          host.view.state.schema.nodes.signature!.create(host.branded('signature')),
        ),
    },
  ],
});
