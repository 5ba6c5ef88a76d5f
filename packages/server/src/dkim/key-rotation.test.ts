/**
 * The rotation worker over real stores (SQLite and PostgreSQL) with its own clock, through
 * months of rotations: interval 5 days, retired keys kept 7. Real RSA keys, the real signer.
 * Whether a key is served is answered by the test (`served`): over the wire, with BIND as a
 * secondary and mailauth, it is `rotation-end-to-end.test.ts`.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { dkimKeyRecord, txtStrings } from '../dns/key-record.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import { DkimRotationStore } from '../store/dkim-rotation-store.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { openStore } from '../store/open.js';
import { VerificationStore } from '../store/verification-store.js';
import { registerWithKeys } from '../test-support/dkim.js';
import { type PostgresServer, startPostgres } from '../test-support/postgres.js';
import { generateDkimKeyPair } from './key-pair.js';
import { CONFIRM_AFTER_REPLACE_MS, DkimKeyRotator } from './key-rotation.js';
import { UNCONFIRMED_RETRY_MS } from './rotation-plan.js';
import { DkimSigner } from './signer.js';

const DAY = 86_400_000;
const MESSAGE = 'From: a@rotate.example.test\r\nTo: b@example.org\r\nSubject: hi\r\n\r\nhello\r\n';

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`DKIM rotation over months, on ${backend}`, () => {
    let store: KyselyStore;
    let postgres: PostgresServer | undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rotation-'));
    const secretKey = randomBytes(32);
    let clock = Date.UTC(2026, 0, 1);
    let served = true;
    const asked: string[] = [];
    let generated = 0;
    let rotator: DkimKeyRotator;
    let keys: DkimKeyStore;
    let signer: DkimSigner;
    let domainId: string;
    let tokens: string[];
    let signedOnDay10: Buffer;

    before(async () => {
      if (backend === 'postgres') postgres = await startPostgres();
      store = await openStore({ dataDir, databaseUrl: await postgres?.createDatabase() });
      keys = new DkimKeyStore(store.db);
      signer = new DkimSigner({ keys, secretKey });
      rotator = new DkimKeyRotator({
        store: new DkimRotationStore(store.db, store.kind),
        settings: { intervalMs: 5 * DAY, retiredKeepMs: 7 * DAY, propagationMs: 3_000 },
        secretKey,
        generate: () => {
          generated += 1;
          return generateDkimKeyPair();
        },
        isServed: async (token) => {
          asked.push(token);
          return served;
        },
        intervalMs: 1_000,
        batchSize: 10,
        leaseMs: 60_000,
        now: () => clock,
      });
      ({ domainId, tokens } = await registerWithKeys(store, 'rotate.example.test', clock, secretKey));
      // the customer published the three CNAMEs: the checks found them
      await store.db.updateTable('domains').set({ status: 'verified' }).where('id', '=', domainId).execute();
      await store.db
        .updateTable('domain_records')
        .set({ status: 'verified' })
        .where('domain_id', '=', domainId)
        .execute();
    });
    after(async () => {
      await store?.close();
      if (postgres) await new Promise((resolve) => setTimeout(resolve, 200));
      await postgres?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** The selectors' states and the domain's rotation columns, as the status shows them. */
    const state = async () => {
      const domain = await new VerificationStore(store.db, store.kind, store.domainCache).load(domainId);
      assert.ok(domain);
      return {
        states: domain.records.filter((r) => r.kind === 'dkim').map((r) => r.key?.state ?? null),
        since: domain.records.filter((r) => r.kind === 'dkim').map((r) => r.key?.since ?? null),
        created: domain.records.filter((r) => r.kind === 'dkim').map((r) => r.key?.createdAt ?? null),
        rotation: domain.dkimRotation,
      };
    };
    /** mailauth's verdict, with each selector's key as the zone publishes it now. */
    const verify = async (message: Buffer) => {
      const { results } = await dkimVerify(message, {
        resolver: async (name: string) => {
          const key = await keys.findKey(name.split('.')[0]!);
          return key ? [txtStrings(dkimKeyRecord(key.revokedAt === null ? key.publicKey : null))] : [];
        },
      });
      return results[0]!.status.result;
    };
    const publicKey = async (token: string) => (await keys.findKey(token))!.publicKey;
    const signingSelector = async () =>
      (await signer.sign(MESSAGE, { domain: 'rotate.example.test' })).selector;
    const at = (days: number, ms = 0) => {
      clock = Date.UTC(2026, 0, 1) + days * DAY + ms;
    };

    test('the first selector signs; the two next keys are confirmed served before anything else', async () => {
      await rotator.drain();
      const now = await state();
      assert.deepEqual(now.states, ['active', 'next', 'next']);
      assert.deepEqual(now.since, [clock, clock, clock]);
      assert.deepEqual(asked.sort(), [tokens[1], tokens[2]].sort());
      assert.equal(now.rotation.nextRotationAt, clock + 5 * DAY);
      assert.equal(await signingSelector(), tokens[0]);
    });

    test('nothing happens before the interval is up', async () => {
      at(5, -1);
      await rotator.drain();
      assert.deepEqual((await state()).states, ['active', 'next', 'next']);
      assert.equal(rotator.rotations, 0);
    });

    test('day 5: signing moves to the next selector; the active one retires, its key still served', async () => {
      at(5);
      const before = await publicKey(tokens[0]!);
      await rotator.drain();
      const now = await state();
      assert.deepEqual(now.states, ['retired', 'active', 'next']);
      assert.equal(now.rotation.rotatedAt, clock);
      assert.equal(now.rotation.nextRotationAt, clock + 5 * DAY);
      assert.equal(await publicKey(tokens[0]!), before, 'the retired key is still the one published');
      assert.equal(await signingSelector(), tokens[1]);
    });

    test('day 10: the third selector signs; two retired keys are kept, no new key yet', async () => {
      at(10);
      await rotator.drain();
      const now = await state();
      assert.deepEqual(now.states, ['retired', 'retired', 'active']);
      assert.equal(generated, 0);
      // the first retired on day 5 is free on day 12: a new key, then the switch on day 15
      assert.equal(now.rotation.nextRotationAt, clock + 5 * DAY);
      assert.equal(await signingSelector(), tokens[2]);
      signedOnDay10 = (await signer.sign(MESSAGE, { domain: 'rotate.example.test' })).message;
    });

    test('day 12: the selector retired longest gets a new key once its keeping ends; it is confirmed before it can sign', async () => {
      at(12, -1);
      await rotator.drain();
      assert.equal(generated, 0, 'kept 7 days to the millisecond');
      at(12);
      const old = await publicKey(tokens[0]!);
      served = false;
      asked.length = 0;
      await rotator.drain();
      let now = await state();
      assert.equal(generated, 1);
      assert.deepEqual(now.states, ['next', 'retired', 'active']);
      assert.equal(now.created[0], clock);
      assert.equal(now.since[0], null, 'not yet seen served');
      assert.notEqual(await publicKey(tokens[0]!), old, 'a new key behind the same selector');

      at(12, CONFIRM_AFTER_REPLACE_MS);
      await rotator.drain();
      assert.deepEqual(asked, [tokens[0]]);
      assert.equal((await state()).since[0], null, 'a secondary does not serve it yet: no confirmation');

      served = true;
      at(12, CONFIRM_AFTER_REPLACE_MS + UNCONFIRMED_RETRY_MS);
      await rotator.drain();
      now = await state();
      assert.equal(now.since[0], clock);
      assert.equal(await signingSelector(), tokens[2], 'a next key never signs while the active one can');
    });

    test('day 15: the new key signs; it and mail signed by the retired key verify with the keys published', async () => {
      at(15);
      await rotator.drain();
      const now = await state();
      assert.deepEqual(now.states, ['active', 'retired', 'retired']);
      assert.equal(rotator.rotations, 3);
      const signed = await signer.sign(MESSAGE, { domain: 'rotate.example.test' });
      assert.equal(signed.selector, tokens[0]);
      assert.equal(await verify(signed.message), 'pass');
      assert.equal(await verify(signedOnDay10), 'pass', 'mail signed on day 10 by a key now retired');
    });

    test('an operator revoking the active key: signing falls back at once, and the revoked selector gets a new key', async () => {
      at(16);
      assert.equal(await keys.revoke(tokens[0]!, clock), true);
      // until the worker acts, a retired key still served signs
      assert.equal(await signingSelector(), tokens[1]);
      const before = generated;
      await rotator.drain();
      let now = await state();
      assert.equal(generated, before + 1);
      assert.deepEqual(now.states, ['next', 'retired', 'retired']);
      at(16, CONFIRM_AFTER_REPLACE_MS);
      await rotator.drain();
      at(16, CONFIRM_AFTER_REPLACE_MS + 3_000);
      await rotator.drain();
      now = await state();
      assert.deepEqual(now.states, ['active', 'retired', 'retired']);
      assert.equal(await signingSelector(), tokens[0]);
    });
  });
}
