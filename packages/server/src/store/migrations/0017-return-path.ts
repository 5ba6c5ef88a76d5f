import type { Kysely } from 'kysely';

/**
 * The return-path record (issue 34): a registration asked with `returnPath` gets a fifth record,
 * kind `return_path` at position 4, whose name is `<label>.<domain>`;
 * `domain_records.label` keeps that label (`null` for every other record).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domain_records').addColumn('label', 'text').execute();
}
