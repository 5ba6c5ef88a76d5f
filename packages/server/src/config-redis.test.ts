// REDIS_URL (issue 19): unset keeps the per-process rate limits; a bad value stops start-up
// naming the variable, without echoing the URL, which may hold a password.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.js';

test('REDIS_URL unset: no Redis, each process counts its own', () => {
  assert.equal(loadConfig({}).redis, undefined);
});

test('REDIS_URL: redis:// and rediss:// with a 200 ms default timeout', () => {
  assert.deepEqual(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redis, {
    url: 'redis://127.0.0.1:6379/2',
    timeoutMs: 200,
  });
  assert.deepEqual(
    loadConfig({ REDIS_URL: 'rediss://u:p@cache.internal:6380', REDIS_TIMEOUT_MS: '50' }).redis,
    {
      url: 'rediss://u:p@cache.internal:6380',
      timeoutMs: 50,
    },
  );
});

test('a bad REDIS_URL is refused without being echoed', () => {
  assert.throws(
    () => loadConfig({ REDIS_URL: 'http://user:s3cret@cache:6379' }),
    (error: Error) =>
      error instanceof ConfigError &&
      /REDIS_URL must be a redis:\/\//.test(error.message) &&
      !error.message.includes('s3cret'),
  );
  assert.throws(() => loadConfig({ REDIS_URL: 'redis://x', REDIS_TIMEOUT_MS: '0' }), /REDIS_TIMEOUT_MS/);
});
