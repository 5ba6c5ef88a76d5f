// The configuration of the browser-facing routes (templates, images): defaults, and a bad value
// stopping start-up with a message naming the variable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.js';

test('templates, images, CORS and public URL have working defaults', () => {
  const config = loadConfig({});
  assert.deepEqual(config.templates, {
    maxBytes: 262_144,
    bodyLimitBytes: 1_048_576,
    maxPerAccount: 1000,
    maxRenderItems: 20,
    maxRenderOutputBytes: 4_194_304,
    renderBudget: 1200,
    renderThreads: config.templates.renderThreads,
  });
  assert.ok(config.templates.renderThreads >= 1);
  assert.deepEqual(config.images, {
    maxBytes: 10_485_760,
    maxPixels: 50_000_000,
    quotaBytes: 1_073_741_824,
    quotaCount: 10_000,
  });
  assert.equal(config.corsOrigins, '*');
  assert.equal(config.publicUrl, undefined);
});

test('reads each variable', () => {
  const config = loadConfig({
    TEMPLATE_MAX_BYTES: '4096',
    TEMPLATE_BODY_LIMIT_BYTES: '65536',
    MAX_TEMPLATES_PER_ACCOUNT: '5',
    TEMPLATE_RENDER_MAX_ITEMS: '3',
    TEMPLATE_RENDER_MAX_OUTPUT_BYTES: '200000',
    RENDER_BUDGET: '50',
    RENDER_THREADS: '2',
    IMAGE_MAX_BYTES: '2048',
    IMAGE_MAX_PIXELS: '100',
    IMAGE_QUOTA_BYTES: '4096',
    IMAGE_QUOTA_COUNT: '3',
    CORS_ORIGINS: 'https://app.example, https://admin.example/',
    PUBLIC_URL: 'https://api.example.com/',
  });
  assert.deepEqual(config.templates, {
    maxBytes: 4096,
    bodyLimitBytes: 65536,
    maxPerAccount: 5,
    maxRenderItems: 3,
    maxRenderOutputBytes: 200_000,
    renderBudget: 50,
    renderThreads: 2,
  });
  assert.deepEqual(config.images, { maxBytes: 2048, maxPixels: 100, quotaBytes: 4096, quotaCount: 3 });
  assert.deepEqual(config.corsOrigins, ['https://app.example', 'https://admin.example']);
  assert.equal(config.publicUrl, 'https://api.example.com');
});

test('names the variable of a bad value', () => {
  for (const [name, value] of [
    ['TEMPLATE_MAX_BYTES', '12'],
    ['IMAGE_MAX_BYTES', 'ten'],
    ['MAX_TEMPLATES_PER_ACCOUNT', '0'],
    ['CORS_ORIGINS', 'app.example'],
    ['CORS_ORIGINS', 'https://app.example/path'],
    ['PUBLIC_URL', 'ftp://x'],
  ]) {
    assert.throws(
      () => loadConfig({ [name!]: value }),
      (e: Error) => e instanceof ConfigError && e.message.startsWith(name!),
      `${name}=${value}`,
    );
  }
});
