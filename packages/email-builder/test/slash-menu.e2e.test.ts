// The slash menu in real Chromium: multi-word queries ("/heading 2", "/social links"), and
// leaving ordinary writing alone. Regression: a space closed the menu, so "/heading 2" + Enter
// left the literal text.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test-support/browser.js';
import { editorPage, PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'slash-menu');

type Win = { editor: import('../src/editor.js').ServiceEditor };

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let page: Page;

const json = () => page.evaluate(() => (window as unknown as Win).editor.getJSON());
const titles = () => page.$$eval('.sv-slash-item strong', (els) => els.map((e) => e.textContent));
const menuShown = () => page.isVisible('.sv-slash');
async function emptyDoc(): Promise<void> {
  await page.keyboard.press('Escape');
  await page.evaluate(() =>
    (window as unknown as Win).editor.setContent({ type: 'doc', content: [{ type: 'paragraph' }] }),
  );
  await page.click('.sv-content p');
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ token: 't' });
  server.setPage(
    '/',
    editorPage(
      `window.editor = new ServiceEmailBuilder.ServiceEditor({ elementId: 'editor', colorScheme: 'light' });`,
    ),
  );
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await page.goto(`${server.origin}/`);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('slash menu queries with spaces', () => {
  const cases: [string, string, (doc: Awaited<ReturnType<typeof json>>) => void][] = [
    ['heading 2', 'Heading 2', (d) => assert.deepEqual(d.content?.[0]?.attrs?.level, 2)],
    ['columns 3', 'Columns 3 equal', (d) => assert.equal(d.content?.[0]?.content?.length, 3)],
    ['social links', 'Social links', (d) => assert.equal(d.content?.[0]?.type, 'socialLinks')],
    ['2 columns', 'Columns 2 equal', (d) => assert.equal(d.content?.[0]?.attrs?.layout, '2')],
  ];
  for (const [query, title, check] of cases) {
    it(`"/${query}" + Enter inserts ${title}`, async () => {
      await emptyDoc();
      await page.keyboard.type(`/${query}`);
      assert.equal(await menuShown(), true, 'the menu is still open after the space');
      assert.equal((await titles())[0], title);
      if (query === 'heading 2') await page.screenshot({ path: path.join(SHOTS, 'heading-2.png') });
      await page.keyboard.press('Enter');
      const doc = await json();
      check(doc);
      assert.ok(!JSON.stringify(doc).includes(query), 'the typed query is gone');
    });
  }

  it('says honestly when nothing matches, then lets the sentence go on after the next space', async () => {
    await emptyDoc();
    await page.keyboard.type('I paid /xyz');
    assert.equal(await page.textContent('.sv-slash [role="status"]'), 'No blocks match “xyz”');
    await page.keyboard.type(' today');
    assert.equal(await menuShown(), false, 'closed at the space after a query with no results');
    await page.keyboard.press('Enter');
    await page.keyboard.type('next');
    assert.deepEqual(
      (await json()).content?.map((n) => n.content?.[0]?.text),
      ['I paid /xyz today', 'next'],
    );
  });

  it('keeps a query with results open across a space, and closes once words stop matching', async () => {
    await emptyDoc();
    await page.keyboard.type('/heading 9');
    assert.equal(await page.textContent('.sv-slash [role="status"]'), 'No blocks match “heading 9”');
    await page.keyboard.type(' is');
    assert.equal(await menuShown(), false);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    assert.equal(await menuShown(), false, 'a dismissed query stays dismissed');
  });

  it('reopens on a new slash typed where a dismissed one was deleted', async () => {
    await emptyDoc();
    await page.keyboard.type('/xyz ');
    assert.equal(await menuShown(), false);
    for (let i = 0; i < 5; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('/');
    assert.equal(await menuShown(), true);
  });

  it('leaves ordinary writing alone', async () => {
    for (const text of ['Cats and/or dogs', 'a / b', 'see /abcdefghijklmnopqrstuvwxyz']) {
      await emptyDoc();
      await page.keyboard.type(text);
      assert.equal(await menuShown(), false, text);
      await page.keyboard.press('Enter');
      assert.equal((await json()).content?.[0]?.content?.[0]?.text, text);
    }
  });
});
