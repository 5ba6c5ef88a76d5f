// Popover placement in real Chromium: the slash menu, the bubble menu and the block menu stay
// inside the viewport. They open below the caret when they fit, above when only that fits, and
// otherwise on the roomier side with a capped height that scrolls; they follow the page and
// the editor's own scroll box, and hide while what they point at is scrolled out of view.
// Regression for the slash menu opening off-screen under a caret near the window's bottom (637–977
// px in a 720 px viewport) and the bubble menu left at top:-186 after scrolling.
// Screenshots in test-results/popovers/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { doc, p, t } from '../test-support/doc.js';
import { type EditorSession, openEditorSession } from '../test-support/editor-session.js';
import { PACKAGE_DIR } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'popovers');

type Win = { editor: import('../src/editor.js').ServiceEditor };
type Rect = { top: number; bottom: number; left: number; right: number; height: number };

let session: EditorSession;
let page: Page;

/** Sixty lines with an empty paragraph as the 31st block, to type "/" into. */
const LINES = doc(
  ...Array.from({ length: 60 }, (_, i) => (i === 30 ? p() : p(t(`Line ${i + 1} of a long email`)))),
);
const TARGET = '.sv-content > p:nth-child(31)';
const WORD = '.sv-content > p:nth-child(34)';

const rect = (selector: string): Promise<Rect> =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
  });
const viewport = () =>
  page.evaluate(() => ({
    width: document.documentElement.clientWidth,
    height: document.documentElement.clientHeight,
  }));
/** Waits until scroll and resize events have been delivered (they go out with the next frame). */
const frames = () =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
/** Scrolls the window so that `selector`'s top is at viewport y `y`. */
async function scrollTopTo(selector: string, y: number): Promise<void> {
  await page.$eval(selector, (el, y) => window.scrollBy(0, el.getBoundingClientRect().top - y), y);
  await frames();
}
function assertInside(r: Rect, v: { width: number; height: number }, what: string): void {
  assert.ok(
    r.top >= 0 && r.bottom <= v.height && r.left >= 0 && r.right <= v.width,
    `${what} ${JSON.stringify(r)} is inside the ${v.width}×${v.height} viewport`,
  );
}

async function openSlashAt(y: number): Promise<void> {
  await page.keyboard.press('Escape');
  await page.evaluate((c) => (window as unknown as Win).editor.setContent(c), LINES);
  await scrollTopTo(TARGET, y);
  await page.click(TARGET);
  await page.keyboard.type('/');
  await page.waitForSelector('.sv-slash:not([hidden])');
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session = await openEditorSession(`{ elementId: 'editor', colorScheme: 'light' }`, {
    viewport: { width: 1000, height: 720 },
  });
  page = session.page;
});

after(async () => {
  await session?.close();
});

beforeEach(async () => {
  await page.setViewportSize({ width: 1000, height: 720 });
  await page.evaluate(() => {
    for (const el of [document.getElementById('editor')!, document.querySelector<HTMLElement>('.sv-root')!])
      el.removeAttribute('style');
    window.scrollTo(0, 0);
  });
});

describe('slash menu placement', () => {
  it('opens above a caret near the bottom of the window, inside the viewport', async () => {
    await openSlashAt(640);
    const menu = await rect('.sv-slash');
    const line = await rect(TARGET);
    await page.screenshot({ path: path.join(SHOTS, 'slash-near-bottom.png') });
    assertInside(menu, await viewport(), 'the menu');
    assert.ok(menu.bottom <= line.top, 'the menu is above the line');
  });

  it('opens below when it fits there', async () => {
    await openSlashAt(200);
    const menu = await rect('.sv-slash');
    assert.ok(menu.top >= (await rect(TARGET)).bottom, 'the menu is below the line');
    assertInside(menu, await viewport(), 'the menu');
  });

  it('flips when the window is resized or scrolled, and hides while the caret is out of view', async () => {
    await page.setViewportSize({ width: 1000, height: 800 });
    await openSlashAt(400);
    assert.ok((await rect('.sv-slash')).top >= (await rect(TARGET)).bottom, 'below at first');
    await page.setViewportSize({ width: 1000, height: 600 });
    await frames();
    let menu = await rect('.sv-slash');
    assertInside(menu, await viewport(), 'after the resize, the menu');
    assert.ok(menu.bottom <= (await rect(TARGET)).top, 'after the resize, above the line');

    await scrollTopTo(TARGET, 120);
    menu = await rect('.sv-slash');
    assert.ok(menu.top >= (await rect(TARGET)).bottom, 'scrolled up the page, below again');
    assertInside(menu, await viewport(), 'after scrolling, the menu');

    await scrollTopTo(TARGET, 700);
    assert.equal(await page.isHidden('.sv-slash'), true, 'hidden while its line is below the window');
    assert.equal(await page.getAttribute('.sv-content', 'aria-expanded'), 'false');
    await scrollTopTo(TARGET, 300);
    assert.equal(await page.isVisible('.sv-slash'), true, 'back when the line is');
    assert.equal(await page.getAttribute('.sv-content', 'aria-expanded'), 'true');
    assertInside(await rect('.sv-slash'), await viewport(), 'back, the menu');
  });

  it('caps its height and scrolls inside when neither side has room', async () => {
    await page.setViewportSize({ width: 1000, height: 300 });
    await openSlashAt(140);
    const v = await viewport();
    const menu = await rect('.sv-slash');
    assertInside(menu, v, 'the menu');
    assert.ok(menu.top >= (await rect('.sv-toolbar')).bottom, 'the menu leaves the sticky toolbar uncovered');
    const scroll = await page.$eval('.sv-slash', (el) => ({
      client: el.clientHeight,
      content: el.scrollHeight,
    }));
    assert.ok(scroll.content > scroll.client, 'the list scrolls inside the menu');
    const before = await page.evaluate(() => window.scrollY);
    await page.keyboard.press('ArrowUp'); // wraps to the last item
    const active = await rect('.sv-slash-item[aria-selected="true"]');
    assert.ok(
      active.top >= menu.top && active.bottom <= menu.bottom + 1,
      'the active item is scrolled into the menu',
    );
    assert.equal(await page.evaluate(() => window.scrollY), before, 'the page itself did not scroll');
    await page.screenshot({ path: path.join(SHOTS, 'slash-short-viewport.png') });
  });

  it('stays inside the viewport horizontally when the editor is wider than the window', async () => {
    await page.evaluate(() => {
      document.getElementById('editor')!.style.width = '1600px';
    });
    await page.evaluate((c) => (window as unknown as Win).editor.setContent(c), LINES);
    await scrollTopTo(TARGET, 200);
    await page.click(TARGET);
    await page.keyboard.type('Words that push the caret far over to the right /');
    await page.waitForSelector('.sv-slash:not([hidden])');
    const v = await viewport();
    const line = await page.$eval(TARGET, (el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect().right;
    });
    assert.ok(line + 300 > v.width, `precondition: a menu at the caret (${line}) would overflow`);
    await page.screenshot({ path: path.join(SHOTS, 'slash-wide-editor.png') });
    assertInside(await rect('.sv-slash'), v, 'the menu');
  });
});

describe('bubble menu placement', () => {
  async function selectWord(y: number): Promise<void> {
    await page.keyboard.press('Escape');
    await page.evaluate((c) => (window as unknown as Win).editor.setContent(c), LINES);
    await scrollTopTo(WORD, y);
    await page.dblclick(`${WORD}`, { position: { x: 5, y: 5 } });
    await page.waitForSelector('.sv-bubble:not([hidden])');
  }

  it('flips below the selection near the top of the window and hides when it scrolls away', async () => {
    await selectWord(360);
    let bubble = await rect('.sv-bubble');
    assert.ok(bubble.bottom <= (await rect(WORD)).top, 'above the selection at first');

    const toolbar = await rect('.sv-toolbar'); // sticky: stays at the top of the window
    await scrollTopTo(WORD, toolbar.height + 16);
    bubble = await rect('.sv-bubble');
    await page.screenshot({ path: path.join(SHOTS, 'bubble-near-top.png') });
    assertInside(bubble, await viewport(), 'scrolled near the top, the bubble');
    assert.ok(bubble.top >= (await rect(WORD)).bottom, 'and below the selection');

    await scrollTopTo(WORD, 4);
    assert.equal(await page.isHidden('.sv-bubble'), true, 'hidden while the selection is under the toolbar');
    await scrollTopTo(WORD, -100);
    assert.equal(await page.isHidden('.sv-bubble'), true, 'hidden while the selection is above the window');
    await scrollTopTo(WORD, 300);
    bubble = await rect('.sv-bubble');
    assert.equal(await page.isVisible('.sv-bubble'), true, 'shown again');
    assert.ok(bubble.bottom <= (await rect(WORD)).top && bubble.top >= 0, 'above the selection again');
  });

  it('follows the selection when the editor scrolls inside its own box', async () => {
    await page.evaluate(() => {
      document.querySelector<HTMLElement>('.sv-root')!.style.height = '560px';
    });
    await page.evaluate((c) => (window as unknown as Win).editor.setContent(c), LINES);
    await page.$eval(WORD, (el) => el.scrollIntoView({ block: 'center' }));
    await page.dblclick(WORD, { position: { x: 5, y: 5 } });
    await page.waitForSelector('.sv-bubble:not([hidden])');
    const gap = (await rect(WORD)).top - (await rect('.sv-bubble')).bottom;
    await page.$eval('.sv-stage', (el) => el.scrollBy(0, 80));
    await frames();
    await page.screenshot({ path: path.join(SHOTS, 'bubble-inner-scroll.png') });
    const moved = (await rect(WORD)).top - (await rect('.sv-bubble')).bottom;
    assert.ok(
      Math.abs(moved - gap) < 1,
      `the bubble keeps its ${gap} px gap to the selection (now ${moved})`,
    );

    const stage = await rect('.sv-stage');
    await page.$eval(
      '.sv-stage',
      (el, top) =>
        el.scrollBy(
          0,
          document.querySelector(top)!.getBoundingClientRect().bottom - el.getBoundingClientRect().top + 20,
        ),
      WORD,
    );
    await frames();
    assert.ok(
      (await rect(WORD)).bottom < stage.top,
      'precondition: the selection is scrolled out of the box',
    );
    assert.equal(await page.isHidden('.sv-bubble'), true, 'hidden while the selection is scrolled out');
  });
});

describe('block handle', () => {
  it('hides when the page scrolls under it, and comes back where the pointer is', async () => {
    await page.keyboard.press('Escape');
    await page.evaluate((c) => (window as unknown as Win).editor.setContent(c), LINES);
    await scrollTopTo(WORD, 300);
    const word = await rect(WORD);
    await page.mouse.move(word.left + 20, (word.top + word.bottom) / 2);
    await page.waitForSelector('.sv-handle:not([hidden])');

    await page.mouse.wheel(0, 240);
    await frames();
    assert.equal(await page.isHidden('.sv-handle'), true, 'a scrolled-away handle is hidden');

    await page.mouse.move(word.left + 24, (word.top + word.bottom) / 2);
    await page.waitForSelector('.sv-handle:not([hidden])');
    const handle = await rect('.sv-handle');
    const block = await page.evaluate(
      (y) => {
        const hit = [...document.querySelectorAll('.sv-content > p')].find((el) => {
          const r = el.getBoundingClientRect();
          return r.top - 8 <= y && y <= r.bottom + 8;
        });
        const r = hit!.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom };
      },
      (word.top + word.bottom) / 2,
    );
    assert.ok(
      handle.top >= block.top - 16 && handle.bottom <= block.bottom + 16,
      `the handle ${JSON.stringify(handle)} sits beside the block under the pointer ${JSON.stringify(block)}`,
    );
  });
});
