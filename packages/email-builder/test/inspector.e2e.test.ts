// A block's settings in real Chromium, at a desktop and a phone size: docked beside the email or
// as a sheet along the bottom, never outside the window, never over the block or the email
// settings; Escape closes them. Regressions: they opened below the block and reached y=1064 in an
// 800 px window, covered an image block's own URL field, and covered the block on a phone.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations } from '../test-support/axe.js';
import { type EditorSession, openEditorSession } from '../test-support/editor-session.js';
import { PACKAGE_DIR } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'inspector');

type Win = { editor: import('../src/editor.js').ServiceEditor };
type Rect = { left: number; top: number; right: number; bottom: number };

let session: EditorSession;
let page: Page;

const rect = (selector: string) =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const inspector = () => page.locator('.sv-inspector');

/** A long email whose last block is `block`, opened on a page of `width`×`height`. */
async function emailEndingWith(block: object, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  const text = (n: number) => ({ type: 'paragraph', content: [{ type: 'text', text: `Paragraph ${n}` }] });
  await page.evaluate(
    (content) => (window as unknown as Win).editor.setContent({ type: 'doc', content }),
    [...Array.from({ length: 14 }, (_, i) => text(i)), block, text(99)],
  );
}

async function assertInWindow(): Promise<Rect> {
  const box = await rect('.sv-inspector');
  const size = page.viewportSize()!;
  assert.ok(box.top >= 0 && box.left >= 0, `starts inside the window: ${JSON.stringify(box)}`);
  assert.ok(
    box.bottom <= size.height + 0.5 && box.right <= size.width + 0.5,
    `ends inside: ${JSON.stringify(box)}`,
  );
  return box;
}

async function assertAxeClean(): Promise<void> {
  assert.deepEqual(await axeViolations(page), []);
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session = await openEditorSession(`{ elementId: 'editor', colorScheme: 'light', settingsControl: true }`, {
    viewport: { width: 1280, height: 800 },
  });
  page = session.page;
});

after(async () => {
  await session?.close();
});

describe('block settings', () => {
  it('dock beside the email at 1280×800, level with the block, inside the window, over nothing of the email', async () => {
    await emailEndingWith(
      { type: 'button', attrs: { text: 'Buy', href: 'https://shop.example' } },
      1280,
      800,
    );
    await page.locator('.sv-content .sv-button').scrollIntoViewIfNeeded();
    await page.click('.sv-content .sv-button');
    await inspector().waitFor();
    const box = await assertInWindow();
    const card = await rect('.sv-canvas');
    assert.ok(box.left >= card.right, `beside the email, not over it: ${box.left} ≥ ${card.right}`);
    await assertAxeClean();
    await page.screenshot({ path: path.join(SHOTS, 'desktop-button.png') });
  });

  // Regression (issue 40): an editor 920 to 1,150 px wide centred the email with too little room
  // on either side, and the settings covered the email as a sheet (the playground at 1280 px)
  it('dock beside the email in a 950 px editor, the email moved left of centre to make the room', async () => {
    await emailEndingWith({ type: 'button', attrs: { text: 'Buy', href: 'https://shop.example' } }, 998, 800);
    await page.locator('.sv-content .sv-button').scrollIntoViewIfNeeded();
    await page.click('.sv-content .sv-button');
    await inspector().waitFor();
    const box = await assertInWindow();
    const [card, stage, block] = await Promise.all([
      rect('.sv-canvas'),
      rect('.sv-stage'),
      rect('.sv-content .sv-button'),
    ]);
    assert.equal(await inspector().evaluate((el) => el.classList.contains('sv-sheet')), false, 'not a sheet');
    assert.ok(box.left >= card.right, `beside the email: ${box.left} ≥ ${card.right}`);
    assert.equal(overlaps(box, block), false, 'over no part of the block');
    assert.ok(card.left - stage.left < stage.right - card.right, 'the email left of centre');
    await page.screenshot({ path: path.join(SHOTS, 'desktop-950-button.png') });
  });

  it('keep the email centred where the editor has room beside it, and where it has none', async () => {
    for (const width of [1280, 760]) {
      await page.setViewportSize({ width, height: 800 });
      await page.keyboard.press('Escape');
      const [card, content] = await Promise.all([
        rect('.sv-canvas'),
        page.$eval('.sv-stage', (el) => {
          const r = el.getBoundingClientRect();
          const s = getComputedStyle(el);
          return { left: r.left + parseFloat(s.paddingLeft), right: r.right - parseFloat(s.paddingRight) };
        }),
      ]);
      const [left, right] = [card.left - content.left, content.right - card.right];
      assert.ok(Math.abs(left - right) < 1, `centred at ${width} px: ${left} and ${right} either side`);
    }
  });

  it('leave an image block’s own URL field free', async () => {
    await emailEndingWith({ type: 'image' }, 1280, 800);
    await page.locator('.sv-content .sv-image-empty').scrollIntoViewIfNeeded();
    const empty = await rect('.sv-content .sv-image-empty');
    await page.mouse.move(empty.left + 20, (empty.top + empty.bottom) / 2);
    await page.click('.sv-grip');
    await page.click('.sv-menu [role="menuitem"]:has-text("Settings")');
    await inspector().waitFor();
    await assertInWindow();
    assert.equal(
      overlaps(await rect('.sv-inspector'), await rect('.sv-content .sv-image-empty input')),
      false,
    );
  });

  it('open as a sheet along the bottom on a phone, with the block shown above it', async () => {
    await emailEndingWith({ type: 'button', attrs: { text: 'Buy', href: 'https://shop.example' } }, 375, 812);
    await page.locator('.sv-content .sv-button').scrollIntoViewIfNeeded();
    await page.click('.sv-content .sv-button');
    await inspector().waitFor();
    const box = await assertInWindow();
    assert.ok(Math.abs(box.bottom - 812) < 1, `along the bottom: ${box.bottom}`);
    const block = await rect('.sv-content .sv-button');
    assert.ok(block.bottom <= box.top, `the block (${block.bottom}) shows above the sheet (${box.top})`);
    await assertAxeClean();
    await page.screenshot({ path: path.join(SHOTS, 'phone-button.png') });
  });

  it('close with Escape, from the settings or the editor, the block staying selected', async () => {
    await emailEndingWith(
      { type: 'button', attrs: { text: 'Buy', href: 'https://shop.example' } },
      1280,
      800,
    );
    await page.click('.sv-content .sv-button');
    await inspector().waitFor();
    await page.keyboard.press('Escape');
    await inspector().waitFor({ state: 'hidden' });
    await page.keyboard.press('Enter');
    await page.keyboard.type('After');
    const types = await page.evaluate(() =>
      ((window as unknown as Win).editor.getJSON().content ?? []).map((n) => n.content?.[0]?.text ?? n.type),
    );
    assert.deepEqual(types.slice(-3), ['button', 'After', 'Paragraph 99'], 'the block was still selected');

    // away from the first click's spot, which a quick second click there would make a double click
    await page.click('.sv-content .sv-button', { position: { x: 8, y: 8 } });
    await inspector().waitFor();
    await page.focus('.sv-inspector [data-field="text"] input');
    await page.keyboard.press('Escape');
    await inspector().waitFor({ state: 'hidden' });
    assert.equal(
      await page.evaluate(() => !!document.activeElement?.closest('.sv-content')),
      true,
      'focus back in the editor',
    );
  });

  it('never show together with the email settings', async () => {
    await page.click('.sv-content .sv-button');
    await inspector().waitFor();
    await page.getByRole('button', { name: 'Email settings' }).click();
    await page.locator('.sv-settings').waitFor();
    assert.equal(await inspector().isHidden(), true, 'opening the email settings closes the block’s');
    await page.click('.sv-content p >> nth=0');
    await page.click('.sv-content .sv-button');
    await inspector().waitFor();
    assert.equal(await page.locator('.sv-settings').isHidden(), true, 'and the other way round');
  });
});
