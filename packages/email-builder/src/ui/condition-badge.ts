import type { Node as PMNode } from 'prosemirror-model';
import { Plugin } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';
import { changedBlocks } from '../model/changed-blocks.js';
import { isCondition } from '../model/condition.js';
import { formatCondition } from '../variables/condition-syntax.js';

/** Badges for the blocks (and columns) with a display condition among the top-level blocks overlapping `from`–`to`. */
function badges(doc: PMNode, from: number, to: number): Decoration[] {
  const found: Decoration[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    const showIf = node.attrs.showIf;
    if (showIf != null && isCondition(showIf)) {
      const label = `if ${formatCondition(showIf)}`;
      // the spec names it too, so the set can be read without a view
      found.push(
        Decoration.node(pos, pos + node.nodeSize, { class: 'sv-if', 'data-sv-if': label }, { label }),
      );
    }
    // a text block holds only inline nodes, which carry no condition
    return !node.isTextblock;
  });
  return found;
}

/**
 * Shows which blocks depend on the data: a small badge with the condition (CSS
 * `.sv-if::before`), as the settings set it. After a change only the top-level blocks it touched
 * are looked at again (see {@link changedBlocks}): a keystroke in a long email costs one block.
 */
export function conditionBadges(): Plugin<DecorationSet> {
  const plugin: Plugin<DecorationSet> = new Plugin<DecorationSet>({
    state: {
      init: (_config, state) => DecorationSet.create(state.doc, badges(state.doc, 0, state.doc.content.size)),
      apply: (tr, set) => {
        if (!tr.docChanged) return set;
        const mapped = set.map(tr.mapping, tr.doc);
        const range = changedBlocks(tr);
        if (!range) return mapped;
        const [from, to] = range;
        // the badges inside the range (not those of the blocks that end or start at its edges)
        const stale = mapped.find(from, to).filter((d) => d.from >= from && d.to <= to);
        return mapped.remove(stale).add(tr.doc, badges(tr.doc, from, to));
      },
    },
    props: { decorations: (state) => plugin.getState(state) },
  });
  return plugin;
}
