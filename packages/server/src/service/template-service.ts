/**
 * Saved email templates ("My Templates" of the editor, per account): per-item validation with
 * the editor's own document rules, batching into the store, results in request order, and
 * rendering a stored template with merge variables filled. One bad item never fails the others.
 *
 * Checking and rendering run on the render threads (`render/pool.ts`), never on the event
 * loop; what one render request may cost is bounded (templates per request, output bytes, and
 * the key's render budget, charged before any work starts).
 */
import type { JSONNode } from '@service/email-builder';
import type { TemplateLimits } from '../config.js';
import { type Envelope, failed, ok } from '../envelope.js';
import type { RenderPool } from '../render/pool.js';
import type { TemplateCursor, TemplateRecord, TemplateRow, TemplateStore } from '../store/template-store.js';

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

export interface TemplateServiceOptions {
  store: TemplateStore;
  limits: TemplateLimits;
  pool: RenderPool;
  now?: () => number;
}

/** JSON bytes per render unit: a template costs one unit per started 16 KiB, at least one. */
export const RENDER_UNIT_BYTES = 16 * 1024;

/** What rendering a stored document of `bytes` bytes costs of a key's render budget. */
export const renderCost = (bytes: number): number => Math.max(1, Math.ceil(bytes / RENDER_UNIT_BYTES));

/**
 * Charges a key's render budget; throws (a 429) when the budget cannot cover `units`. Called
 * once per render request, before anything renders.
 */
export type ChargeRender = (units: number) => void;

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
  private readonly pool: RenderPool;
  private readonly now: () => number;

  constructor(options: TemplateServiceOptions) {
    this.store = options.store;
    this.limits = options.limits;
    this.pool = options.pool;
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
  private async checkDocument(document: unknown): Promise<Checked<string>> {
    const checked = await this.pool.check(document);
    if (!checked.ok)
      return { ok: false, envelope: failed('TEMPLATE_DOCUMENT_INVALID', `document: ${checked.message}`) };
    const { json } = checked;
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
    for (const [index, entry] of entries.entries()) {
      const name = this.checkName(entry.name);
      if (!name.ok) {
        results[index] = name.envelope;
        continue;
      }
      const document = await this.checkDocument(entry.document);
      if (!document.ok) {
        results[index] = document.envelope;
        continue;
      }
      valid.push({ index, name: name.value, document: document.value });
    }
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
        const document = await this.checkDocument(entry.document);
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
   * reported, never guessed). Returns the answer's JSON (an array of `RenderedTemplateEnvelope`)
   * as pieces of bytes, built on the render threads, to be sent one after another: joining
   * megabytes into one buffer and writing it at once held the event loop ~20 ms per request.
   *
   * The whole request's cost is charged from the documents' sizes before any is read; renders
   * run one after another, and once the answer holds `maxRenderOutputBytes` the remaining
   * entries fail alone.
   */
  async render(
    accountId: string,
    entries: readonly { id: string; variables?: Record<string, unknown> }[],
    charge: ChargeRender,
  ): Promise<Uint8Array[]> {
    const ids = entries.map((e) => e.id);
    const sizes = await this.store.sizes(accountId, ids);
    charge(entries.reduce((units, e) => units + renderCost(sizes.get(e.id) ?? 0), 0));
    const found = await this.store.get(accountId, ids);
    const parts: Uint8Array[] = [];
    // The same template with the same variables renders to the same bytes: once per request.
    const rendered = new Map<string, Uint8Array>();
    let outputBytes = 0;
    for (const entry of entries) {
      const record = found.get(entry.id);
      let part: Uint8Array;
      if (!record) part = json(notFound(entry.id));
      else if (outputBytes >= this.limits.maxRenderOutputBytes)
        part = json(tooLarge(entry.id, this.limits.maxRenderOutputBytes));
      else {
        const same = JSON.stringify([entry.id, entry.variables ?? {}]);
        part =
          rendered.get(same) ?? (await this.pool.render(entry.id, record.document, entry.variables ?? {}));
        rendered.set(same, part);
        if (outputBytes + part.length > this.limits.maxRenderOutputBytes) {
          outputBytes = this.limits.maxRenderOutputBytes;
          part = json(tooLarge(entry.id, this.limits.maxRenderOutputBytes));
        }
      }
      outputBytes += part.length;
      parts.push(part);
    }
    return joinJsonArray(parts);
  }

  /**
   * One stored template rendered with `variables` for a message (`POST /api/public/emails`): its
   * HTML and the editor's plain-text rendering, or `undefined` when the account has no such
   * template. Renders in the pool, as every render does.
   */
  async renderForSending(
    accountId: string,
    id: string,
    variables: Record<string, unknown>,
  ): Promise<{ html: string; text: string } | undefined> {
    const record = (await this.store.get(accountId, [id])).get(id);
    if (record === undefined) return undefined;
    const entry = JSON.parse(
      Buffer.from(await this.pool.render(id, record.document, variables)).toString('utf8'),
    );
    return { html: entry.data.html, text: entry.data.text };
  }
}

const json = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value));

/** The pieces of `[a,b,c]` from the JSON bytes of each element: no copy, no serialising again. */
function joinJsonArray(parts: readonly Uint8Array[]): Uint8Array[] {
  const pieces: Uint8Array[] = [Buffer.from('[')];
  parts.forEach((part, i) => {
    if (i > 0) pieces.push(Buffer.from(','));
    pieces.push(part);
  });
  pieces.push(Buffer.from(']'));
  return pieces;
}

function tooLarge<T>(id: string, limit: number): Envelope<T> {
  return failed(
    'TEMPLATE_RENDER_TOO_LARGE',
    `rendering "${id.slice(0, 64)}" would take this answer past ${limit} bytes; render it in a request of its own or with fewer templates`,
  );
}

function notFound<T>(id: string): Envelope<T> {
  return failed('TEMPLATE_NOT_FOUND', `this account has no template "${id.slice(0, 64)}"`);
}
