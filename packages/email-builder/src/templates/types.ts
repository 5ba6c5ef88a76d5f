import type { JSONNode } from '../model/types.js';

/** A saved template as listed ("My Templates"): no document, so lists stay light. */
export interface TemplateSummary {
  id: string;
  name: string;
  /** ISO 8601 times. */
  createdAt: string;
  updatedAt: string;
}

/** A saved template with its document (the JSON of `editor.getJSON()`). */
export interface SavedTemplate extends TemplateSummary {
  document: JSONNode;
}

/**
 * Where "My Templates" live. The package ships {@link LocalTemplateStore} (browser storage, the
 * default) and {@link HttpTemplateStore} (the service's `/api/public/templates`); any object with
 * these methods works. Every method rejects with a `ServiceEditorError` on failure.
 */
export interface TemplateStore {
  /** Every saved template, most recently updated first. */
  list(): Promise<TemplateSummary[]>;
  /** One template with its document; `SEB_ERR_TEMPLATE_NOT_FOUND` if there is none. */
  get(id: string): Promise<SavedTemplate>;
  /** Saves a new template. */
  create(name: string, document: JSONNode): Promise<SavedTemplate>;
  /** Renames a template and/or replaces its document. */
  update(id: string, changes: { name?: string; document?: JSONNode }): Promise<SavedTemplate>;
  /** Deletes a template. */
  remove(id: string): Promise<void>;
}

/** One template of the "Purchased Templates" gallery. */
export interface GalleryTemplate {
  id: string;
  name: string;
  description?: string;
  category?: string;
  /** The document, in the editor's JSON; branding is applied when it is loaded. */
  document: JSONNode;
}

/**
 * Where "Purchased Templates" come from: a list, a function that resolves to one, or the URL of
 * a JSON array of {@link GalleryTemplate}s. Default: the starter gallery shipped with the package.
 */
export type TemplateSource =
  | readonly GalleryTemplate[]
  | (() => Promise<readonly GalleryTemplate[]>)
  | string;

/** Longest template name. */
export const MAX_TEMPLATE_NAME = 200;
