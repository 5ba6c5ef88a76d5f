import { ServiceEditorError } from '../errors.js';
import type { JSONNode } from '../model/types.js';
import { checkTemplateDocument, checkTemplateName } from './check.js';
import type { SavedTemplate, TemplateStore, TemplateSummary } from './types.js';

/** Options of {@link LocalTemplateStore}. */
export interface LocalTemplateStoreOptions {
  /** A `Storage` (default `window.localStorage`). */
  storage?: Storage;
  /** Prefix of the storage keys (default `sv-templates`): one key for the index, one per template. */
  key?: string;
}

function newId(): string {
  const c = globalThis.crypto;
  return typeof c?.randomUUID === 'function'
    ? c.randomUUID()
    : `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

function storeError(reason: string): ServiceEditorError {
  return new ServiceEditorError('SEB_ERR_TEMPLATE_STORE', { reason });
}

/**
 * "My Templates" in the browser's storage (the default store): an index under `<key>` and each
 * document under `<key>:<id>`, so listing does not parse every document. A full storage quota is
 * reported as `SEB_ERR_TEMPLATE_STORE`, never silently dropped.
 */
export class LocalTemplateStore implements TemplateStore {
  private readonly key: string;
  private readonly given: Storage | undefined;

  constructor(options: LocalTemplateStoreOptions = {}) {
    this.key = options.key ?? 'sv-templates';
    this.given = options.storage;
  }

  private get storage(): Storage {
    try {
      const s = this.given ?? globalThis.localStorage;
      if (s) return s;
    } catch {}
    throw storeError('browser storage is not available (disabled, or a private window)');
  }

  private index(): TemplateSummary[] {
    try {
      const parsed: unknown = JSON.parse(this.storage.getItem(this.key) ?? '[]');
      return Array.isArray(parsed) ? (parsed as TemplateSummary[]) : [];
    } catch (error) {
      if (error instanceof ServiceEditorError) throw error;
      return [];
    }
  }

  private write(entries: [string, string][], index: TemplateSummary[]): void {
    try {
      for (const [k, v] of entries) this.storage.setItem(k, v);
      this.storage.setItem(this.key, JSON.stringify(index));
    } catch (error) {
      if (error instanceof ServiceEditorError) throw error;
      for (const [k] of entries)
        if (!index.some((t) => `${this.key}:${t.id}` === k)) this.storage.removeItem(k);
      throw storeError('browser storage is full; delete some templates and try again');
    }
  }

  async list(): Promise<TemplateSummary[]> {
    return this.index().sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  async get(id: string): Promise<SavedTemplate> {
    const summary = this.index().find((t) => t.id === id);
    const raw = summary && this.storage.getItem(`${this.key}:${id}`);
    if (!summary || !raw) throw new ServiceEditorError('SEB_ERR_TEMPLATE_NOT_FOUND', { id });
    return { ...summary, document: JSON.parse(raw) as JSONNode };
  }

  async create(name: string, document: JSONNode): Promise<SavedTemplate> {
    const now = new Date().toISOString();
    const saved: SavedTemplate = {
      id: newId(),
      name: checkTemplateName(name),
      createdAt: now,
      updatedAt: now,
      document: checkTemplateDocument(document),
    };
    const { document: doc, ...summary } = saved;
    this.write([[`${this.key}:${saved.id}`, JSON.stringify(doc)]], [...this.index(), summary]);
    return saved;
  }

  async update(id: string, changes: { name?: string; document?: JSONNode }): Promise<SavedTemplate> {
    const current = await this.get(id);
    const next: SavedTemplate = {
      ...current,
      ...(changes.name !== undefined && { name: checkTemplateName(changes.name) }),
      ...(changes.document !== undefined && { document: checkTemplateDocument(changes.document) }),
      updatedAt: new Date().toISOString(),
    };
    const { document, ...summary } = next;
    const index = this.index().map((t) => (t.id === id ? summary : t));
    this.write(changes.document ? [[`${this.key}:${id}`, JSON.stringify(document)]] : [], index);
    return next;
  }

  async remove(id: string): Promise<void> {
    const index = this.index();
    if (!index.some((t) => t.id === id)) throw new ServiceEditorError('SEB_ERR_TEMPLATE_NOT_FOUND', { id });
    this.storage.removeItem(`${this.key}:${id}`);
    this.write(
      [],
      index.filter((t) => t.id !== id),
    );
  }
}
