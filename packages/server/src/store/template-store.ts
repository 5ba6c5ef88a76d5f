/**
 * Saved templates in SQL, per account, on the shared Kysely handle (SQLite or PostgreSQL; only
 * portable SQL). Documents are stored as JSON text: they are read and written whole.
 */
import type { Kysely, Selectable } from 'kysely';
import { newId } from './ids.js';
import type { Database, TemplatesTable } from './tables.js';

/** A template as listed: everything but the document. */
export interface TemplateRow {
  id: string;
  name: string;
  size: number;
  createdAt: number;
  updatedAt: number;
}

/** A template with its document (JSON text). */
export interface TemplateRecord extends TemplateRow {
  document: string;
}

/** Where a page of the listing starts: after this (updatedAt, id), newest first. */
export interface TemplateCursor {
  updatedAt: number;
  id: string;
}

const SUMMARY = ['id', 'name', 'size', 'created_at', 'updated_at'] as const;

function toRow(r: Pick<Selectable<TemplatesTable>, (typeof SUMMARY)[number]>): TemplateRow {
  return {
    id: r.id,
    name: r.name,
    size: Number(r.size),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class TemplateStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A page of the account's templates, most recently updated first. */
  async list(
    accountId: string,
    options: { after?: TemplateCursor; limit: number },
  ): Promise<{ templates: TemplateRow[]; next: TemplateCursor | null }> {
    let query = this.db.selectFrom('templates').select(SUMMARY).where('account_id', '=', accountId);
    const after = options.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('updated_at', '<', after.updatedAt),
          eb.and([eb('updated_at', '=', after.updatedAt), eb('id', '<', after.id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit + 1)
      .execute();
    const templates = rows.slice(0, options.limit).map(toRow);
    const last = templates.at(-1);
    const next = rows.length > options.limit && last ? { updatedAt: last.updatedAt, id: last.id } : null;
    return { templates, next };
  }

  /** The sizes of templates by id, without reading their documents; ids the account does not own are absent. */
  async sizes(accountId: string, ids: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (ids.length === 0) return found;
    const rows = await this.db
      .selectFrom('templates')
      .select(['id', 'size'])
      .where('account_id', '=', accountId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    for (const r of rows) found.set(r.id, Number(r.size));
    return found;
  }

  /** Templates by id, with documents; ids the account does not own are absent. */
  async get(accountId: string, ids: readonly string[]): Promise<Map<string, TemplateRecord>> {
    const found = new Map<string, TemplateRecord>();
    if (ids.length === 0) return found;
    const rows = await this.db
      .selectFrom('templates')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    for (const r of rows) found.set(r.id, { ...toRow(r), document: r.document });
    return found;
  }

  /**
   * Creates templates in one transaction, as many as fit under `maxPerAccount` (exactly, also
   * under concurrent batches); returns one record per input, or `null` for those over the limit.
   */
  async create(
    accountId: string,
    items: readonly { name: string; document: string }[],
    options: { maxPerAccount: number; now: number },
  ): Promise<(TemplateRecord | null)[]> {
    return this.db.transaction().execute(async (trx) => {
      // Touch the account row first: on PostgreSQL it takes the row's lock, so concurrent
      // batches of one account count in turn and the limit holds exactly; on SQLite it takes
      // the write lock up front instead of upgrading a read lock mid-transaction.
      await trx
        .updateTable('accounts')
        .set((eb) => ({ name: eb.ref('name') }))
        .where('id', '=', accountId)
        .execute();
      const { n } = await trx
        .selectFrom('templates')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      let count = Number(n);
      const out: (TemplateRecord | null)[] = [];
      for (const item of items) {
        if (count >= options.maxPerAccount) {
          out.push(null);
          continue;
        }
        const row = {
          id: newId('tpl'),
          account_id: accountId,
          name: item.name,
          document: item.document,
          size: Buffer.byteLength(item.document),
          created_at: options.now,
          updated_at: options.now,
        };
        await trx.insertInto('templates').values(row).execute();
        count += 1;
        out.push({ ...toRow(row), document: row.document });
      }
      return out;
    });
  }

  /** Renames and/or replaces the document; `undefined` when the account has no such template. */
  async update(
    accountId: string,
    id: string,
    changes: { name?: string; document?: string },
    now: number,
  ): Promise<TemplateRecord | undefined> {
    const set: Partial<TemplatesTable> = { updated_at: now };
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.document !== undefined) {
      set.document = changes.document;
      set.size = Buffer.byteLength(changes.document);
    }
    const updated = await this.db
      .updateTable('templates')
      .set(set)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return updated && { ...toRow(updated), document: updated.document };
  }

  /** Deletes the account's templates among `ids`; returns the ids deleted. */
  async delete(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .deleteFrom('templates')
      .where('account_id', '=', accountId)
      .where('id', 'in', [...new Set(ids)])
      .returning('id')
      .execute();
    return new Set(rows.map((r) => r.id));
  }
}
