// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/**
 * The editor's custom blocks on the server (`EDITOR_BLOCKS`): the docs' product card, a module
 * outside the package, is checked when a template is saved and rendered as the editor renders it;
 * without the variable the same template is refused; a bad module stops the start.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../../config.js';
import { startServer } from '../../server.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const EXAMPLE = fileURLToPath(
  new URL('../../../../email-builder/docs/examples/product-card.mjs', import.meta.url),
);
const DOCUMENT = {
  type: 'doc',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: 'Hello {{first_name}}' }] },
    {
      type: 'productCard',
      attrs: { title: 'Mug for {{first_name}}', price: '$12.00', href: 'https://shop.example.com/mug' },
    },
  ],
};

describe('custom blocks on the server', () => {
  let withBlocks: TestServer;
  let without: TestServer;
  let key: string;
  let plainKey: string;
  before(async () => {
    withBlocks = await startTestServer({ EDITOR_BLOCKS: EXAMPLE });
    ({ key } = await withBlocks.createKey({ scopes: ['templates'] }));
    without = await startTestServer();
    ({ key: plainKey } = await without.createKey({ scopes: ['templates'] }));
  });
  after(async () => {
    await withBlocks?.close();
    await without?.close();
  });

  test('a template holding the block is saved and rendered as the editor renders it', async () => {
    const saved = await withBlocks.request('POST', '/api/public/templates', {
      key,
      body: { templates: [{ name: 'Card', document: DOCUMENT }] },
    });
    assert.equal(saved.body[0].status, 200, JSON.stringify(saved.body[0].error));
    const id = saved.body[0].data.id;
    const rendered = await withBlocks.request('POST', '/api/public/templates/render', {
      key,
      body: { templates: [{ id, variables: { first_name: 'Ann <3' } }] },
    });
    assert.equal(rendered.body[0].status, 200, JSON.stringify(rendered.body[0].error));
    const { html, text } = rendered.body[0].data;
    assert.match(html, /data-block="productCard"/);
    assert.match(html, /Mug for Ann &lt;3/);
    assert.match(html, /<v:roundrect[^>]+href="https:\/\/shop\.example\.com\/mug"/);
    assert.match(text, /Mug for Ann <3\n\$12\.00\nBuy now: https:\/\/shop\.example\.com\/mug/);
  });

  test('without EDITOR_BLOCKS the same template is refused, naming the block', async () => {
    const saved = await without.request('POST', '/api/public/templates', {
      key: plainKey,
      body: { templates: [{ name: 'Card', document: DOCUMENT }] },
    });
    assert.equal(saved.body[0].status, 400);
    assert.equal(saved.body[0].error.code, 'TEMPLATE_DOCUMENT_INVALID');
    assert.match(saved.body[0].error.message, /productCard/);
  });

  test('a missing module, or one without usable blocks, stops the start naming EDITOR_BLOCKS', async () => {
    assert.throws(
      () => loadConfig({ EDITOR_BLOCKS: '/nonexistent/blocks.mjs' }),
      (e: unknown) => {
        return e instanceof ConfigError && /EDITOR_BLOCKS must name an ES module file/.test(e.message);
      },
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'blocks-'));
    for (const [file, source, reason] of [
      ['none.mjs', 'export const other = 1;', /EDITOR_BLOCKS must name a module exporting `blocks`/],
      [
        'taken.mjs',
        'export const blocks = [{ name: "paragraph", attrs: {}, spec: {}, render() { return ""; }, text() { return ""; } }];',
        /EDITOR_BLOCKS: SEB_ERR_BLOCK: .*a block of that name exists already/,
      ],
      ['broken.mjs', 'export const blocks = [;', /EDITOR_BLOCKS: .*could not be loaded/],
    ] as const) {
      writeFileSync(path.join(dir, file), source);
      const config = loadConfig({ EDITOR_BLOCKS: path.join(dir, file), DATA_DIR: dir, LOG_LEVEL: 'silent' });
      await assert.rejects(
        startServer(config),
        (e: unknown) => e instanceof ConfigError && reason.test(e.message),
      );
    }
  });
});
