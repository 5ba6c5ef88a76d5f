/**
 * DKIM key pairs for the tests' servers, made once (checked in) instead of once per
 * domain. Every registration asks for three RSA-2048 keys (0.15–0.25 s of CPU each), and the
 * test servers register thousands: a fifth of the whole run's CPU went to making keys that no
 * test looked at twice (issue 41).
 *
 * `scripts/test.mjs` names the keys' file in `TEST_DKIM_KEYS`: `dkim-test-keys.txt` beside this
 * module, checked in (scripts/test-keys.mjs says why), one base64 PKCS#8 DER private key per
 * line, made by the same `generateKeyPair` call as the product's. This
 * process hands them out in order, so its servers get distinct keys up to the file's count.
 * Without the variable (a test file run on its own) the servers generate their own, as in
 * production. The tests of key generation itself (`keygen-pool`, `key-generator`,
 * `crash-keygen`, and every server started as a process) always generate.
 */
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type DkimKeyPair, privateKeyObject } from '../dkim/key-pair.js';

let keys: Buffer[] | undefined;
let next = 0;

/** The run's key source, or undefined when the run made none. */
export function testDkimKeys(): (() => Promise<DkimKeyPair>) | undefined {
  const file = process.env.TEST_DKIM_KEYS;
  if (!file) return undefined;
  keys ??= readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => Buffer.from(line, 'base64'));
  const pool = keys;
  return async () => {
    const privateKey = pool[next++ % pool.length]!;
    const publicKey = createPublicKey(privateKeyObject(privateKey))
      .export({ type: 'spki', format: 'der' })
      .toString('base64');
    return { publicKey, privateKey };
  };
}
