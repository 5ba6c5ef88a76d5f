// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
// The playground (/) in Chromium against the real server: one toolbar (the page's commands in
// the editor's, behind a "More" menu on a phone), writing and inserting blocks, every kind of
// option (live and construction-time) reaching `getHTML()`, the status line, the preview (on a
// phone too), the template picker, and uploads and "My Templates" on the server through a
// scoped key. Results are read through the page as a user gets them: the clipboard after Copy
// HTML, the preview's iframe.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import {
  axeViolations,
  launchChromium,
  openPage,
  type WatchedPage,
  waitUntil,
} from '../src/test-support/browser.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';

const LOGO = readFileSync(new URL('../src/test-support/images/logo.png', import.meta.url));

let server: TestServer;
let browser: Browser;
let watched: WatchedPage;
let page: Page;
let scopedKey: string;
let fullKey: string;

/** Clicks a Copy button and returns what reached the clipboard. */
async function copy(button: 'Copy HTML' | 'Copy text'): Promise<string> {
  await page.evaluate('navigator.clipboard.writeText("")');
  await page.getByRole('button', { name: button, exact: true }).click();
  return waitUntil(`${button} to fill the clipboard`, async () => (await watched.clipboard()) || undefined);
}

/** Types a slash command in the editor and picks the first block it offers. */
async function insertBlock(query: string): Promise<void> {
  await page.keyboard.type(`/${query}`);
  await page.locator('.sv-slash:not([hidden]) .sv-slash-item').first().waitFor();
  await page.keyboard.press('Enter');
}

/** How many rows the visible controls of the editor's toolbar make (by their vertical centres). */
async function toolbarRows(on: Page): Promise<number> {
  return on.evaluate(`new Set(
    [...document.querySelectorAll('#editor [role="toolbar"] button')]
      .filter((b) => b.getClientRects().length > 0)
      .map((b) => Math.round(b.getBoundingClientRect().top + b.offsetHeight / 2)),
  ).size`) as Promise<number>;
}

/** The editor's own Templates button (it opens on My Templates). */
const templatesButton = () => page.getByRole('button', { name: 'Templates', exact: true });

/** Starts a blank email (the toolbar's New email) and types a first line. */
async function blankEmail(text: string): Promise<void> {
  await page.getByRole('button', { name: 'New email' }).click();
  await page.keyboard.type(text);
}

type Rect = { left: number; top: number; right: number; bottom: number };

/**
 * Opens the settings of the welcome email's `block` (its logo or its button): from the block's
 * own menu, as a pointer user does, or (`tap`, a phone has no block handles) with a tap on the
 * button. Returns where they went and what is around them.
 */
async function blockSettings(
  on: Page,
  block: 'logo' | 'button',
  tap = false,
): Promise<{ sheet: boolean; settings: Rect; block: Rect; email: Rect; editor: Rect }> {
  const dom = on.locator(`#editor .sv-content [data-block="${block}"]`).first();
  await dom.scrollIntoViewIfNeeded();
  if (tap) await on.locator('#editor .sv-content .sv-button').first().click();
  else {
    const box = (await dom.boundingBox())!;
    await on.mouse.move(box.x + box.width / 2, box.y + 4);
    await on.locator('#editor .sv-grip').click();
    await on.locator('#editor .sv-menu [role="menuitem"]', { hasText: 'Settings' }).click();
  }
  await on.locator('#editor .sv-inspector').waitFor();
  return (await on.evaluate(`(() => {
    const rect = (selector) => {
      const r = document.querySelector(selector).getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    return {
      sheet: document.querySelector('#editor .sv-inspector').classList.contains('sv-sheet'),
      settings: rect('#editor .sv-inspector'),
      block: rect('#editor .sv-content .ProseMirror-selectednode'),
      email: rect('#editor .sv-canvas'),
      editor: rect('#editor .sv-root'),
    };
  })()`)) as { sheet: boolean; settings: Rect; block: Rect; email: Rect; editor: Rect };
}

const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

before(async () => {
  server = await startTestServer();
  ({ key: scopedKey } = await server.createKey({ name: 'playground', scopes: ['templates', 'images'] }));
  ({ key: fullKey } = await server.createKey({ name: 'full' }));
  browser = await launchChromium();
  watched = await openPage(browser, server.url);
  page = watched.page;
  await page.goto(`${server.url}/`);
  await page.locator('#editor .sv-root').waitFor();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('the playground', () => {
  it('opens on the welcome starter template, with the HTML size against Gmail’s clip', async () => {
    assert.match(await page.locator('#editor .sv-content').innerText(), /Welcome aboard/);
    assert.match(await page.locator('#size').innerText(), /^HTML \d+\.\d KB · Gmail clips at 102 KB$/);
    // the cursor starts in the text: no block settings popover over the email
    assert.equal(await page.locator('#editor .sv-inspector:visible').count(), 0);
    assert.equal(await page.locator('#connection-pill').innerText(), 'Browser storage');
  });

  it('has one toolbar, each command once: the page’s own are in the editor’s (there were two)', async () => {
    const workbench = page.locator('.workbench');
    assert.equal(await workbench.getByRole('toolbar').count(), 1);
    const toolbar = page.locator('#editor').getByRole('toolbar');
    for (const name of ['Undo', 'Redo', 'Templates', 'Preview', 'New email', 'Copy text', 'Copy HTML'])
      assert.equal(await toolbar.getByRole('button', { name, exact: true }).count(), 1, name);
    // on a wide screen nothing is tucked away
    assert.equal(await workbench.getByRole('button', { name: 'More' }).count(), 0);
    assert.equal(await toolbarRows(page), 1);
  });

  it('clears a passing status at the next edit or a few seconds later, announced politely', async () => {
    const status = page.locator('#status');
    assert.deepEqual(
      [await status.getAttribute('role'), await status.getAttribute('aria-live')],
      ['status', 'polite'],
    );
    await page.getByRole('button', { name: 'New email' }).click();
    assert.equal(await status.innerText(), 'New email. Undo brings the previous one back.');
    await page.keyboard.type('H');
    await waitUntil('the next edit to clear the status', async () => (await status.innerText()) === '');
    await copy('Copy text');
    assert.match(await status.innerText(), /^Copied \d+\.\d KB of text$/);
    await waitUntil('the status to clear by itself', async () => (await status.innerText()) === '');
    assert.equal(await status.getAttribute('data-tone'), null);
  });

  it('types, inserts a block from the slash menu, and copies the HTML and the text', async () => {
    await blankEmail('Hello from the playground');
    await page.keyboard.press('Enter');
    await insertBlock('divider');
    const html = await copy('Copy HTML');
    assert.match(html, /^<!DOCTYPE html><html lang="en" dir="ltr"/);
    assert.match(html, /<p[^>]*>Hello from the playground<\/p>/);
    assert.match(html, /data-block="divider"/);
    assert.doesNotMatch(html, /Welcome aboard/);
    assert.match(await page.locator('#status').innerText(), /^Copied \d+\.\d KB of HTML$/);
    const text = await copy('Copy text');
    assert.match(text, /^Hello from the playground\n/);
    assert.doesNotMatch(text, /</);
  });

  it('has a skip link, first in the tab order, that puts the keyboard in the email', async () => {
    const link = page.getByRole('link', { name: 'Skip to the editor' });
    const first = await page.evaluate(
      `document.querySelector('a[href], button, input, select, textarea, [tabindex]')?.textContent`,
    );
    assert.equal(first, 'Skip to the editor', 'the first Tab stop of the page');
    await link.focus();
    assert.equal(await link.isVisible(), true, 'shown while focused');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(`!!document.activeElement?.closest('#editor .sv-content')`), true);
  });

  it('undoes and redoes from the toolbar', async () => {
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    assert.doesNotMatch(await copy('Copy HTML'), /data-block="divider"/);
    await page.getByRole('button', { name: 'Redo', exact: true }).click();
    assert.match(await copy('Copy HTML'), /data-block="divider"/);
  });

  it('applies construction-time options by re-creating the editor, keeping the email', async () => {
    await page.getByLabel('Light email background').fill('#fffbeb');
    await page.getByLabel('Light editor background').fill('#ecfeff');
    await page.locator('#radius').fill('20');
    await page.fill('#preheader', 'Your June update is here');
    await page.keyboard.press('Tab');
    await page.fill('#lang', 'fr');
    await page.keyboard.press('Tab');
    await page.selectOption('#dir', 'rtl');
    const html = await copy('Copy HTML');
    assert.match(html, /^<!DOCTYPE html><html lang="fr" dir="rtl"/);
    assert.match(html, /class="sv-card"[^>]*background-color:#fffbeb/);
    assert.match(html, /class="sv-bg" style="background-color:#ecfeff"/);
    assert.match(html, /border-radius:20px/);
    assert.match(html, /data-sv-preheader="">Your June update is here/);
    assert.match(html, /Hello from the playground/);
    // the code panel shows the options that make this editor
    const code = await page.locator('#code').innerText();
    assert.match(code, /borderRadius: '20'/);
    assert.match(code, /emailBackground: '#fffbeb'/);
    assert.match(code, /dir: 'rtl'/);
  });

  it('shows and hides the editor’s own controls: settingsControl, background, preview', async () => {
    const settingsButton = page.locator('#editor .sv-settings-btn');
    const option = (name: string) => page.locator(`input[data-setting="${name}"]`);
    assert.equal(await settingsButton.getAttribute('aria-label'), 'Email settings');
    await option('settingsControl').uncheck();
    assert.equal(await settingsButton.count(), 0);
    await option('background').check();
    assert.equal(await settingsButton.getAttribute('aria-label'), 'Email background');
    await option('preview').uncheck();
    assert.equal(await page.locator('#editor .sv-preview-btn').count(), 0);
    await option('preview').check();
    assert.equal(await page.locator('#editor .sv-preview-btn').count(), 1);
    await option('settingsControl').check();
    assert.equal(await settingsButton.getAttribute('aria-label'), 'Email settings');
    assert.match(await copy('Copy HTML'), /Hello from the playground/);
  });

  it('speaks the language chosen as `locale` in the editor’s own words, leaving the email’s as it was', async () => {
    const htmlHead = (html: string) => /^<!DOCTYPE html><html[^>]*>/.exec(html)?.[0];
    const before = htmlHead(await copy('Copy HTML'));
    const button = (name: string) => page.locator('#editor').getByRole('button', { name, exact: true });
    try {
      await page.selectOption('#locale', 'de');
      await button('Vorschau').waitFor();
      assert.match(await page.locator('#code').innerText(), /locale: 'de'/);
      await page.selectOption('#locale', 'ar');
      await page.locator('#editor .sv-root[dir="rtl"][lang="ar"]').waitFor();
      assert.equal(htmlHead(await copy('Copy HTML')), before, 'the email keeps its own lang and dir');
      assert.match(await copy('Copy HTML'), /Hello from the playground/);
    } finally {
      // the later tests find the editor's controls by their English names
      await page.selectOption('#locale', 'en');
    }
    await button('Preview').waitFor();
    assert.notEqual(await page.locator('#editor .sv-root').getAttribute('dir'), 'rtl');
    assert.doesNotMatch(await page.locator('#code').innerText(), /locale:/);
  });

  it('switches the colour scheme live', async () => {
    const root = page.locator('#editor .sv-root');
    await page.getByRole('radio', { name: 'Dark' }).check();
    assert.equal(await root.getAttribute('data-theme'), 'dark');
    await page.getByRole('radio', { name: 'Light' }).check();
    assert.equal(await root.getAttribute('data-theme'), 'light');
    assert.match(await page.locator('#code').innerText(), /colorScheme: 'light'/);
  });

  // Regression (issue 40): a colour chosen in the editor's toolbar left the panel saying Auto
  it('keeps the panel’s colour scheme and the editor toolbar’s in step, whichever changes it', async () => {
    const root = page.locator('#editor .sv-root');
    const panel = (name: string) => page.locator('.panel').getByRole('radio', { name, exact: true });
    await panel('Auto').check();
    await page
      .locator('#editor')
      .getByRole('button', { name: /^Colour scheme/ })
      .click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    assert.equal(await root.getAttribute('data-theme'), 'dark');
    assert.equal(await panel('Dark').isChecked(), true, 'the panel follows the toolbar');
    assert.match(await page.locator('#code').innerText(), /colorScheme: 'dark'/);
    await panel('Light').check();
    await page
      .locator('#editor')
      .getByRole('button', { name: /^Colour scheme/ })
      .click();
    assert.equal(
      await page.getByRole('menuitemradio', { name: 'Light' }).getAttribute('aria-checked'),
      'true',
      'the toolbar follows the panel',
    );
    await page.keyboard.press('Escape');
  });

  it('applies a branding preset live to new blocks and to blocks that showed the previous one', async () => {
    await page.getByRole('radio', { name: 'Lumen' }).check();
    assert.match(await page.locator('#status').innerText(), /^Lumen branding applied/);
    await page.locator('#editor .sv-content p').first().click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await insertBlock('logo');
    let html = await copy('Copy HTML');
    assert.match(html, new RegExp(`<img src="${server.url}/assets/brand-lumen-light\\.png"`));
    assert.match(html, /alt="Lumen"/);
    await page.getByRole('radio', { name: 'Fernwood' }).check();
    html = await copy('Copy HTML');
    assert.match(html, new RegExp(`<img src="${server.url}/assets/brand-fernwood-light\\.png"`));
    assert.doesNotMatch(html, /brand-lumen/);
    // the logo the brand points at is served by the server, and shows in the editor
    await page.waitForFunction(
      `[...document.querySelectorAll('#editor img')].some((i) => i.src.endsWith('brand-fernwood-light.png') && i.complete && i.naturalWidth > 0)`,
    );
    await page.getByRole('radio', { name: 'None' }).check();
    assert.doesNotMatch(await page.locator('#code').innerText(), /branding/);
    assert.equal(await page.locator('#status').innerText(), 'Branding removed.');
  });

  it('previews the email in desktop and mobile sizes', async () => {
    const previewButton = page.locator('#editor').getByRole('button', { name: 'Preview', exact: true });
    await previewButton.click();
    const dialog = page.locator('.sv-preview [role="dialog"]');
    await dialog.waitFor();
    const frame = page.locator('.sv-preview-frame');
    assert.match(String(await frame.getAttribute('srcdoc')), /Hello from the playground/);
    assert.equal(await page.locator('.sv-preview-stage').getAttribute('data-view'), 'desktop');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await previewButton.click();
    await dialog.waitFor();
    await page.click('button[data-view="mobile"]');
    assert.equal(await page.locator('.sv-preview-stage').getAttribute('data-view'), 'mobile');
    assert.equal((await frame.boundingBox())?.width, 375);
    assert.match(
      await page.frameLocator('.sv-preview-frame').locator('body').innerText(),
      /Hello from the playground/,
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('loads a starter template from Purchased Templates', async () => {
    await templatesButton().click();
    await page.getByRole('tab', { name: 'Purchased Templates' }).click();
    await page.getByRole('button', { name: 'Use template Receipt' }).click();
    await page.locator('.sv-templates').waitFor({ state: 'detached' });
    const html = await copy('Copy HTML');
    assert.doesNotMatch(html, /Hello from the playground/);
    assert.match(html, /Thanks for your order!/);
  });

  it('without a key: My Templates stay in the browser, and Upload is off, saying so', async () => {
    await templatesButton().click();
    await page.fill('.sv-tpl-save input', 'Kept locally');
    await page.keyboard.press('Enter');
    await page.locator('.sv-tpl-item', { hasText: 'Kept locally' }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.sv-templates').waitFor({ state: 'detached' });
    assert.match(String(await page.evaluate('localStorage.getItem("sv-templates")')), /Kept locally/);

    await blankEmail('A picture:');
    await page.keyboard.press('Enter');
    // the cursor goes on below the new image (509c3c4), so no settings cover its Upload button
    await insertBlock('image');
    // without a key uploads are off: Upload says so rather than open a picker (issue 40)
    const upload = page.locator('#editor .sv-image-empty button', { hasText: 'Upload' });
    assert.equal(await upload.getAttribute('aria-disabled'), 'true');
    await page.locator('#editor .sv-upload-off', { hasText: /^Uploads are off: / }).waitFor();
  });

  it('refuses an unknown key and a full key, and never keeps either', async () => {
    const error = page.locator('#connect-error');
    await page.fill('#key-input', 'sk_unknown_key');
    await page.click('#connect-button');
    await error.filter({ hasText: 'refused' }).waitFor();
    await page.fill('#key-input', fullKey);
    await page.click('#connect-button');
    await error.filter({ hasText: 'full API key' }).waitFor();
    assert.match(await error.innerText(), /keys create --name playground --scope templates,images/);
    assert.equal(await page.inputValue('#key-input'), '');
    assert.equal(await page.evaluate('sessionStorage.getItem("service.playground.key")'), null);
    assert.doesNotMatch(String(await page.evaluate('JSON.stringify(localStorage)')), new RegExp(fullKey));
  });

  it('with a scoped key: uploads an image to the server and keeps My Templates on it', async () => {
    await page.fill('#key-input', scopedKey);
    await page.click('#connect-button');
    await page.locator('#connect-on').waitFor();
    assert.equal(await page.locator('#connection-pill').innerText(), 'Connected');
    assert.match(await page.locator('#code').innerText(), /token: SCOPED_KEY/);
    assert.doesNotMatch(await page.locator('#code').innerText(), new RegExp(scopedKey));

    const chooser = page.waitForEvent('filechooser');
    await page.locator('#editor .sv-image-empty button', { hasText: 'Upload' }).click();
    await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO });
    await page.locator('#status', { hasText: 'Uploaded logo.png to this server' }).waitFor();
    const src = /<img src="([^"]+)"/.exec(await copy('Copy HTML'))?.[1];
    assert.match(String(src), new RegExp(`^${server.url}/images/[0-9a-f]{64}\\.png$`));
    const served = await fetch(String(src));
    assert.equal(served.status, 200);
    // Uploads are decoded and encoded again, so the bytes differ; the pixels must not.
    const pixels = (image: Buffer) => sharp(image).ensureAlpha().raw().toBuffer();
    assert.deepEqual(await pixels(Buffer.from(await served.arrayBuffer())), await pixels(LOGO));

    await templatesButton().click();
    await page.locator('.sv-tpl-empty').waitFor();
    await page.fill('.sv-tpl-save input', 'On the server');
    await page.keyboard.press('Enter');
    await page.locator('.sv-tpl-item', { hasText: 'On the server' }).waitFor();
    await page.keyboard.press('Escape');
    const listed = await server.request('GET', '/api/public/templates', { key: scopedKey });
    assert.deepEqual(listed.contractProblems, []);
    assert.deepEqual(
      listed.body.data.templates.map((t: { name: string }) => t.name),
      ['On the server'],
    );
    assert.equal(await page.evaluate('sessionStorage.getItem("service.playground.key")'), scopedKey);
  });

  it('keeps the email, the options and the connection across a reload', async () => {
    await page.reload();
    await page.locator('#editor .sv-root').waitFor();
    assert.equal(await page.locator('#connection-pill').innerText(), 'Connected');
    assert.equal(await page.getByRole('radio', { name: 'Light' }).isChecked(), true);
    const html = await waitUntil('the draft back in the editor', async () => {
      const text = await copy('Copy HTML');
      return /\/images\/[0-9a-f]{64}\.png/.test(text) ? text : undefined;
    });
    assert.match(html, /<html lang="fr" dir="rtl"/);
  });

  it('disconnects back to browser storage', async () => {
    await page.click('#disconnect');
    await page.locator('#connect-off').waitFor();
    assert.equal(await page.locator('#connection-pill').innerText(), 'Browser storage');
    assert.equal(await page.evaluate('sessionStorage.getItem("service.playground.key")'), null);
    await templatesButton().click();
    await page.locator('.sv-tpl-item', { hasText: 'Kept locally' }).waitFor();
    assert.equal(await page.locator('.sv-tpl-item', { hasText: 'On the server' }).count(), 0);
    await page.keyboard.press('Escape');
  });

  it('resets the options', async () => {
    await page.getByRole('button', { name: 'Reset options' }).click();
    const html = await copy('Copy HTML');
    assert.match(html, /^<!DOCTYPE html><html lang="en" dir="ltr"/);
    assert.doesNotMatch(html, /#fffbeb|Your June update/);
    assert.doesNotMatch(await page.locator('#code').innerText(), /theme|dir:/);
  });

  it('passes axe (WCAG 2 A and AA) around the email, light and dark, wide and at 800 px', async () => {
    // The email and its editing UI are the editor package's, checked by its own tests; the
    // toolbar holds the page's commands, so it is checked here.
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 800]) {
        const found = await axeViolations(browser, `${server.url}/`, {
          ready: '#editor .sv-root',
          colorScheme,
          viewport: { width, height: 900 },
          exclude: ['#editor .sv-stage'],
        });
        assert.deepEqual(found, [], `${colorScheme}, ${width} px`);
      }
    }
  });

  // Regression (issue 40): at 1280 px a button's or a logo's settings opened as a sheet over the
  // lower half of the email, the 870 px editor having too little room right of the centred email
  it('opens a block’s settings beside the email at 1280 px and wider, covering no part of the block', async () => {
    for (const width of [1280, 1440, 1920]) {
      const wide = await openPage(browser, server.url, { viewport: { width, height: 900 } });
      try {
        await wide.page.goto(`${server.url}/`);
        await wide.page.locator('#editor .sv-content').waitFor();
        for (const block of ['logo', 'button'] as const) {
          const at = await blockSettings(wide.page, block);
          const where = `${block} at ${width} px: ${JSON.stringify(at)}`;
          assert.equal(at.sheet, false, `beside, not a sheet: ${where}`);
          assert.ok(at.settings.left >= at.email.right, `right of the email: ${where}`);
          assert.equal(overlaps(at.settings, at.block), false, `over no part of the block: ${where}`);
          assert.ok(at.settings.right <= at.editor.right && at.settings.bottom <= 900, `inside: ${where}`);
          await wide.page.keyboard.press('Escape');
          await wide.page.locator('#editor .sv-inspector').waitFor({ state: 'hidden' });
        }
        assert.deepEqual(wide.problems, []);
      } finally {
        await wide.context.close();
      }
    }
  });

  it('raised no page error and no console error (CSP violations included)', () => {
    assert.deepEqual(watched.problems, []);
  });
});

describe('the playground on a phone (375 × 812)', () => {
  let phone: WatchedPage;
  /** The phone's page (the wide one's helpers use `page`). */
  let p: Page;

  before(async () => {
    phone = await openPage(browser, server.url, { viewport: { width: 375, height: 812 } });
    p = phone.page;
    await p.goto(`${server.url}/`);
    await p
      .locator('#editor .sv-content')
      .waitFor()
      .catch((error: Error) => {
        throw new Error(`${error.message}\nthe page's problems: ${phone.problems.join(' | ') || 'none'}`);
      });
  });
  after(() => phone?.context.close());

  it('has one toolbar row, and the email starts in the top half of the screen (it was 570 px down)', async () => {
    assert.equal(await p.locator('.workbench').getByRole('toolbar').count(), 1);
    assert.equal(await toolbarRows(p), 1, 'every toolbar control on one row');
    const layout = (await p.evaluate(`({
      content: document.querySelector('#editor .sv-content').getBoundingClientRect().top,
      sideways: document.documentElement.scrollWidth > innerWidth,
      height: innerHeight,
    })`)) as { content: number; sideways: boolean; height: number };
    assert.ok(layout.content < layout.height / 2, `the email's content starts at ${layout.content} px`);
    assert.equal(layout.sideways, false, 'nothing wider than the screen');
  });

  it('offers the page’s commands once, in a "More" menu button that works by keyboard and pointer', async () => {
    const more = p.getByRole('button', { name: 'More' });
    for (const name of ['New email', 'Copy text', 'Copy HTML'])
      assert.equal(await p.getByRole('button', { name, exact: true }).count(), 0, `${name} is in the menu`);
    assert.equal(await more.getAttribute('aria-haspopup'), 'menu');
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    const focused = () =>
      p.evaluate(
        `document.activeElement?.textContent?.trim() || document.activeElement?.getAttribute('aria-label')`,
      );

    await more.focus();
    await p.keyboard.press('Enter');
    const menu = p.getByRole('menu', { name: 'More' });
    await menu.waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    assert.equal(await more.getAttribute('aria-controls'), await menu.getAttribute('id'));
    assert.deepEqual(await menu.getByRole('menuitem').allInnerTexts(), [
      'New email',
      'Copy text',
      'Copy HTML',
    ]);
    assert.equal(await focused(), 'New email');
    await p.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'Copy text');
    await p.keyboard.press('End');
    assert.equal(await focused(), 'Copy HTML');
    await p.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'New email', 'the arrows wrap');
    await p.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.equal(await focused(), 'More', 'Escape gives focus back to the button');

    await p.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'Copy HTML', 'ArrowUp opens on the last item');
    await p.keyboard.press('Tab');
    await menu.waitFor({ state: 'hidden' });

    await p.evaluate('navigator.clipboard.writeText("")');
    await more.click();
    await menu.getByRole('menuitem', { name: 'Copy HTML' }).click();
    const html = await waitUntil(
      'Copy HTML to fill the clipboard',
      async () => (await phone.clipboard()) || undefined,
    );
    assert.match(html, /^<!DOCTYPE html>/);
    assert.equal(await menu.isVisible(), false);
    assert.equal(await focused(), 'More');
    assert.match(await p.locator('#status').innerText(), /^Copied \d+\.\d KB of HTML$/);

    await more.click();
    await p.locator('.intro h1').click();
    await menu.waitFor({ state: 'hidden' });
  });

  it('previews on the phone: the 375 px email scaled to fit, merge tags filled or as written', async () => {
    await p.locator('#editor').getByRole('button', { name: 'Preview', exact: true }).click();
    await p.locator('.sv-preview [role="dialog"]').waitFor();
    await p.click('button[data-view="mobile"]');
    const body = p.frameLocator('.sv-preview-frame').locator('body');
    await body.filter({ hasText: 'Welcome aboard' }).waitFor();
    const fit = (await p.evaluate(`(() => {
      const device = document.querySelector('.sv-preview-device').getBoundingClientRect();
      const dialogBody = document.querySelector('.sv-preview .sv-modal-body');
      return {
        layoutWidth: document.querySelector('.sv-preview-frame').contentWindow.innerWidth,
        device: [Math.round(device.left), Math.round(device.right)],
        inside: device.left >= 0 && device.right <= innerWidth,
        sideways: dialogBody.scrollWidth > dialogBody.clientWidth,
      };
    })()`)) as { layoutWidth: number; device: number[]; inside: boolean; sideways: boolean };
    assert.equal(fit.layoutWidth, 375, 'the email is laid out at the phone width');
    assert.equal(fit.inside, true, `the phone within the screen: ${fit.device}`);
    assert.equal(fit.sideways, false);
    // the welcome email greets {{first_name|friend}}: its fallback, or the tag as written
    assert.match(await body.innerText(), /Welcome aboard, friend!/);
    await p.click('button[data-merge="tags"]');
    await body.filter({ hasText: '{{first_name|friend}}' }).waitFor();
    await p.keyboard.press('Escape');
    await p.locator('.sv-preview').waitFor({ state: 'detached' });
  });

  it('passes axe (WCAG 2 A and AA) with the toolbar and its open menu, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const found = await axeViolations(browser, `${server.url}/`, {
        ready: '#editor .sv-root',
        colorScheme,
        viewport: { width: 375, height: 812 },
        // the email itself is the editor package's, checked by its own tests
        exclude: ['#editor .sv-stage'],
        prepare: (page) => page.getByRole('button', { name: 'More' }).click(),
      });
      assert.deepEqual(found, [], colorScheme);
    }
  });

  it('opens a block’s settings as a sheet along the bottom, the block above it', async () => {
    const at = await blockSettings(p, 'button', true);
    assert.equal(at.sheet, true, JSON.stringify(at));
    assert.ok(at.block.bottom <= at.settings.top, `the block shows above the sheet: ${JSON.stringify(at)}`);
    await p.keyboard.press('Escape');
    await p.locator('#editor .sv-inspector').waitFor({ state: 'hidden' });
  });

  it('raised no page error and no console error', () => {
    assert.deepEqual(phone.problems, []);
  });
});
