/**
 * Which account uploaded which image, in SQL (the files themselves are in `ImageFiles`). One
 * row per account and content: uploading the same bytes twice keeps the first row.
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

export class ImageStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records an upload; a repeat of the same content by the same account changes nothing. */
  async record(image: ImageRecord): Promise<void> {
    await this.db
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
      .onConflict((oc) => oc.columns(['account_id', 'hash']).doNothing())
      .execute();
  }

  /** How many different images an account has uploaded. */
  async count(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
