/**
 * What a host needs to write its own block (see docs/custom-blocks.md): the definition, the
 * rendering it may be split from (all a renderer needs) and the attribute builders, the
 * round-trip marker helpers, insertion for slash commands, and the email pieces the built-in
 * blocks are made of (escaped text, checked URLs, a button with its Outlook form, a responsive
 * image). The built-in blocks use exactly these.
 */
export { type AttrSpec, type AttrTable, type AttrValues, a as attr } from './model/attrs.js';
export { insertBlock, insertInline } from './nodes/commands.js';
export { type BlockDefinition, defineBlock, type EditorHost, type SlashItem } from './nodes/define.js';
export { domMarker, htmlMarker, markerRule } from './nodes/marker.js';
export {
  type BlockRendering,
  type ColorRole,
  defineRendering,
  type RenderContext,
  type TextContext,
} from './nodes/rendering.js';
export { type ButtonParts, emailButton } from './primitives/button.js';
export { escapeHtml } from './primitives/escape.js';
export { type ImageParts, imageHtml as emailImage } from './primitives/image.js';
export { FONT, TABLE, TEXT, textStyle } from './primitives/styles.js';
