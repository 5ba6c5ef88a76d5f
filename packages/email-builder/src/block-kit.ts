/**
 * What a host needs to write its own block (see docs/custom-blocks.md): the definition and its
 * attribute builders, the round-trip marker helpers, insertion for slash commands, and the
 * email pieces the built-in blocks are made of (escaped text, checked URLs, a button with its
 * Outlook form, a responsive image). The built-in blocks use exactly these.
 */
export { type AttrSpec, type AttrTable, type AttrValues, a as attr } from './model/attrs.js';
export { insertBlock, insertInline } from './nodes/commands.js';
export {
  type BlockDefinition,
  type ColorRole,
  defineBlock,
  domMarker,
  type EditorHost,
  htmlMarker,
  markerRule,
  type RenderContext,
  type SlashItem,
  type TextContext,
} from './nodes/define.js';
export { type ButtonParts, emailButton } from './render/button.js';
export { escapeHtml } from './render/escape.js';
export { type ImageParts, imageHtml as emailImage } from './render/image.js';
export { FONT, TABLE, TEXT, textStyle } from './render/styles.js';
