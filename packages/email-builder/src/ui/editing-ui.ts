/**
 * The editing UI the first paint does without, as one chunk loaded on first use (see
 * `lazy-ui.ts`). In the first load each piece has a trip wire (`BubbleMenu`, `LinkHover`,
 * `BlockHandle`, `SlashMenu`, `Inspector`, `SettingsPanel`, `SchemeMenu`, `cursors`) that loads
 * it and forwards to it.
 */

import { dropCursor } from 'prosemirror-dropcursor';
import { gapCursor } from 'prosemirror-gapcursor';
import type { Plugin } from 'prosemirror-state';

export { scopedVariableItems, variableItems } from '../nodes/variable/items.js';

export { BlockInspector } from './block-inspector.js';
export { BlockMenu } from './block-menu.js';
export { renderEmailSettings } from './email-settings.js';
export { field } from './fields.js';
export { FormattingBubble } from './formatting-bubble.js';
export { LinkCard } from './link-card.js';
export { SchemeChoices } from './scheme-choices.js';
export { SlashPopup } from './slash-popup.js';

/** The drop and gap cursors, which `cursors.ts` stands in for in the first load. */
export function cursorPlugins(): Plugin[] {
  return [dropCursor({ color: '#6366f1', width: 2 }), gapCursor()];
}
