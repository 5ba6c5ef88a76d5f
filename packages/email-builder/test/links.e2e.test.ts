// Links in real Chromium, from the keyboard: Mod-K at a cursor inserts a link (the address as
// its text, or the text typed in the prompt). Regression (issue 40): Mod-K with nothing
// selected did nothing.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { doc, link, p, t } from '../test-support/doc.js';
import { type EditorSession, openEditorSession } from '../test-support/editor-session.js';
import { PACKAGE_DIR } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'links');

type Win = { editor: import('../src/editor.js').ServiceEditor };

let session: EditorSession;
let page: Page;

const firstParagraph = () =>
  page.evaluate(() => (window as unknown as Win).editor.getJSON().content?.[0]?.content);

/** Replaces the email with `content` and puts the cursor at the end of its first paragraph. */
async function cursorAtEndOf(content: object): Promise<void> {
  await page.keyboard.press('Escape');
  await page.evaluate((c) => (window as unknown as Win).editor.setContent(c), content);
  await page.click('.sv-content p >> nth=0');
  await page.keyboard.press('End');
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session = await openEditorSession(`{ elementId: 'editor', colorScheme: 'light' }`, {
    viewport: { width: 1280, height: 800 },
  });
  page = session.page;
});

after(async () => {
  await session?.close();
});

describe('Mod-K with nothing selected', () => {
  it('opens the link prompt at the cursor and inserts the address as a link, writing going on after it', async () => {
    await cursorAtEndOf(doc(p(t('Read more at '))));
    await page.keyboard.press('ControlOrMeta+k');
    const address = page.getByRole('textbox', { name: 'Link address' });
    await address.waitFor();
    assert.equal(await address.evaluate((el) => el === document.activeElement), true, 'the prompt has focus');
    await page.screenshot({ path: path.join(SHOTS, 'insert-prompt.png') });
    await page.keyboard.type('example.com/news');
    await page.keyboard.press('Enter');
    await page.keyboard.type(' today');
    assert.deepEqual(await firstParagraph(), [
      t('Read more at '),
      t('example.com/news', link('https://example.com/news')),
      t(' today'),
    ]);
  });

  it('shows the text typed in the prompt instead of the address', async () => {
    await cursorAtEndOf(doc(p(t('Visit '))));
    await page.keyboard.press('ControlOrMeta+k');
    await page.getByRole('textbox', { name: 'Link address' }).waitFor();
    await page.keyboard.type('https://shop.example/');
    await page.keyboard.press('Tab');
    await page.keyboard.type('our shop');
    await page.keyboard.press('Enter');
    assert.deepEqual(await firstParagraph(), [t('Visit '), t('our shop', link('https://shop.example/'))]);
  });

  it('inserts nothing when the prompt is closed with Escape', async () => {
    await cursorAtEndOf(doc(p(t('Unchanged'))));
    await page.keyboard.press('ControlOrMeta+k');
    await page.getByRole('textbox', { name: 'Link address' }).waitFor();
    await page.keyboard.type('example.com');
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Link address' }).waitFor({ state: 'hidden' });
    await page.keyboard.type('!');
    assert.deepEqual(await firstParagraph(), [t('Unchanged!')]);
  });
});
