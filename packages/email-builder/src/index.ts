/**
 * `@service/email-builder`: a framework-free email editor whose `getHTML()` renders right in
 * Gmail, Outlook and Apple Mail. Importing is harmless anywhere (Node, SSR); only constructing the
 * editor needs a browser. The renderer (`renderEmail`, `renderText`) runs anywhere.
 */
export { type EditorEvents, ServiceEditor } from './editor.js';
export { ERRORS, type ErrorCode, ServiceEditorError } from './errors.js';
export type { DocSettings } from './model/doc.js';
export type { JSONMark, JSONNode } from './model/types.js';
export type {
  BrandSettings,
  ColorScheme,
  ImageServiceConfig,
  ServiceEditorOptions,
  ThemeColors,
  ThemeSettingProps,
  UploadFunction,
} from './options.js';
export { MailPreview, type MailPreviewOptions } from './preview.js';
export { type RenderOptions, renderEmail, renderText } from './render/email.js';
export { safeImageUrl, safeLinkUrl } from './render/url.js';
export { ACCEPTED_TYPES, type UploadEvent } from './upload/uploader.js';
