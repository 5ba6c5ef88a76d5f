/**
 * The editing UI the first paint does without, as one chunk loaded on first use (see
 * `lazy-ui.ts`). In the first load each piece has a trip wire (`BubbleMenu`, `LinkHover`,
 * `BlockHandle`, `SlashMenu`, `Inspector`, `SettingsPanel`, `SchemeMenu`) that loads it and
 * forwards to it.
 */

export { BlockMenu } from './block-menu.js';
export { renderBlockSettings } from './block-settings.js';
export { dock, undock } from './dock.js';
export { renderEmailSettings } from './email-settings.js';
export { field } from './fields.js';
export { FormattingBubble } from './formatting-bubble.js';
export { LinkCard } from './link-card.js';
export { followViewport } from './place.js';
export { SchemeChoices } from './scheme-choices.js';
export { SlashPopup } from './slash-popup.js';
