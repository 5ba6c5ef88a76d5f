import type { EditorState, Transaction } from 'prosemirror-state';
import type { Brand } from '../branding/check.js';
import { type Brandable, rebrandAttrs } from '../document/branding.js';
import type { BlockSet } from '../registry/block-set.js';

/**
 * The transaction that moves the editor's blocks and marks still showing the `previous`
 * branding (logo, social links, brand-coloured buttons and accents, footer, signature) to
 * `brand`, leaving values people changed by hand; `null` when nothing follows the branding.
 */
export function rebrand(
  state: EditorState,
  set: BlockSet,
  brand: Brand,
  previous: Brand,
): Transaction | null {
  const tr = state.tr;
  state.doc.descendants((node, pos) => {
    const type = set.byName.get(node.type.name) as Brandable | undefined;
    const attrs = rebrandAttrs(type, node.attrs, brand, previous);
    if (attrs) tr.setNodeMarkup(pos, undefined, attrs);
    for (const mark of node.marks) {
      const markType = set.marksByName.get(mark.type.name) as Brandable | undefined;
      const markAttrs = rebrandAttrs(markType, mark.attrs, brand, previous);
      if (markAttrs && node.isText) {
        tr.removeMark(pos, pos + node.nodeSize, mark);
        tr.addMark(pos, pos + node.nodeSize, mark.type.create(markAttrs));
      }
    }
  });
  return tr.docChanged ? tr : null;
}
