// The editor against the real service, cross-origin in Chromium: HttpTemplateStore over the
// templates API (CORS, scoped key), the picker saving through it, and image uploads to the
// service's own ImageKit-compatible endpoint.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type ApiServer, startApiServer } from '../test-support/api-server.js';
import { launchChromium } from '../test-support/browser.js';
import { editorPage, PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const LOGO = readFileSync(path.join(PACKAGE_DIR, 'test-support/logo-light.png'));

let api: ApiServer;
let web: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let page: Page;
let key: string;

const run = <T = unknown>(code: string): Promise<T> =>
  page.evaluate(`(async () => { const P = window.ServiceEmailBuilder; ${code} })()`) as Promise<T>;
/** Runs `code` and returns the error code it threw, or "no error". */
const fails = (code: string) =>
  run<string>(`try { ${code}; return 'no error'; } catch (e) { return e.code + ': ' + e.message; }`);

before(async () => {
  api = await startApiServer();
  ({ key } = await api.createKey({ name: 'browser', scopes: ['templates', 'images'] }));
  web = await startTestServer({ token: 'unused' });
  web.setPage(
    '/',
    editorPage(`
      window.store = new ServiceEmailBuilder.HttpTemplateStore({ url: '${api.url}/api/public/templates', token: '${key}' });
      window.editor = new ServiceEmailBuilder.ServiceEditor({
        elementId: 'editor', colorScheme: 'light',
        templates: { store: { url: '${api.url}/api/public/templates', token: '${key}' } },
        imageServiceUrl: { url: '${api.url}/api/public/images', token: '${key}' },
      });
    `),
  );
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await page.goto(`${web.origin}/`);
  assert.notEqual(
    new URL(web.origin).port,
    new URL(api.url).port,
    'the page and the API are different origins',
  );
});
after(async () => {
  await browser?.close();
  await web?.close();
  await api?.close();
});

describe('HttpTemplateStore against the real templates API', () => {
  it('creates, lists, reads, renames, replaces and deletes across origins', async () => {
    const result = await run<Record<string, unknown>>(`
      const doc = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello ' }, { type: 'variable', attrs: { name: 'first_name', fallback: 'there' } }] }] };
      const created = await store.create('Hello', doc);
      const listed = await store.list();
      const read = await store.get(created.id);
      const renamed = await store.update(created.id, { name: 'Hello again' });
      const replaced = await store.update(created.id, { document: { type: 'doc', content: [{ type: 'paragraph' }] } });
      await store.remove(created.id);
      return {
        id: created.id,
        listed: listed.map((t) => t.name),
        read: read.document.content[0].content[1],
        renamed: renamed.name,
        replaced: replaced.document.content.length,
        after: (await store.list()).length,
      };
    `);
    assert.match(String(result.id), /^tpl_/);
    assert.deepEqual(result.listed, ['Hello']);
    assert.deepEqual(result.read, { type: 'variable', attrs: { name: 'first_name', fallback: 'there' } });
    assert.equal(result.renamed, 'Hello again');
    assert.equal(result.replaced, 1);
    assert.equal(result.after, 0);
  });

  it('turns the API’s errors into coded errors, checking names before sending', async () => {
    assert.match(await fails(`await store.get('tpl_missing')`), /^SEB_ERR_TEMPLATE_NOT_FOUND/);
    assert.match(await fails(`await store.remove('tpl_missing')`), /^SEB_ERR_TEMPLATE_NOT_FOUND/);
    assert.match(
      await fails(`await store.create('Bad', { type: 'doc', content: [{ type: 'marquee' }] })`),
      /^SEB_ERR_TEMPLATE_STORE: .*TEMPLATE_DOCUMENT_INVALID: .*marquee/,
    );
    assert.match(await fails(`await store.create('   ', { type: 'doc' })`), /^SEB_ERR_TEMPLATE_INVALID/);
    assert.match(
      await fails(
        `await new P.HttpTemplateStore({ url: '${api.url}/api/public/templates', token: 'sk_wrong' }).list()`,
      ),
      /^SEB_ERR_TEMPLATE_STORE: .*AUTH_INVALID/,
    );
    assert.match(
      await fails(
        `await new P.HttpTemplateStore({ url: 'http://127.0.0.1:9/api/public/templates', token: 'x' }).list()`,
      ),
      /^SEB_ERR_TEMPLATE_STORE: .*could not be reached/,
    );
  });

  it('saves the email from the picker through the API, and loads it back', async () => {
    await run(
      `editor.setContent({ type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Quarterly update' }] }] })`,
    );
    await page.click('.sv-tpl-btn');
    await page.waitForSelector('.sv-tpl-empty');
    await page.fill('.sv-tpl-save input', 'Quarterly');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.sv-tpl-item:has-text("Quarterly")');
    // the service has it, for this account
    const listed = await api.request('GET', '/api/public/templates', { key });
    assert.deepEqual(listed.contractProblems, []);
    assert.deepEqual(
      listed.body.data.templates.map((t: { name: string }) => t.name),
      ['Quarterly'],
    );
    await run(`editor.setContent({ type: 'doc', content: [{ type: 'paragraph' }] })`);
    await page.click('[aria-label="Use template Quarterly"]');
    await page.waitForSelector('.sv-templates', { state: 'detached' });
    assert.match(await run<string>('return editor.getHTML()'), /<h1[^>]*>Quarterly update<\/h1>/);
  });
});

describe('image uploads to the service’s own endpoint', () => {
  it('uploads through the ImageKit protocol cross-origin, and the email shows the stored image', async () => {
    await run(`editor.setContent({ type: 'doc', content: [{ type: 'paragraph' }] })`);
    await page.click('.sv-content p');
    await page.keyboard.type('/image');
    await page.keyboard.press('Enter');
    const chooser = page.waitForEvent('filechooser');
    await page.click('.sv-image-empty button:has-text("Upload")');
    await (await chooser).setFiles({ name: 'brand logo.png', mimeType: 'image/png', buffer: LOGO });
    await page.waitForSelector('.sv-image img');
    const html = await run<string>('return editor.getHTML()');
    const src = /<img src="([^"]+)"/.exec(html)?.[1];
    assert.match(String(src), new RegExp(`^${api.url}/images/[0-9a-f]{64}\\.png$`));
    const loaded = await page.evaluate(() => {
      const img = document.querySelector<HTMLImageElement>('.sv-image img')!;
      return img.complete && img.naturalWidth;
    });
    assert.equal(loaded, 264);
  });

  it('shows the service’s error message when it refuses a file', async () => {
    await run(`editor.setContent({ type: 'doc', content: [{ type: 'image' }] })`);
    const chooser = page.waitForEvent('filechooser');
    await page.click('.sv-image-empty button:has-text("Upload")');
    // a PNG by name and type, an SVG by content: the browser cannot tell, the service can
    await (await chooser).setFiles({
      name: 'sneaky.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    await page.waitForSelector('.sv-image-empty .sv-error');
    assert.equal(
      await page.textContent('.sv-image-empty .sv-error'),
      'The image service answered 415: SVG images are refused: they can carry script and email clients do not show them',
    );
  });
});
