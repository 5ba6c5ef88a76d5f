// The toolbar's colour scheme in real Chromium: a menu button offering Auto, Light and Dark as
// radio items that show the current one, by mouse and keyboard, in step with
// `setColorScheme()` and the `theme` event. Regression (issue 40): the button cycled
// auto → light → dark, so on a light system its first click changed nothing visible.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations } from '../test-support/axe.js';
import { type EditorSession, openEditorSession } from '../test-support/editor-session.js';
import { PACKAGE_DIR } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'colour-scheme');

type Win = {
  editor: import('../src/editor.js').ServiceEditor;
  themes: { scheme: string; colorScheme: string }[];
};

let session: EditorSession;
let page: Page;

const button = () => page.getByRole('button', { name: /^Colour scheme/ });
/** Each choice of the open menu: its name and aria-checked. */
const choices = () =>
  page.$$eval('[role="menu"]:not([hidden]) [role="menuitemradio"]', (items) =>
    items.map((i) => [i.textContent, i.getAttribute('aria-checked')]),
  );
const theme = () => page.getAttribute('.sv-root', 'data-theme');

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session = await openEditorSession(`{ elementId: 'editor' }`, {
    viewport: { width: 1000, height: 700 },
    colorScheme: 'light',
  });
  page = session.page;
  await page.evaluate(() => {
    const w = window as unknown as Win;
    w.themes = [];
    w.editor.on('theme', (e) => w.themes.push(e));
  });
});

after(async () => {
  await session?.close();
});

describe('colour scheme menu', () => {
  it('offers Auto, Light and Dark with the current one checked, and Dark turns the editor dark at the first pick', async () => {
    assert.equal(await button().getAttribute('aria-haspopup'), 'menu');
    assert.equal(await button().getAttribute('aria-label'), 'Colour scheme: auto (light)');
    await button().click();
    assert.equal(await button().getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await choices(), [
      ['Auto (follow the system)', 'true'],
      ['Light', 'false'],
      ['Dark', 'false'],
    ]);
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: path.join(SHOTS, 'menu-open.png') });
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    assert.equal(await theme(), 'dark');
    assert.equal(await page.isHidden('[role="menu"][aria-label="Colour scheme"]'), true);
    assert.equal(await button().getAttribute('aria-label'), 'Colour scheme: dark');
    assert.equal(await page.evaluate(() => (window as unknown as Win).editor.getColorScheme()), 'dark');
    assert.deepEqual(await page.evaluate(() => (window as unknown as Win).themes), [
      { scheme: 'dark', colorScheme: 'dark' },
    ]);
  });

  it('works from the keyboard: the current choice takes the focus, arrows move, Enter picks, Escape closes', async () => {
    await button().focus();
    await page.keyboard.press('Enter');
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Dark',
      'the checked choice has the focus',
    );
    await page.keyboard.press('ArrowDown'); // wraps to Auto
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => (window as unknown as Win).editor.getColorScheme()), 'light');
    assert.equal(await theme(), 'light');
    assert.equal(
      await page.evaluate(() => document.activeElement?.classList.contains('sv-theme-btn')),
      true,
      'focus back on the button',
    );
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    assert.equal(await button().getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => (window as unknown as Win).editor.getColorScheme()), 'light');
  });

  it('follows setColorScheme(), which tells the theme event the scheme chosen as well as the one shown', async () => {
    await page.evaluate(() => (window as unknown as Win).editor.setColorScheme('auto'));
    await button().click();
    assert.deepEqual(
      (await choices()).map(([, checked]) => checked),
      ['true', 'false', 'false'],
    );
    await page.keyboard.press('Escape');
    assert.deepEqual((await page.evaluate(() => (window as unknown as Win).themes)).slice(-1), [
      { scheme: 'light', colorScheme: 'auto' },
    ]);
  });
});
