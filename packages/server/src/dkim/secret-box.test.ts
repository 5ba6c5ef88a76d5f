import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { childImport } from '../test-support/child-import.js';
import { open, SecretBoxError, seal } from './secret-box.js';
import { resolveSecretKey, secretKeyFile } from './secret-key.js';

const key = randomBytes(32);

test('a sealed private key opens with the same key and token, and only then', () => {
  const secret = Buffer.from('-----PKCS8 bytes-----');
  const sealed = seal(key, secret, 'tok1');
  assert.match(sealed, /^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
  assert.ok(!sealed.includes(secret.toString('base64')));
  assert.deepEqual(open(key, sealed, 'tok1'), secret);
  assert.throws(() => open(randomBytes(32), sealed, 'tok1'), SecretBoxError);
  assert.throws(() => open(key, sealed, 'tok2'), SecretBoxError, 'bound to its token');
  const [v, nonce, ct, tag] = sealed.split('.');
  const flipped = Buffer.from(ct!, 'base64');
  flipped[0]! ^= 1;
  assert.throws(
    () => open(key, [v, nonce, flipped.toString('base64'), tag].join('.'), 'tok1'),
    SecretBoxError,
  );
  assert.throws(() => open(key, 'v2.a.b.c', 'tok1'), /not a sealed v1 value/);
  assert.notEqual(seal(key, secret, 'tok1'), sealed, 'a fresh nonce each time');
  assert.throws(() => seal(randomBytes(16), secret, 'x'), RangeError);
});

test('without SECRET_KEY a development key is created in DATA_DIR with mode 0600 and reused', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'secret-key-'));
  try {
    const first = resolveSecretKey(undefined, dir);
    assert.equal(first.origin, 'generated');
    assert.match(first.warning!, /SECRET_KEY is unset/);
    assert.ok(!first.warning!.includes(first.key.toString('base64')), 'the warning never shows the key');
    assert.equal(statSync(secretKeyFile(dir)).mode & 0o777, 0o600);
    const again = resolveSecretKey(undefined, dir);
    assert.equal(again.origin, 'file');
    assert.deepEqual(again.key, first.key);

    const configured = randomBytes(32);
    assert.deepEqual(resolveSecretKey(configured, dir), { key: configured, origin: 'env' });

    writeFileSync(secretKeyFile(dir), 'short\n');
    assert.throws(() => resolveSecretKey(undefined, dir), /does not hold a 32-byte base64 key/);
    assert.equal(readFileSync(secretKeyFile(dir), 'utf8'), 'short\n', 'a bad key file is never replaced');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('regression: processes starting at once on one DATA_DIR all get the one development key (one read a half-written file and refused to start)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'secret-key-race-'));
  const secretKey = childImport(import.meta.url, './secret-key.ts');
  // each process loads, then waits for the same moment to look for the key: starting together.
  // It sleeps until 30 ms before and spins only those (thirty processes spinning for the whole
  // wait were 19 s of the run's CPU).
  const script = (at: number) =>
    `const { resolveSecretKey } = await import(${JSON.stringify(secretKey.href)}); await new Promise((r) => setTimeout(r, ${at} - 30 - Date.now())); while (Date.now() < ${at}); process.stdout.write(resolveSecretKey(undefined, ${JSON.stringify(dir)}).key.toString('base64'));`;
  try {
    for (let round = 0; round < 5; round++) {
      rmSync(secretKeyFile(dir), { force: true });
      const at = Date.now() + 2_500;
      const keys = await Promise.all(
        Array.from({ length: 6 }, () => {
          const child = spawn(
            process.execPath,
            [...secretKey.nodeArgs, '--input-type=module', '-e', script(at)],
            {
              stdio: ['ignore', 'pipe', 'pipe'],
            },
          );
          let out = '';
          let err = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (err += d));
          return new Promise<string>((resolve, reject) =>
            child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(err)))),
          );
        }),
      );
      assert.equal(new Set(keys).size, 1, 'one key for all');
      assert.equal(readFileSync(secretKeyFile(dir), 'utf8').trim(), keys[0]);
      assert.deepEqual(
        readdirSync(dir).filter((f) => f !== 'secret.key'),
        [],
        'no draft left behind',
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
