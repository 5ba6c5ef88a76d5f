// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/**
 * Production mode (issue 15): `NODE_ENV=production` refused nothing. It started with the
 * development key beside the database, an all-zero SECRET_KEY, DKIM_PROVIDER_HOST=localhost
 * and image URLs built from the request's Host header. Also the file modes of a fresh
 * DATA_DIR, and no source maps served.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from './config.js';
import {
  keyIsText,
  keyLooksRandom,
  MIN_DISTINCT_KEY_BYTES,
  productionProblems,
  productionWarnings,
} from './production.js';
import { repoRoot, runProcess, startServerProcess } from './test-support/processes.js';
import { startTestServer } from './test-support/test-server.js';

const GOOD = {
  NODE_ENV: 'production',
  SECRET_KEY: randomBytes(32).toString('base64'),
  DKIM_PROVIDER_HOST: 'mail-provider.example.com',
  PUBLIC_URL: 'https://api.example.com',
};

describe('production problems', () => {
  test('a complete production configuration has none', () => {
    assert.deepEqual(productionProblems(loadConfig(GOOD)), []);
  });

  test('names each variable at fault, all at once', () => {
    const problems = productionProblems(loadConfig({ NODE_ENV: 'production' }));
    assert.equal(problems.length, 3);
    assert.match(problems[0]!, /^SECRET_KEY is unset: .*openssl rand -base64 32/);
    assert.match(
      problems[1]!,
      /^DKIM_PROVIDER_HOST is "localhost", which no resolver on the Internet can reach/,
    );
    assert.match(problems[2]!, /^PUBLIC_URL is unset: .*Host header/);
  });

  test('refuses keys that were not drawn at random, and host names nobody can resolve', () => {
    for (const key of ['0'.repeat(64), 'ab'.repeat(32), '0123456789abcdef'.repeat(4)]) {
      const [problem] = productionProblems(loadConfig({ ...GOOD, SECRET_KEY: key }));
      assert.match(problem ?? '', /^SECRET_KEY has only \d+ distinct byte values among its 32/, key);
    }
    for (const host of ['mail.localhost', 'dkim.test', 'corp.internal', 'example', '127.0.0.1']) {
      const [problem] = productionProblems(loadConfig({ ...GOOD, DKIM_PROVIDER_HOST: host }));
      assert.match(problem ?? '', /^DKIM_PROVIDER_HOST is/, host);
    }
  });

  test('refuses the tests-only switches, a plain-http PUBLIC_URL and a typed passphrase (issue 33)', () => {
    for (const variable of [
      'WEBHOOK_ALLOW_PRIVATE_URLS',
      'DOMAIN_CONNECT_ALLOW_PRIVATE_URLS',
      'SMTP_ALLOW_PRIVATE_MX',
    ]) {
      const problems = productionProblems(loadConfig({ ...GOOD, [variable]: 'true' }));
      assert.equal(problems.length, 1, variable);
      assert.match(problems[0]!, new RegExp(`^${variable}=true would let .*: unset it$`));
    }
    const [http] = productionProblems(loadConfig({ ...GOOD, PUBLIC_URL: 'http://api.example.com' }));
    assert.match(http ?? '', /^PUBLIC_URL is "http:\/\/api\.example\.com": .*plain http/);
    const passphrase = Buffer.from('correct horse battery staple 42!').toString('base64');
    const [typed] = productionProblems(loadConfig({ ...GOOD, SECRET_KEY: passphrase }));
    assert.match(typed ?? '', /^SECRET_KEY decodes to 32 printable characters/);
  });

  test('a random key is text with a probability below 2 × 10^-14; TRUST_PROXY is a warning only', () => {
    assert.ok((95 / 256) ** 32 < 2e-14);
    for (let i = 0; i < 2000; i++) assert.ok(!keyIsText(randomBytes(32)));
    assert.deepEqual(productionWarnings(loadConfig(GOOD)), []);
    const trusting = loadConfig({ ...GOOD, TRUST_PROXY: 'true' });
    assert.deepEqual(productionProblems(trusting), []);
    assert.match(productionWarnings(trusting)[0] ?? '', /^TRUST_PROXY=true: .*X-Forwarded-For/);
  });

  test('a random key passes the entropy rule, except with a probability below 10^-15', () => {
    for (let i = 0; i < 2000; i++) assert.ok(keyLooksRandom(randomBytes(32)));
    // P(32 random bytes take fewer than MIN_DISTINCT_KEY_BYTES values), by the occupancy recurrence.
    let p = [1];
    for (let draw = 0; draw < 32; draw++) {
      const next = new Array(p.length + 1).fill(0);
      p.forEach((q, k) => {
        next[k] += (q * k) / 256;
        next[k + 1] += (q * (256 - k)) / 256;
      });
      p = next;
    }
    const weak = p.slice(0, MIN_DISTINCT_KEY_BYTES).reduce((a, b) => a + b, 0);
    assert.ok(weak < 1e-15, `P = ${weak}`);
  });
});

describe('the built server in production mode', () => {
  test('refuses to start with development settings: exit 2, one line per variable', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'production-'));
    const result = await runProcess(process.execPath, [path.join(repoRoot, 'packages/server/dist/main.js')], {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: '0',
      SECRET_KEY: '',
      DKIM_PROVIDER_HOST: '',
      PUBLIC_URL: '',
    });
    assert.equal(result.code, 2, result.stderr);
    const lines = result.stderr.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => /^configuration error: (\w+)/.exec(l)?.[1] ?? l),
      [
        'SECRET_KEY',
        'DKIM_PROVIDER_HOST',
        'PUBLIC_URL',
        'NODE_ENV=production refuses to start until these are fixed',
      ],
    );
    assert.deepEqual(readdirSync(dataDir), [], 'nothing created: no development key, no database');
  });

  test('starts with production settings', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'production-'));
    const server = await startServerProcess({ ...GOOD, DATA_DIR: dataDir, DNS_RESOLVERS: '127.0.0.1:9' });
    try {
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    } finally {
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    }
  });
});

describe('files and pages', () => {
  test('a fresh DATA_DIR is 0700 and its files 0600', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'modes-'));
    const dataDir = path.join(parent, 'data');
    const t = await startTestServer({ DATA_DIR: dataDir, SECRET_KEY: '' });
    try {
      const { key } = await t.createKey({ scopes: ['images'] });
      const form = new FormData();
      form.append(
        'file',
        new Blob([readFileSync(new URL('./test-support/images/logo.png', import.meta.url))]),
        'logo.png',
      );
      const upload = await fetch(`${t.url}/api/public/images`, {
        method: 'POST',
        body: form,
        headers: { authorization: key },
      });
      assert.equal(upload.status, 200);
      const mode = (p: string) => (statSync(path.join(dataDir, p)).mode & 0o777).toString(8);
      assert.equal(mode('.'), '700');
      assert.equal(mode('images'), '700');
      const files = readdirSync(dataDir).filter((f) => f !== 'images');
      if (t.server.store.kind === 'sqlite') assert.ok(files.includes('service.sqlite-wal'), files.join());
      for (const file of files) assert.equal(mode(file), '600', file);
      for (const file of readdirSync(path.join(dataDir, 'images')))
        assert.equal(mode(`images/${file}`), '600', file);
    } finally {
      await t.close();
    }
  });

  test('no source map is served, and no served script points to one', async () => {
    const t = await startTestServer();
    try {
      const scripts = new Set<string>();
      for (const page of ['/', '/domains']) {
        const html = await (await fetch(`${t.url}${page}`)).text();
        for (const [, src] of html.matchAll(/<script[^>]+src="([^"]+)"/g))
          scripts.add(new URL(src!, `${t.url}${page}`).pathname);
      }
      assert.ok(scripts.size > 0);
      for (const script of scripts) {
        const js = await (await fetch(`${t.url}${script}`)).text();
        assert.doesNotMatch(js, /sourceMappingURL/, script);
        assert.equal((await fetch(`${t.url}${script}.map`)).status, 404, `${script}.map`);
      }
      const built = readdirSync(path.join(repoRoot, 'packages/server/dist/web'));
      assert.deepEqual(
        built.filter((f) => f.endsWith('.map')),
        [],
      );
    } finally {
      await t.close();
    }
  });
});
