/**
 * Keys of the service itself (not of a customer's domain), one per name, sealed under
 * `SECRET_KEY`. The first process to need one makes it; the others read that one (an insert
 * that loses the race is ignored), so every process signs with the same key.
 */
import type { Kysely } from 'kysely';
import { open, seal } from '../dkim/secret-box.js';
import type { Database } from './tables.js';

export class ServiceKeyStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secretKey: () => Buffer,
  ) {}

  /** The key named `name` (its PEM text), made by `create` if there is none yet. */
  async getOrCreate(name: string, create: () => string, now = Date.now()): Promise<string> {
    const stored = await this.read(name);
    if (stored !== undefined) return stored;
    await this.db
      .insertInto('service_keys')
      .values({
        name,
        private_key_enc: seal(this.secretKey(), Buffer.from(create(), 'utf8'), `service-key:${name}`),
        created_at: now,
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const made = await this.read(name);
    if (made === undefined) throw new Error(`service key ${name} could not be stored`);
    return made;
  }

  private async read(name: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('service_keys')
      .select('private_key_enc')
      .where('name', '=', name)
      .executeTakeFirst();
    return row && open(this.secretKey(), row.private_key_enc, `service-key:${name}`).toString('utf8');
  }
}
