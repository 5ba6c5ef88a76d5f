// The DKIM key pairs the tests' servers share (packages/server/src/test-support/dkim-test-keys.ts):
// RSA-2048, one base64 PKCS#8 DER private key per line, made by the product's own
// `generateKeyPair` call.
//
// They are checked in (packages/server/src/test-support/dkim-test-keys.txt), not made per run
// (issue 41): making them took 38 s of one core on every fresh clone, the whole of the other
// core while the packages built, so the builds could not run side by side. They are test data
// only: no code outside the tests reads them, and no domain outside the tests' own zones is ever
// signed with them. `node scripts/test-keys.mjs --write` makes a new set.
import { generateKeyPair } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** How many: more than the most keys one test process asks for (about 200), so none repeats. */
export const TEST_KEY_COUNT = 256;
export const TEST_KEYS_FILE = path.join(root, 'packages/server/src/test-support/dkim-test-keys.txt');

const keysIn = (file) =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;

/** The checked-in keys' file, or fails saying how to make it when it is missing or short. */
export function testKeysFile() {
  const count = keysIn(TEST_KEYS_FILE);
  if (count < TEST_KEY_COUNT)
    throw new Error(
      `${path.relative(root, TEST_KEYS_FILE)} holds ${count} keys, not ${TEST_KEY_COUNT}: run \`node scripts/test-keys.mjs --write\``,
    );
  return TEST_KEYS_FILE;
}

async function writeTestKeys() {
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
  writeFileSync(`${TEST_KEYS_FILE}.tmp`, `${keys.join('\n')}\n`);
  renameSync(`${TEST_KEYS_FILE}.tmp`, TEST_KEYS_FILE);
  console.log(
    `${TEST_KEY_COUNT} DKIM keys written to ${path.relative(root, TEST_KEYS_FILE)} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== '--write') {
    console.error('usage: node scripts/test-keys.mjs --write   (replaces the tests’ DKIM keys)');
    process.exit(2);
  }
  await writeTestKeys();
}
