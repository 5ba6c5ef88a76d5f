/**
 * Which account uploaded which image, in SQL (the files themselves are in `ImageFiles`). One
 * row per account and content: uploading the same bytes twice keeps the first row. The file is
 * shared by every account holding the same content, so it goes only with the last row.
 */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

export interface ImageRecord {
  accountId: string;
  hash: string;
  ext: string;
  mime: string;
  size: number;
  width: number;
  height: number;
  name: string;
  folder: string;
  createdAt: number;
}

/** Where a listing page starts: after this image (newest first). */
export interface ImageCursor {
  createdAt: number;
  hash: string;
}

/** What an account's images add up to. */
export interface ImageUsage {
  count: number;
  bytes: number;
}

type Row = Database['images'];

const record = (r: Row): ImageRecord => ({
  accountId: r.account_id,
  hash: r.hash,
  ext: r.ext,
  mime: r.mime,
  size: Number(r.size),
  width: Number(r.width),
  height: Number(r.height),
  name: r.name,
  folder: r.folder,
  createdAt: Number(r.created_at),
});

export class ImageStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records an upload unless it would take the account past `quota`; a repeat of content the
   * account holds already costs nothing and changes nothing. Refused, it gives the usage that
   * refused it.
   */
  async recordWithinQuota(
    image: ImageRecord,
    quota: { count: number; bytes: number },
  ): Promise<{ recorded: true } | { recorded: false; usage: ImageUsage }> {
    return this.db.transaction().execute(async (tx) => {
      // A write first, to the account's row: on PostgreSQL it locks that row, on SQLite it
      // takes the database's write lock, so the usage read next counts every upload committed
      // before this one, from any process. Read and insert apart, uploads at the quota's edge
      // each saw room: 6 of 30 kept at a quota of 2, over three processes (issue 33).
      await tx
        .updateTable('accounts')
        .set((eb) => ({ domain_count: eb.ref('domain_count') }))
        .where('id', '=', image.accountId)
        .execute();
      const held = await tx
        .selectFrom('images')
        .select('hash')
        .where('account_id', '=', image.accountId)
        .where('hash', '=', image.hash)
        .executeTakeFirst();
      if (held) return { recorded: true as const };
      const usage = await usageOf(tx, image.accountId);
      if (usage.count + 1 > quota.count || usage.bytes + image.size > quota.bytes)
        return { recorded: false as const, usage };
      await tx
        .insertInto('images')
        .values({
          account_id: image.accountId,
          hash: image.hash,
          ext: image.ext,
          mime: image.mime,
          size: image.size,
          width: image.width,
          height: image.height,
          name: image.name,
          folder: image.folder,
          created_at: image.createdAt,
        })
        .execute();
      return { recorded: true as const };
    });
  }

  /** How many different images an account holds, and their bytes. */
  usage(accountId: string): Promise<ImageUsage> {
    return usageOf(this.db, accountId);
  }

  /** A page of the account's images, newest first; `next` marks where the following page starts. */
  async list(
    accountId: string,
    options: { after?: ImageCursor; limit: number },
  ): Promise<{ images: ImageRecord[]; next: ImageCursor | undefined }> {
    let query = this.db.selectFrom('images').selectAll().where('account_id', '=', accountId);
    const { after } = options;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('hash', '<', after.hash)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('hash', 'desc')
      .limit(options.limit + 1)
      .execute();
    const images = rows.slice(0, options.limit).map(record);
    const last = images.at(-1);
    return {
      images,
      next: rows.length > options.limit && last ? { createdAt: last.createdAt, hash: last.hash } : undefined,
    };
  }

  /**
   * Removes the account's row for this content; `lastHolder` says whether no account holds the
   * content any more, so its file may go too.
   */
  async delete(
    accountId: string,
    hash: string,
  ): Promise<{ deleted: ImageRecord; lastHolder: boolean } | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .deleteFrom('images')
        .where('account_id', '=', accountId)
        .where('hash', '=', hash)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      const other = await tx
        .selectFrom('images')
        .select('account_id')
        .where('hash', '=', hash)
        .executeTakeFirst();
      return { deleted: record(row), lastHolder: other === undefined };
    });
  }
}

async function usageOf(db: Kysely<Database>, accountId: string): Promise<ImageUsage> {
  const row = await db
    .selectFrom('images')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), bytes: Number(row.bytes ?? 0) };
}
