import type { DOMOutputSpec } from 'prosemirror-model';
import { insertBlock } from '../commands.js';
import { defineBlock, problemHints } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { footerRendering, lines, type Part, problems } from './render.js';

/**
 * A line in the editor: links look like the email's and show their address on hover, but are
 * spans, not `<a>`, so a click while editing selects the footer instead of navigating.
 */
const lineView = (parts: Part[]): DOMOutputSpec =>
  [
    'p',
    ...parts.map((p) =>
      p === 'br'
        ? ['br']
        : p === 'sep'
          ? ' · '
          : typeof p === 'string'
            ? p
            : 'strong' in p
              ? ['strong', p.strong]
              : ['span', { class: 'sv-footer-link', title: p.href }, p.label],
    ),
  ] as DOMOutputSpec;

/** The footer in the editor: its lines as the email shows them, and what it still lacks. */
export const footer = defineBlock({
  ...footerRendering,
  inspect: true,
  spec: {
    group: 'block inner',
    atom: true,
    draggable: true,
    parseDOM: [markerRule('footer', footerRendering.attrs)],
    toDOM: (node) => [
      'div',
      {
        ...domMarker('footer', footerRendering.attrs, node.attrs),
        class: 'sv-footer',
        style: `text-align:${node.attrs.align}`,
      },
      ...lines(node.attrs).map(lineView),
      ...problemHints(problems(node.attrs)),
    ],
  },
  slash: [
    {
      id: 'footer',
      group: 'Brand',
      title: 'Footer',
      description: 'Address, contact and unsubscribe link',
      keywords: ['footer', 'unsubscribe', 'address', 'contact', 'legal'],
      icon: 'footer',
      run: (host, from, to) =>
        insertBlock(host, from, to, host.view.state.schema.nodes.footer!.create(host.branded('footer'))),
    },
  ],
});
