/**
 * `@service/email-builder/templates`: the "My Templates" stores and the starter gallery, apart
 * from the main entry so that hosts not using them never load them (the editor itself loads
 * them on demand).
 */
export { loadStarterTemplates } from './gallery/index.js';
export { HttpTemplateStore, type HttpTemplateStoreOptions } from './http-store.js';
export { LocalTemplateStore, type LocalTemplateStoreOptions } from './local-store.js';
export type { TemplateTab } from './picker.js';
export { resolveTemplateSource } from './source.js';
export type {
  GalleryTemplate,
  SavedTemplate,
  TemplateSource,
  TemplateStore,
  TemplateSummary,
} from './types.js';
