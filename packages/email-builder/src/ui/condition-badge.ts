import type { Node as PMNode } from 'prosemirror-model';
import { Plugin } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';
import { isCondition } from '../model/condition.js';
import { formatCondition } from '../variables/condition-syntax.js';

/** A badge on every block (and column) with a display condition, naming it: `if plan == "trial"`. */
function badges(doc: PMNode): DecorationSet {
  const found: Decoration[] = [];
  doc.descendants((node, pos) => {
    const showIf = node.attrs.showIf;
    if (showIf != null && isCondition(showIf))
      found.push(
        Decoration.node(pos, pos + node.nodeSize, {
          class: 'sv-if',
          'data-sv-if': `if ${formatCondition(showIf)}`,
        }),
      );
    // a text block holds only inline nodes, which carry no condition: a keystroke's rescan skips them
    return !node.isTextblock;
  });
  return DecorationSet.create(doc, found);
}

/**
 * Shows which blocks depend on the data: a small badge with the condition (CSS
 * `.sv-if::before`), as the settings set it. Recomputed only when the document changes.
 */
export function conditionBadges(): Plugin<DecorationSet> {
  const plugin: Plugin<DecorationSet> = new Plugin<DecorationSet>({
    state: {
      init: (_config, state) => badges(state.doc),
      apply: (tr, set) => (tr.docChanged ? badges(tr.doc) : set),
    },
    props: { decorations: (state) => plugin.getState(state) },
  });
  return plugin;
}
