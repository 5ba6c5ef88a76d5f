// The custom-block example of docs/custom-blocks.md in real Chromium, as a host bundles it: the
// slash command inserts it with the brand colour, its settings form edits it, and getHTML(),
// getText(), getProblems() and the HTML round trip all know it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test-support/browser.js';
import { PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const EXAMPLE = path.join(PACKAGE_DIR, 'docs/examples/product-card.mjs');

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let page: Page;

type Editor = import('../src/editor.js').ServiceEditor;
const call = <T>(fn: (editor: Editor) => T) =>
  page.evaluate(`(${fn.toString()})(window.editor)`) as Promise<Awaited<T>>;

before(async () => {
  // The host's page: the package (from its sources) and the example module, bundled together.
  const bundle = await esbuild.build({
    stdin: {
      contents: `import { ServiceEditor } from '@service/email-builder';
        import { blocks } from ${JSON.stringify(EXAMPLE)};
        window.editor = new ServiceEditor({
          elementId: 'editor', colorScheme: 'light', blocks, branding: { brandColor: '#e11d48' },
          content: { type: 'doc', content: [{ type: 'paragraph' }] },
        });`,
      resolveDir: PACKAGE_DIR,
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'package-sources',
        setup(build) {
          build.onResolve({ filter: /^@service\/email-builder$/ }, () => ({
            path: path.join(PACKAGE_DIR, 'src/index.ts'),
          }));
        },
      },
    ],
  });
  server = await startTestServer({ token: 't' });
  server.setPage(
    '/',
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Custom block</title><link rel="stylesheet" href="/service.css"></head><body><div id="editor"></div><script>${bundle.outputFiles[0]!.text.replaceAll('</script', '<\\/script')}</script></body></html>`,
  );
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await page.goto(`${server.origin}/`);
  await page.locator('.sv-content').waitFor();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('a custom block in the editor', () => {
  it('is inserted from the slash menu with the brand colour, and edited in its settings form', async () => {
    await page.click('.sv-content p');
    await page.keyboard.type('/product');
    await page.locator('.sv-slash [role="option"]', { hasText: 'Product card' }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForSelector('.sv-content [data-block="productCard"]');
    let card = (await call((e) => e.getJSON())).content?.find((n) => n.type === 'productCard');
    assert.equal(card?.attrs?.buttonColor, '#e11d48', 'the brand colour, from its brand()');

    await page.click('.sv-content [data-block="productCard"]');
    await page.waitForSelector('.sv-inspector:not([hidden])');
    await page.fill('.sv-inspector [data-field="title"] input', 'Mug');
    await page.fill('.sv-inspector [data-field="href"] input', 'https://shop.example.com/mug');
    await page.keyboard.press('Tab');
    card = (await call((e) => e.getJSON())).content?.find((n) => n.type === 'productCard');
    assert.equal(card?.attrs?.title, 'Mug');
    assert.equal(card?.attrs?.href, 'https://shop.example.com/mug');
  });

  it('is in getHTML() with its Outlook button, in getText(), and in getProblems() until it has a link', async () => {
    const html = await call((e) => e.getHTML());
    assert.match(html, /data-block="productCard"/);
    assert.match(html, /<v:roundrect[^>]+href="https:\/\/shop\.example\.com\/mug"/);
    assert.match(await call((e) => e.getText()), /Mug\n\$0\.00\nBuy now: https:\/\/shop\.example\.com\/mug/);
    assert.deepEqual(await call((e) => e.getProblems()), []);
    await page.fill('.sv-inspector [data-field="href"] input', '');
    await page.keyboard.press('Tab');
    const problems = await call((e) => e.getProblems());
    assert.deepEqual(
      problems.map((p) => [p.code, p.block]),
      [['SEB_PROBLEM_NO_LINK', 'productCard']],
    );
  });

  it('comes back from its own HTML exactly (setContent(getHTML()))', async () => {
    const before = await call((e) => e.getJSON());
    await call((e) => e.setContent(e.getHTML()));
    assert.deepEqual(await call((e) => e.getJSON()), before);
  });
});
