// MailPreview in real Chromium: the two views (the phone scaled to fit a phone's screen), merge
// tags with sample values, the modal's focus handling, Escape, overlay clicks, the sandbox (a
// script in the email does not run), several previews, and destroy().
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { renderEmail } from '../src/render/email.js';
import { axeViolations } from '../test-support/axe.js';
import { launchChromium } from '../test-support/browser.js';
import { fullDocument } from '../test-support/doc.js';
import { PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results');

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let page: Page;

const HOST = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<link rel="stylesheet" href="/service.css"></head><body style="margin:0;font-family:sans-serif">
<main><h1>Host page</h1><button id="opener" type="button">Open preview</button>
<p style="height:2000px">Long page behind the dialog.</p></main>
<script src="/service.js"></script></body></html>`;

const HOSTILE = `<!DOCTYPE html><html lang="en"><head><title>Original</title>
<script>parent.__pwned = 'script'; document.title = 'ran';</script></head>
<body><p id="hello">Hello</p><img src="/nope.png" alt="" onerror="parent.__pwned = 'onerror'">
<a id="js" href="javascript:parent.__pwned='link'">click</a>
<form action="/steal"><button id="submit">Send</button></form></body></html>`;

/** Runs `code` in the page with `P` = the package's global. */
const run = <T = unknown>(code: string): Promise<T> =>
  page.evaluate(`(async () => { const P = window.ServiceEmailBuilder; ${code} })()`) as Promise<T>;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ token: 'x', pages: { '/': HOST } });
  const email = JSON.parse(
    JSON.stringify(fullDocument()).replaceAll(
      /https:\/\/example\.com\/[\w-]+\.png/g,
      `${server.origin}/pixel.png`,
    ),
  );
  server.setPage('/email.json', JSON.stringify(renderEmail(email)));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(async () => {
  await page?.close();
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await page.goto(`${server.origin}/`);
  await run(`
    window.email = await (await fetch('/email.json')).json();
    window.closeCount = 0;
    window.preview = new P.MailPreview({ closeOnOverlayClick: true, onClose: () => window.closeCount++ });
    preview.setContent(email);
    document.getElementById('opener').addEventListener('click', () => preview.show());
  `);
});

async function openFromButton(): Promise<void> {
  await page.focus('#opener');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.sv-preview [role="dialog"]');
  await page.waitForFunction(() => {
    const frame = document.querySelector<HTMLIFrameElement>('.sv-preview-frame');
    return (
      frame?.contentDocument?.readyState === 'complete' && frame.contentDocument.body?.childElementCount > 0
    );
  });
}

/** The text of the email in the frame once it contains `expected`. */
async function frameText(expected: RegExp): Promise<string> {
  const body = page.frameLocator('.sv-preview-frame').locator('body');
  await body.filter({ hasText: expected }).waitFor();
  return body.innerText();
}

const MERGE_EMAIL = `<!DOCTYPE html><html lang="en"><head><title>Hello</title></head><body>
<p id="greeting">Hi {{first_name|there}} {{last_name}}, from {{company|Acme}} &amp; {{ team }}.</p>
<p><a id="link" href="https://example.com/?u={{user.id}}">Your page</a></p></body></html>`;

const activeInDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));

describe('MailPreview in Chromium', () => {
  it('is an accessible modal: role, aria-modal, labelled title, focus moved in', async () => {
    await openFromButton();
    const dialog = await page.evaluate(() => {
      const d = document.querySelector('[role="dialog"]')!;
      return {
        modal: d.getAttribute('aria-modal'),
        title: document.getElementById(d.getAttribute('aria-labelledby')!)?.textContent,
        focused: document.activeElement?.textContent,
        visible: (window as any).preview.isVisible(),
      };
    });
    assert.deepEqual(dialog, { modal: 'true', title: 'Email preview', focused: 'Desktop', visible: true });
    assert.ok(await activeInDialog());
    assert.deepEqual(await axeViolations(page, '.sv-modal'), []);
  });

  it('renders the email only inside a sandboxed srcdoc iframe, never in the page', async () => {
    await openFromButton();
    const info = await page.evaluate(() => {
      const frame = document.querySelector<HTMLIFrameElement>('.sv-preview-frame')!;
      return {
        sandbox: frame.getAttribute('sandbox'),
        srcdoc: frame.srcdoc === (window as any).email,
        inPage: document.querySelectorAll('.sv-card, [role="article"]').length,
        inFrame: frame.contentDocument!.querySelectorAll('[role="article"]').length,
      };
    });
    assert.deepEqual(info, { sandbox: 'allow-same-origin', srcdoc: false, inPage: 0, inFrame: 1 });
    // the email as given is there too, merge tags and all, one click away
    await page.click('button[data-merge="tags"]');
    assert.equal(
      await page.evaluate(
        () =>
          document.querySelector<HTMLIFrameElement>('.sv-preview-frame')!.srcdoc === (window as any).email,
      ),
      true,
    );
  });

  it('shows merge tags with sample values or their fallbacks, or as written (raw {{first_name}} before)', async () => {
    await run(`
      window.filled = new P.MailPreview({ variables: { first_name: 'Ada', user: { id: 'a b' } } });
      filled.setContent(${JSON.stringify(MERGE_EMAIL)});
      filled.show();
    `);
    const sample = page.locator('button[data-merge="sample"]');
    const tags = page.locator('button[data-merge="tags"]');
    assert.equal(await sample.getAttribute('aria-pressed'), 'true', 'sample values first');
    assert.equal(await page.getByRole('group', { name: 'Merge tags' }).isVisible(), true);
    assert.match(await frameText(/Hi Ada/), /^Hi Ada , from Acme & \.$/m);
    const href = () =>
      page.evaluate(() =>
        document
          .querySelector<HTMLIFrameElement>('.sv-preview-frame')!
          .contentDocument!.getElementById('link')
          ?.getAttribute('href'),
      );
    assert.equal(await href(), 'https://example.com/?u=a%20b');
    assert.equal(
      await page.locator('.sv-preview-note').innerText(),
      'No sample value or fallback, shown empty: {{last_name}}, {{team}}',
    );

    await tags.click();
    assert.equal(await tags.getAttribute('aria-pressed'), 'true');
    assert.match(
      await frameText(/\{\{first_name/),
      /^Hi \{\{first_name\|there\}\} \{\{last_name\}\}, from \{\{company\|Acme\}\} & \{\{ team \}\}\.$/m,
    );
    assert.equal(await page.locator('.sv-preview-note').isVisible(), false);
    assert.equal(await run(`return filled.getContent() === ${JSON.stringify(MERGE_EMAIL)}`), true);

    // an email without merge tags has nothing to toggle
    await run(`filled.setContent('<!DOCTYPE html><html lang="en"><title>x</title><p>Plain</p></html>')`);
    await frameText(/Plain/);
    assert.equal(await page.getByRole('group', { name: 'Merge tags' }).isVisible(), false);
    const bad = await run<string>(
      `try { new P.MailPreview({ variables: [] }); } catch (e) { return e.code; }`,
    );
    assert.equal(bad, 'SEB_ERR_OPTIONS');
  });

  it("editor.preview() fills merge tags with the variables' samples, else their fallbacks", async () => {
    await run(`
      const host = document.createElement('div');
      host.id = 'sample-editor';
      document.body.append(host);
      window.sampled = new P.ServiceEditor({
        elementId: 'sample-editor',
        variables: [{ name: 'first_name', fallback: 'there', sample: 'Ada' }, { name: 'company', fallback: 'Acme' }],
        content: { type: 'doc', content: [{ type: 'paragraph', content: [
          { type: 'text', text: 'Hi ' },
          { type: 'variable', attrs: { name: 'first_name', fallback: 'there' } },
          { type: 'text', text: ' from ' },
          { type: 'variable', attrs: { name: 'company', fallback: 'Acme' } },
        ] }] },
      });
      sampled.preview();
    `);
    assert.match(await frameText(/Hi Ada/), /Hi Ada from Acme/);
    assert.match(
      await run<string>('return sampled.getHTML()'),
      /Hi \{\{first_name\|there\}\}/,
      'getHTML() keeps the tags',
    );
    await page.keyboard.press('Escape');
    await run('sampled.destroy(); document.getElementById("sample-editor").remove();');
  });

  it('scales the phone frame to fit a 375 px screen, the email still laid out 375 px wide (it overflowed)', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openFromButton();
    await page.click('button[data-view="mobile"]');
    const fit = await page.evaluate(() => {
      const frame = document.querySelector<HTMLIFrameElement>('.sv-preview-frame')!;
      const device = document.querySelector('.sv-preview-device')!.getBoundingClientRect();
      const body = document.querySelector('.sv-modal-body')!;
      const cols = [...frame.contentDocument!.querySelectorAll('[data-block="columns"] .sv-col')]
        .slice(0, 2)
        .map((c) => Math.round(c.getBoundingClientRect().top));
      return {
        layoutWidth: frame.contentWindow!.innerWidth,
        shownWidth: frame.getBoundingClientRect().width,
        inside: device.left >= 0 && device.right <= window.innerWidth,
        bodyScrollsSideways: body.scrollWidth > body.clientWidth,
        pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
        stacked: cols[1]! > cols[0]!,
        emailScrolls: frame.contentDocument!.documentElement.scrollHeight > frame.clientHeight,
      };
    });
    assert.equal(fit.layoutWidth, 375, 'the email is laid out at the phone width');
    assert.ok(fit.shownWidth < 375, `drawn smaller (${fit.shownWidth} px)`);
    assert.deepEqual(
      { inside: fit.inside, body: fit.bodyScrollsSideways, page: fit.pageScrollsSideways },
      { inside: true, body: false, page: false },
    );
    assert.equal(fit.stacked, true, 'columns stack as on a phone');
    assert.equal(fit.emailScrolls, false, 'the frame is as tall as the email');
    await page.screenshot({ path: path.join(SHOTS, 'preview-mobile-375.png') });

    // the dialog's controls stay on the screen
    const controls = await page.evaluate(() =>
      [...document.querySelectorAll('.sv-modal button')].map((b) => b.getBoundingClientRect().right),
    );
    assert.ok(Math.max(...controls) <= 375, 'no control past the right edge');
  });

  it('shows desktop at the full container width and mobile at 375 px, with a toggle', async () => {
    await openFromButton();
    const measure = () =>
      page.evaluate(() => {
        const frame = document.querySelector<HTMLIFrameElement>('.sv-preview-frame')!;
        const stage = document.querySelector<HTMLElement>('.sv-preview-stage')!;
        const cols = [...frame.contentDocument!.querySelectorAll('[data-block="columns"] .sv-col')]
          .slice(0, 2)
          .map((c) => Math.round(c.getBoundingClientRect().top));
        return {
          frame: Math.round(frame.getBoundingClientRect().width),
          inner: frame.contentWindow!.innerWidth,
          stage: stage.clientWidth - 48,
          stacked: cols[1]! > cols[0]!,
          scrolls: frame.contentDocument!.documentElement.scrollHeight > frame.clientHeight,
          pressed: [...document.querySelectorAll('button[data-view]')].map((b) =>
            b.getAttribute('aria-pressed'),
          ),
        };
      });
    const desktop = await measure();
    assert.equal(desktop.frame, desktop.stage, 'the full width of the container');
    assert.ok(desktop.frame > 900);
    assert.equal(desktop.stacked, false);
    assert.equal(desktop.scrolls, false, 'the frame is as tall as the email');
    assert.deepEqual(desktop.pressed, ['true', 'false']);
    await page.screenshot({ path: path.join(SHOTS, 'preview-desktop.png') });

    await page.click('[data-view="mobile"]');
    const mobile = await measure();
    assert.equal(mobile.frame, 375);
    assert.equal(mobile.inner, 375);
    assert.equal(mobile.stacked, true, 'columns stack as on a phone');
    assert.equal(mobile.scrolls, false);
    assert.deepEqual(mobile.pressed, ['false', 'true']);
    await page.screenshot({ path: path.join(SHOTS, 'preview-mobile.png') });

    await run(`preview.setView('desktop')`);
    assert.equal((await measure()).frame, desktop.frame);
    const bad = await run<string>(`try { preview.setView('tablet'); } catch (e) { return e.code; }`);
    assert.equal(bad, 'SEB_ERR_OPTIONS');
  });

  it('keeps focus inside while open: Tab and Shift+Tab wrap', async () => {
    await openFromButton();
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await activeInDialog(), `Tab ${i + 1}`);
      names.push(
        await page.evaluate(
          () => document.activeElement!.getAttribute('aria-label') ?? document.activeElement!.textContent!,
        ),
      );
    }
    // Desktop → Mobile → Sample values → Merge tags → Close → scroll region → Desktop (wraps)
    assert.deepEqual(names, [
      'Mobile',
      'Sample values',
      'Merge tags',
      'Close email preview',
      'Email (scroll with the arrow keys)',
      'Desktop',
    ]);
    await page.focus('button[data-view="desktop"]');
    await page.keyboard.press('Shift+Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement!.getAttribute('aria-label')),
      'Email (scroll with the arrow keys)',
      'Shift+Tab on the first control goes to the last',
    );
    // focus sent outside by a script comes back
    await page.evaluate(() => document.getElementById('opener')!.focus());
    assert.ok(await activeInDialog());
  });

  it('closes on Escape and gives focus back to the opener', async () => {
    await openFromButton();
    await page.keyboard.press('Escape');
    const state = await page.evaluate(() => ({
      open: document.querySelectorAll('.sv-modal').length,
      focus: document.activeElement?.id,
      visible: (window as any).preview.isVisible(),
      closed: (window as any).closeCount,
      overflow: document.documentElement.style.overflow,
    }));
    assert.deepEqual(state, { open: 0, focus: 'opener', visible: false, closed: 1, overflow: '' });
  });

  it('still closes on Escape, and keeps Tab in the dialog, after a click into the email', async () => {
    await openFromButton();
    const box = (await (await page.$('.sv-preview-frame'))!.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + 40);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'IFRAME');
    await page.keyboard.press('Tab');
    assert.ok(await activeInDialog());
    assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'IFRAME');
    await page.mouse.click(box.x + box.width / 2, box.y + 40);
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.querySelectorAll('.sv-modal').length), 0);
  });

  it('closes on an overlay click only with closeOnOverlayClick, never on a click inside', async () => {
    await openFromButton();
    const visible = () => page.evaluate(() => (window as any).preview.isVisible());
    await page.click('.sv-modal-title');
    assert.equal(await visible(), true, 'a click on the title keeps it open');
    const box = (await (await page.$('.sv-preview-frame'))!.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + 40);
    assert.equal(await visible(), true, 'a click into the email keeps it open');
    await page.mouse.click(8, 8); // the overlay, outside the dialog
    assert.equal(await visible(), false);

    await run(`
      window.sticky = new P.MailPreview({ closeOnOverlayClick: false });
      sticky.setContent(email);
      sticky.show();
    `);
    await page.mouse.click(8, 8);
    assert.equal(await run(`return sticky.isVisible()`), true);
    await page.click('.sv-modal-title');
    assert.equal(await run(`return sticky.isVisible()`), true);
    await page.click('.sv-modal-close');
    assert.equal(await run(`return sticky.isVisible()`), false);
  });

  it('runs no script of the email: no script, handler or javascript: link, no form', async () => {
    await run(`preview.setContent(${JSON.stringify(HOSTILE)}); preview.show();`);
    await page.waitForFunction(() =>
      document
        .querySelector<HTMLIFrameElement>('.sv-preview-frame')
        ?.contentDocument?.getElementById('hello'),
    );
    await page.waitForTimeout(200);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    await frame.click('#js');
    await frame.click('#submit');
    await page.waitForTimeout(200);
    const state = await page.evaluate(() => ({
      pwned: (window as any).__pwned,
      title: document.querySelector<HTMLIFrameElement>('.sv-preview-frame')!.contentDocument!.title,
      url: location.pathname,
    }));
    assert.deepEqual(state, { pwned: undefined, title: 'Original', url: '/' });
  });

  it('updates an open dialog on setContent', async () => {
    await openFromButton();
    await run(
      `preview.setContent('<!DOCTYPE html><html lang="en"><title>x</title><p id="new">Updated</p></html>')`,
    );
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLIFrameElement>('.sv-preview-frame')?.contentDocument?.getElementById('new')
          ?.textContent === 'Updated',
    );
  });

  it('lets several previews exist; the top one handles keys; destroy() leaves nothing behind', async () => {
    await openFromButton();
    await run(`
      window.second = new P.MailPreview({ view: 'mobile' });
      second.setContent('<p>second</p>');
      second.show();
    `);
    assert.equal(await page.evaluate(() => document.querySelectorAll('.sv-modal').length), 2);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Mobile');
    await page.keyboard.press('Escape');
    assert.deepEqual(await run(`return [preview.isVisible(), second.isVisible()]`), [true, false]);
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Desktop',
      'focus back in the first',
    );
    await run(`preview.destroy(); second.destroy(); preview.destroy();`);
    const left = await page.evaluate(() => ({
      modals: document.querySelectorAll('[class*="sv-"]').length,
      overflow: document.documentElement.style.overflow,
      focus: document.activeElement?.id,
    }));
    assert.deepEqual(left, { modals: 0, overflow: '', focus: 'opener' });
    assert.equal(
      await run(`try { preview.show(); } catch (e) { return e.code; }`),
      'SEB_ERR_PREVIEW_DESTROYED',
    );
  });
});
