/**
 * `@service/email-builder`: a framework-free email editor whose `getHTML()` renders right in
 * Gmail, Outlook and Apple Mail. Importing is harmless anywhere (Node, SSR); only constructing the
 * editor or showing the preview needs a browser. The renderers (`renderEmail`, `renderText`,
 * `renderTemplate`) and `applyBranding` run anywhere. The template stores and the starter gallery
 * are in `@service/email-builder/templates`, so an editor that does not use them does not load them.
 */
export * from './block-kit.js';
export { BRAND_NETWORKS, type Brand, type BrandingProblem, checkBranding } from './branding/check.js';
export { applyBranding, TEMPLATE_ACCENT, TEMPLATE_TINT } from './document/branding.js';
export { checkDocument } from './document/check.js';
export { findProblems } from './document/problems.js';
export { cleanDocument } from './document/validate.js';
export { type EditorEvents, ServiceEditor } from './editor.js';
export { ERRORS, type ErrorCode, ServiceEditorError } from './errors.js';
export {
  CONDITION_OPS,
  type Condition,
  type ConditionOp,
  type ConditionTest,
  conditionProblem,
} from './model/condition.js';
export type { DocSettings } from './model/doc.js';
export type { JSONMark, JSONNode } from './model/types.js';
export type {
  BrandSettings,
  ColorScheme,
  ImageServiceConfig,
  ServiceEditorOptions,
  TemplateOptions,
  ThemeColors,
  ThemeSettingProps,
  UploadFunction,
} from './options.js';
export { MailPreview, type MailPreviewOptions, type PreviewView } from './preview/mail-preview.js';
export { formatVariable, isVariableName } from './primitives/merge-tags.js';
export { safeImageUrl, safeLinkUrl } from './primitives/url.js';
export { type ContentProblem, PROBLEMS, type ProblemCode } from './problems.js';
export {
  type BlockOptions,
  type RenderOptions,
  renderEmail,
  renderText,
  type SyntaxOption,
} from './render/email.js';
export type { TemplateTab } from './templates/picker.js';
export type {
  GalleryTemplate,
  SavedTemplate,
  TemplateSource,
  TemplateStore,
  TemplateSummary,
} from './templates/types.js';
export { ACCEPTED_TYPES, type UploadEvent } from './upload/types.js';
export {
  handlebarsHelpers,
  TEMPLATE_SYNTAXES,
  type TemplateSyntax,
} from './variables/export-syntax.js';
export {
  type RenderTemplateOptions,
  type RenderTemplateResult,
  renderTemplate,
  TEMPLATE_PROBLEMS,
  type TemplateProblem,
  type TemplateProblemCode,
} from './variables/render-template.js';
export type { VariableOption, VariableType } from './variables/shape.js';
