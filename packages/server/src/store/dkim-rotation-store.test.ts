/**
 * The rotation worker's next look at a domain, as `schedule` writes it and as a DKIM switch writes
 * it in its own transaction: the worker's time when nothing was written while it held the
 * domain, an earlier time written meanwhile (a rotation asked for through the API) kept. On
 * SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { registerWithKeys } from '../test-support/dkim.js';
import { type PostgresServer, startPostgres } from '../test-support/postgres.js';
import { DkimRotationStore } from './dkim-rotation-store.js';
import type { KyselyStore } from './kysely-store.js';
import { openStore } from './open.js';

const DAY = 86_400_000;

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`DKIM switches on ${backend}`, () => {
    let store: KyselyStore;
    let postgres: PostgresServer | undefined;
    let rotation: DkimRotationStore;
    let domainId: string;
    let tokens: string[];
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switch-'));
    const clock = Date.UTC(2026, 0, 1);

    before(async () => {
      if (backend === 'postgres') postgres = await startPostgres();
      store = await openStore({ dataDir, databaseUrl: await postgres?.createDatabase() });
      rotation = new DkimRotationStore(store.db, store.kind);
      ({ domainId, tokens } = await registerWithKeys(store, 'switch.example.test', clock, randomBytes(32)));
    });
    after(async () => {
      await store?.close();
      await postgres?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const rotateAt = async () =>
      Number(
        (
          await store.db
            .selectFrom('domains')
            .select('dkim_rotate_at')
            .where('id', '=', domainId)
            .executeTakeFirstOrThrow()
        ).dkim_rotate_at,
      );
    const claim = async (now: number) => {
      await store.db.updateTable('domains').set({ dkim_rotate_at: now }).where('id', '=', domainId).execute();
      const [claimed] = await rotation.claimDue(now, 10, 60_000);
      assert.equal(claimed?.id, domainId);
      return claimed!;
    };

    test('with nothing written meanwhile, the switch leaves the worker’s own next look', async () => {
      const claimed = await claim(clock);
      assert.equal(await rotateAt(), clock + 60_000, 'claimed: held for the lease');
      const switched = await rotation.switchActive(
        claimed,
        { from: tokens[0]!, to: tokens[1]! },
        clock,
        clock + 5 * DAY,
        {
          lease: claimed.leaseUntil,
          at: clock + 5 * DAY,
        },
      );
      assert.equal(switched, true);
      assert.equal(await rotateAt(), clock + 5 * DAY);
    });

    test('a rotation asked for while the worker held the domain keeps it due', async () => {
      const claimed = await claim(clock + DAY);
      await rotation.request(claimed, clock + DAY + 1);
      const switched = await rotation.switchActive(
        claimed,
        { from: tokens[1]!, to: tokens[2]! },
        clock + DAY + 2,
        clock + 6 * DAY,
        { lease: claimed.leaseUntil, at: clock + 6 * DAY },
      );
      assert.equal(switched, true);
      assert.equal(await rotateAt(), clock + DAY + 1, 'the earlier time written meanwhile stands');
    });

    test('schedule: a rotation asked for while the worker held the domain survives the worker’s next look', async () => {
      const claimed = await claim(clock + 2 * DAY);
      // the API, while the worker plans from what it read before
      await rotation.request(claimed, clock + 2 * DAY + 1);
      await rotation.schedule(claimed, clock + 30 * DAY, null);
      assert.equal(await rotateAt(), clock + 2 * DAY + 1, 'the request keeps the domain due');
      // with nothing written meanwhile, the worker's own time stands
      const again = await claim(clock + 2 * DAY + 1);
      assert.equal(again.requestedAt, clock + 2 * DAY + 1);
      await rotation.schedule(again, clock + 30 * DAY, null);
      assert.equal(await rotateAt(), clock + 30 * DAY);
    });
  });
}
