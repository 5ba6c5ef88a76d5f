// The rendered email itself in Chromium: axe-core, columns stacking at 375 px, dark mode, and
// screenshots at 600 px and 375 px (in test-results/, for people to look at).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { renderEmail } from '../src/render/email.js';
import { launchChromium } from '../test-support/browser.js';
import { fullDocument, sidedDocument } from '../test-support/doc.js';
import { PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let email: string;

async function open(width: number, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  await page.goto(`${server.origin}/email`);
  await page.waitForLoadState('load');
  return page;
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ token: 'x' });
  // real images from the local server, so layout and alt text are checked on loaded pictures
  const json = JSON.parse(
    JSON.stringify(fullDocument()).replaceAll(
      /https:\/\/example\.com\/[\w-]+\.png/g,
      `${server.origin}/pixel.png`,
    ),
  );
  email = renderEmail(json);
  server.setPage('/email', email);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('the rendered email in Chromium', () => {
  for (const width of [600, 375]) {
    it(`has no axe-core violations at ${width} px`, async () => {
      const page = await open(width);
      await page.addScriptTag({ content: axeSource });
      // Page-landmark rules are off: an email is shown inside the mail client's own page, which
      // has the main landmark; ours is the role="article" wrapper. Every other rule runs.
      const result = (await page.evaluate(
        'axe.run(document, { resultTypes: ["violations"], rules: { "landmark-one-main": { enabled: false }, region: { enabled: false } } })',
      )) as { violations: { id: string; nodes: unknown[] }[] };
      assert.deepEqual(
        result.violations.map((v) => `${v.id} (${v.nodes.length})`),
        [],
      );
      await page.screenshot({ path: path.join(SHOTS, `email-${width}.png`), fullPage: true });
      await page.close();
    });
  }

  it('lays columns side by side at 600 px and stacks them at 375 px', async () => {
    const positions = async (page: Page) =>
      page.$$eval('[data-block="columns"]', (blocks) =>
        blocks
          .slice(0, 1)
          .flatMap((b) =>
            [...b.querySelectorAll('.sv-col')].map((c) => Math.round(c.getBoundingClientRect().top)),
          ),
      );
    const wide = await open(700);
    const [a, b] = await positions(wide);
    assert.equal(a, b, 'same row on a wide screen');
    await wide.close();
    const narrow = await open(375);
    const [c, d] = await positions(narrow);
    assert.ok(d! > c!, 'stacked on a phone');
    const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'nothing wider than the phone');
    await narrow.close();
  });

  it('lays out a right-to-left email from the right: list indents, quote bar, columns', async () => {
    const json = JSON.parse(
      JSON.stringify(sidedDocument('rtl')).replaceAll(
        /https:\/\/example\.com\/[\w-]+\.png/g,
        `${server.origin}/pixel.png`,
      ),
    );
    server.setPage('/email-rtl', renderEmail(json));
    const page = await browser.newPage({ viewport: { width: 700, height: 900 } });
    await page.goto(`${server.origin}/email-rtl`);
    await page.waitForLoadState('load');
    type Box = { left: number; right: number };
    // a string, not a function: tsx would wrap named inner functions in a helper the page lacks
    const g = (await page.evaluate(`(() => {
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return { left: Math.round(r.left), right: Math.round(r.right) };
      };
      const cell = document.querySelector('.sv-pad');
      const padding = Number.parseFloat(getComputedStyle(cell).paddingRight);
      const q = getComputedStyle(document.querySelector('blockquote'));
      const [stacking, fixed] = [...document.querySelectorAll('[data-block="columns"]')].map((b) =>
        [...b.querySelectorAll('[data-block="column"]')].map(box),
      );
      return {
        content: { left: box(cell).left + padding, right: box(cell).right - padding },
        list: box(document.querySelector('ul')),
        item: box(document.querySelector('li')),
        quote: { left: q.borderLeftWidth, right: q.borderRightWidth },
        quoteBox: box(document.querySelector('blockquote')),
        quoteText: box(document.querySelector('blockquote p')),
        stacking,
        fixed,
        image: box(document.querySelector('[data-block="image"] img')),
      };
    })()`)) as {
      content: Box;
      list: Box;
      item: Box;
      quote: { left: string; right: string };
      quoteBox: Box;
      quoteText: Box;
      stacking: Box[];
      fixed: Box[];
      image: Box;
    };
    // the list box ends at the content edge; its items end 24 px before it: room for the bullets
    assert.equal(g.list.right, g.content.right);
    assert.equal(g.item.right, g.list.right - 24);
    assert.deepEqual(g.quote, { left: '0px', right: '4px' });
    assert.equal(g.quoteBox.right, g.content.right, 'the bar at the right edge, where lines start');
    assert.equal(g.quoteText.right, g.quoteBox.right - 4 - 16);
    for (const [a, b] of [g.stacking, g.fixed]) {
      assert.ok(a!.left > b!.left, 'the first column on the right');
      assert.equal(a!.right, g.content.right);
      assert.equal(a!.left - b!.right, 20, 'the gap between them');
    }
    assert.equal(g.image.left, g.content.left, 'a left-aligned image stays on the left');
    await page.screenshot({ path: path.join(SHOTS, 'email-rtl-600.png'), fullPage: true });
    await page.close();
  });

  it('ends a quote’s bar with its text', async () => {
    const quote = {
      type: 'blockquote',
      content: ['A quote', 'in two paragraphs'].map((text) => ({
        type: 'paragraph',
        content: [{ type: 'text', text }],
      })),
    };
    server.setPage('/email-quote', renderEmail({ type: 'doc', content: [quote] }));
    const page = await browser.newPage({ viewport: { width: 600, height: 400 } });
    await page.goto(`${server.origin}/email-quote`);
    const [bar, text] = await page.$$eval('blockquote, blockquote p:last-child', (els) =>
      els.map((el) => Math.round(el.getBoundingClientRect().bottom)),
    );
    assert.equal(bar! - text!, 2, 'only the quote’s own 2 px padding under the last line');
    await page.close();
  });

  it('uses the dark colours and the dark image where prefers-color-scheme is dark', async () => {
    const page = await open(600, 'dark');
    const { card, darkShown, lightShown } = await page.evaluate(() => ({
      card: getComputedStyle(document.querySelector('.sv-card')!).backgroundColor,
      darkShown: getComputedStyle(document.querySelector('.sv-dark')!).display,
      lightShown: getComputedStyle(document.querySelector('.sv-light')!).display,
    }));
    assert.deepEqual(
      { card, darkShown, lightShown },
      { card: 'rgb(39, 39, 42)', darkShown: 'block', lightShown: 'none' },
    );
    await page.screenshot({ path: path.join(SHOTS, 'email-600-dark.png'), fullPage: true });
    await page.close();
  });
});
