// The DKIM key pairs the tests' servers share (packages/server/src/test-support/dkim-test-keys.ts):
// RSA-2048, generated once and kept in node_modules/.cache, so a second `npm test` reuses them.
import { generateKeyPair } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/** How many: more than the most keys one test process asks for (about 200), so none repeats. */
export const TEST_KEY_COUNT = 256;

/** Makes sure `dir/dkim-test-keys.txt` holds TEST_KEY_COUNT keys; returns its path. */
export async function ensureTestKeys(dir) {
  const file = path.join(dir, 'dkim-test-keys.txt');
  if (existsSync(file) && readFileSync(file, 'utf8').split('\n').filter(Boolean).length >= TEST_KEY_COUNT)
    return file;
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const keys = await Promise.all(
    Array.from({ length: TEST_KEY_COUNT }, () =>
      generate('rsa', {
        modulusLength: 2048,
        publicExponent: 0x10001,
        publicKeyEncoding: { type: 'spki', format: 'der' },
        privateKeyEncoding: { type: 'pkcs8', format: 'der' },
      }).then(({ privateKey }) => privateKey.toString('base64')),
    ),
  );
  writeFileSync(`${file}.tmp`, `${keys.join('\n')}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  console.log(
    `${TEST_KEY_COUNT} DKIM keys for the tests generated in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return file;
}
