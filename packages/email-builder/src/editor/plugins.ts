import { baseKeymap } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import type { Schema } from 'prosemirror-model';
import type { Plugin } from 'prosemirror-state';
import { blockAtomInput } from '../input/block-atoms.js';
import { blockMoveKeys } from '../input/block-moves.js';
import { blockInput } from '../input/keymap.js';
import { darkTextPlugin } from '../marks/dark-text.js';
import type { BlockSet } from '../registry/block-set.js';
import { conditionBadges } from '../ui/condition-badge.js';
import { cursors } from '../ui/cursors.js';
import { placeholderText } from '../ui/placeholder-text.js';
import { placeholderPlugin } from '../upload/placeholder.js';
import type { EditorChrome } from './chrome.js';

/**
 * The editor's plugins, in the order they answer keys and events: the menus' triggers, the
 * blocks' keys and input rules, undo and redo, then what draws over the email (cursors, upload
 * placeholders, dark-mode text, condition badges, the empty editor's placeholder) and the
 * chrome that follows the selection.
 */
export function editorPlugins(
  chrome: EditorChrome,
  set: BlockSet,
  schema: Schema,
  placeholder: () => string,
): Plugin[] {
  return [
    chrome.slash.plugin(),
    chrome.variableMenu.plugin(),
    // before the blocks' keys: Tab in a link moves into its card, even in a list
    chrome.linkHover.plugin(),
    ...blockInput(set, schema),
    ...blockAtomInput(),
    blockMoveKeys(),
    keymap({
      'Mod-z': undo,
      'Mod-y': redo,
      'Shift-Mod-z': redo,
      'Mod-k': () => chrome.bubble.openLink(),
    }),
    keymap(baseKeymap),
    history(),
    cursors(),
    placeholderPlugin(),
    darkTextPlugin(),
    conditionBadges(),
    placeholderText(placeholder),
    chrome.bubble.plugin(),
    chrome.handle.plugin(),
    chrome.inspector.plugin(),
  ];
}
