/**
 * Saved email templates ("My Templates" of the editor, per account): per-item validation with
 * the editor's own document rules, batching into the store, results in request order, and
 * rendering a stored template with merge variables filled. One bad item never fails the others.
 */
import {
  checkDocument,
  type JSONNode,
  renderEmail,
  renderTemplate,
  renderText,
  ServiceEditorError,
} from '@service/email-builder';
import type { TemplateLimits } from '../config.js';
import type { TemplateCursor, TemplateRecord, TemplateRow, TemplateStore } from '../store/template-store.js';
import { type Envelope, failed, ok } from './envelope.js';

/** A template as the API shows it in lists. */
export interface TemplateSummaryView {
  id: string;
  name: string;
  size: number;
  createdAt: string;
  updatedAt: string;
}

/** A template with its document. */
export interface TemplateView extends TemplateSummaryView {
  document: JSONNode;
}

/** A stored template rendered with data. */
export interface RenderedTemplate {
  id: string;
  html: string;
  text: string;
  missing: string[];
  defaulted: string[];
  unsafe: string[];
}

export interface TemplateServiceOptions {
  store: TemplateStore;
  limits: TemplateLimits;
  now?: () => number;
}

const summary = (r: TemplateRow): TemplateSummaryView => ({
  id: r.id,
  name: r.name,
  size: r.size,
  createdAt: new Date(r.createdAt).toISOString(),
  updatedAt: new Date(r.updatedAt).toISOString(),
});

const view = (r: TemplateRecord): TemplateView => ({
  ...summary(r),
  document: JSON.parse(r.document) as JSONNode,
});

type Checked<T> = { ok: true; value: T } | { ok: false; envelope: Envelope<never> };

export class TemplateService {
  private readonly store: TemplateStore;
  private readonly limits: TemplateLimits;
  private readonly now: () => number;

  constructor(options: TemplateServiceOptions) {
    this.store = options.store;
    this.limits = options.limits;
    this.now = options.now ?? Date.now;
  }

  /** A name: trimmed, 1–200 characters, no control characters. */
  private checkName(name: string): Checked<string> {
    const value = name.trim();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
    if (value.length === 0 || value.length > 200 || /[\u0000-\u001f\u007f]/.test(value)) {
      return {
        ok: false,
        envelope: failed(
          'TEMPLATE_NAME_INVALID',
          'a template name must be 1 to 200 characters without control characters',
        ),
      };
    }
    return { ok: true, value };
  }

  /**
   * A document: exactly what the editor would load (the editor's `checkDocument`: known blocks
   * and marks, attributes checked, URLs made safe, content rules), stored in its cleaned form.
   */
  private checkDocument(document: unknown): Checked<string> {
    let cleaned: JSONNode;
    try {
      cleaned = checkDocument(document);
    } catch (error) {
      const message =
        error instanceof ServiceEditorError ? error.message.replace(/^SEB_ERR_\w+: /, '') : String(error);
      return { ok: false, envelope: failed('TEMPLATE_DOCUMENT_INVALID', `document: ${message}`) };
    }
    const json = JSON.stringify(cleaned);
    if (Buffer.byteLength(json) > this.limits.maxBytes) {
      return {
        ok: false,
        envelope: failed(
          'TEMPLATE_TOO_LARGE',
          `the document is ${Buffer.byteLength(json)} bytes of JSON; the limit is ${this.limits.maxBytes}`,
        ),
      };
    }
    return { ok: true, value: json };
  }

  /** `GET /api/public/templates`: a page, most recently updated first. */
  async list(accountId: string, options: { after?: TemplateCursor; limit: number }) {
    const page = await this.store.list(accountId, options);
    return { templates: page.templates.map(summary), next: page.next };
  }

  /** `GET /api/public/templates/{id}`. */
  async get(accountId: string, id: string): Promise<TemplateView | undefined> {
    const found = (await this.store.get(accountId, [id])).get(id);
    return found && view(found);
  }

  /** `POST /api/public/templates`: create each entry. */
  async create(
    accountId: string,
    entries: readonly { name: string; document: unknown }[],
  ): Promise<Envelope<TemplateView>[]> {
    const results: (Envelope<TemplateView> | undefined)[] = new Array(entries.length);
    const valid: { index: number; name: string; document: string }[] = [];
    entries.forEach((entry, index) => {
      const name = this.checkName(entry.name);
      if (!name.ok) {
        results[index] = name.envelope;
        return;
      }
      const document = this.checkDocument(entry.document);
      if (!document.ok) {
        results[index] = document.envelope;
        return;
      }
      valid.push({ index, name: name.value, document: document.value });
    });
    const created = await this.store.create(accountId, valid, {
      maxPerAccount: this.limits.maxPerAccount,
      now: this.now(),
    });
    valid.forEach((v, i) => {
      const record = created[i];
      results[v.index] = record
        ? ok(view(record))
        : failed(
            'ACCOUNT_TEMPLATE_LIMIT',
            `the account already holds ${this.limits.maxPerAccount} templates; delete some first`,
          );
    });
    return results as Envelope<TemplateView>[];
  }

  /** `PATCH /api/public/templates`: rename and/or replace the document of each entry. */
  async update(
    accountId: string,
    entries: readonly { id: string; name?: string; document?: unknown }[],
  ): Promise<Envelope<TemplateView>[]> {
    const results: Envelope<TemplateView>[] = [];
    for (const entry of entries) {
      const changes: { name?: string; document?: string } = {};
      if (entry.name !== undefined) {
        const name = this.checkName(entry.name);
        if (!name.ok) {
          results.push(name.envelope);
          continue;
        }
        changes.name = name.value;
      }
      if (entry.document !== undefined) {
        const document = this.checkDocument(entry.document);
        if (!document.ok) {
          results.push(document.envelope);
          continue;
        }
        changes.document = document.value;
      }
      const updated = await this.store.update(accountId, entry.id, changes, this.now());
      results.push(updated ? ok(view(updated)) : notFound(entry.id));
    }
    return results;
  }

  /** `DELETE /api/public/templates`: delete each id. */
  async remove(
    accountId: string,
    ids: readonly string[],
  ): Promise<Envelope<{ id: string; deleted: true }>[]> {
    const deleted = await this.store.delete(accountId, ids);
    const seen = new Set<string>();
    return ids.map((id) => {
      // the same id twice: the first deletes it, the second finds it gone, as two requests would
      if (deleted.has(id) && !seen.has(id)) {
        seen.add(id);
        return ok({ id, deleted: true as const });
      }
      return notFound(id);
    });
  }

  /**
   * `POST /api/public/templates/render`: each stored template as email HTML and plain text,
   * with its merge variables filled from `variables` (values escaped for HTML; missing ones
   * reported, never guessed).
   */
  async render(
    accountId: string,
    entries: readonly { id: string; variables?: Record<string, unknown> }[],
  ): Promise<Envelope<RenderedTemplate>[]> {
    const found = await this.store.get(
      accountId,
      entries.map((e) => e.id),
    );
    return entries.map((entry) => {
      const record = found.get(entry.id);
      if (!record) return notFound(entry.id);
      const document = JSON.parse(record.document) as JSONNode;
      const data = entry.variables ?? {};
      const html = renderTemplate(renderEmail(document), data, { format: 'html' });
      const text = renderTemplate(renderText(document), data, { format: 'text' });
      const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
      return ok({
        id: entry.id,
        html: html.output,
        text: text.output,
        missing: union(html.missing, text.missing),
        defaulted: union(html.defaulted, text.defaulted),
        unsafe: union(html.unsafe, text.unsafe),
      });
    });
  }
}

function notFound<T>(id: string): Envelope<T> {
  return failed('TEMPLATE_NOT_FOUND', `this account has no template "${id.slice(0, 64)}"`);
}
