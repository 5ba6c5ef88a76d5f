// The editor's issue-7 features as a person uses them in Chromium: branding in every
// pre-filled slash command and live changes, merge variables (typed, from the "{{" menu and
// the slash menu), the template picker with browser storage, and the Preview button.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import type { JSONNode } from '../src/model/types.js';
import { demoBrand, withoutNetworks } from '../test-support/brand.js';
import { launchChromium } from '../test-support/browser.js';
import { editorPage, PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results');
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let page: Page;
const warnings: string[] = [];

const run = <T = unknown>(code: string): Promise<T> =>
  page.evaluate(`(async () => { const P = window.ServiceEmailBuilder; ${code} })()`) as Promise<T>;
const json = () => run<JSONNode>('return editor.getJSON()');
const html = () => run<string>('return editor.getHTML()');
const first = async () => (await json()).content?.[0];

async function emptyDoc(): Promise<void> {
  await run(`editor.setContent({ type: 'doc', content: [{ type: 'paragraph' }] })`);
  await page.click('.sv-content p');
}

async function slash(query: string, title: string): Promise<void> {
  await page.keyboard.type(`/${query}`);
  await page.waitForSelector('.sv-slash:not([hidden])');
  const titles = await page.$$eval('.sv-slash .sv-slash-item strong', (els) => els.map((e) => e.textContent));
  const index = titles.indexOf(title);
  assert.ok(index >= 0, `${title} not in ${titles.join(', ')}`);
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ token: 'x' });
  // two networks left out, so the social links show only those given
  const brand = withoutNetworks(demoBrand(server.origin), 'facebook', 'youtube');
  server.setPage(
    '/',
    editorPage(`
      window.editor = new ServiceEmailBuilder.ServiceEditor({
        elementId: 'editor', colorScheme: 'light',
        branding: ${JSON.stringify(brand)},
        variables: ['first_name', { name: 'order.total', label: 'Order total', fallback: '$0' }, 'bad name'],
      });
    `),
  );
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  page.on('console', (m: ConsoleMessage) => m.type() === 'warning' && warnings.push(m.text()));
  await page.goto(`${server.origin}/`);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

describe('branding in the slash commands', () => {
  it('logo: the light and dark images, alt from the company', async () => {
    await emptyDoc();
    await slash('logo', 'Logo');
    assert.deepEqual((await first())?.attrs, {
      src: `${server.origin}/assets/logo-light.png`,
      darkSrc: `${server.origin}/assets/logo-dark.png`,
      alt: 'Lumen',
      href: '',
      width: 120,
      align: 'center',
    });
    await page.waitForSelector('.sv-content img[src$="logo-light.png"]');
    const out = await html();
    assert.match(out, /<img src="[^"]+logo-light\.png" alt="Lumen"/);
    assert.match(out, /<div class="sv-dark"[^>]*><img src="[^"]+logo-dark\.png"/);
  });

  it('social links: only the networks given', async () => {
    await emptyDoc();
    await slash('social', 'Social links');
    assert.deepEqual((await first())?.attrs?.links, [
      { network: 'instagram', url: 'https://instagram.com/lumen' },
      { network: 'twitter', url: 'https://x.com/lumen' },
      { network: 'linkedin', url: 'https://linkedin.com/company/lumen' },
      { network: 'github', url: 'https://github.com/lumen' },
    ]);
    const out = await html();
    assert.ok(!out.includes('Facebook') && !out.includes('YouTube'));
  });

  it('button: the brand colour, with a readable label', async () => {
    await emptyDoc();
    await slash('button', 'Button');
    const attrs = (await first())?.attrs;
    assert.equal(attrs?.backgroundColor, '#e11d48');
    assert.equal(attrs?.textColor, '#ffffff');
    assert.match(await html(), /fillcolor="#e11d48"/);
  });

  it('footer: contact details and the unsubscribe text and link', async () => {
    await emptyDoc();
    await slash('footer', 'Footer');
    const attrs = (await first())?.attrs;
    assert.equal(attrs?.company, 'Lumen');
    assert.equal(attrs?.email, 'hello@lumen.example');
    assert.equal(attrs?.phone, '+1 555 0100');
    assert.equal(attrs?.address, '1 Harbour Street, Portland, OR 97201');
    assert.equal(attrs?.unsubscribeText, 'Unsubscribe from these emails');
    const out = await html();
    assert.match(
      out,
      /<a href="https:\/\/lumen\.example\/unsubscribe\?u=\{\{user_id\}\}"[^>]*>Unsubscribe from these emails<\/a>/,
    );
    assert.match(out, /href="mailto:hello@lumen\.example"/);
    // the editor shows the footer as the email does: the unsubscribe text as a link, no raw URL
    const shown = page.locator('.sv-content .sv-footer');
    assert.doesNotMatch(await shown.innerText(), /https?:/);
    const links = shown.locator('.sv-footer-link');
    assert.deepEqual(await links.allInnerTexts(), [
      'hello@lumen.example',
      '+1 555 0100',
      'Unsubscribe from these emails',
    ]);
    assert.equal(await links.last().getAttribute('title'), 'https://lumen.example/unsubscribe?u={{user_id}}');
    assert.equal(await shown.locator('a').count(), 0, 'no link to follow by accident while editing');
  });

  it('footer and signature without an address or name: nothing made up, the editor and getProblems() say what is missing', async () => {
    await run(`editor.setBranding(${JSON.stringify({ contact: { address: null } })})`);
    await emptyDoc();
    await slash('footer', 'Footer');
    await run(
      `editor.setContent({ type: 'doc', content: [editor.getJSON().content[0], { type: 'signature' }] })`,
    );
    const out = await html();
    assert.doesNotMatch(out, /Main Street|City, Country|Your Company|Your Name/);
    const hints = await page.$$eval('.sv-content [data-problem]', (els) =>
      els.map((e) => [e.getAttribute('data-problem'), e.textContent]),
    );
    assert.deepEqual(hints, [
      ['SEB_PROBLEM_NO_ADDRESS', 'Add your postal address'],
      ['SEB_PROBLEM_NO_UNSUBSCRIBE', 'Unsubscribe line: not in the email until it has a link'],
      ['SEB_PROBLEM_NO_SENDER_NAME', 'Add your name'],
    ]);
    assert.doesNotMatch(out, /Add your postal address|data-problem/, 'the prompts stay in the editor');
    const problems = await run<{ code: string; path: number[] }[]>('return editor.getProblems()');
    assert.deepEqual(
      problems.map((p) => [p.code, p.path]),
      [
        ['SEB_PROBLEM_NO_ADDRESS', [0]],
        ['SEB_PROBLEM_NO_UNSUBSCRIBE', [0]],
        ['SEB_PROBLEM_NO_SENDER_NAME', [1]],
      ],
    );
    await page.locator('.sv-content').screenshot({ path: path.join(SHOTS, 'problems.png') });
    await run(
      `editor.setBranding(${JSON.stringify(withoutNetworks(demoBrand(server.origin), 'facebook', 'youtube'))})`,
    );
  });

  it('blocks the email leaves out until they are complete say so in the editor and in getProblems()', async () => {
    // regression: a social row without addresses and an image without a picture vanished from
    // getHTML() and the preview with nothing telling the author why
    await run(
      `editor.setContent({ type: 'doc', content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] },
        { type: 'socialLinks', attrs: { links: [{ network: 'x', url: '' }, { network: 'github', url: '' }] } },
        { type: 'image' },
        { type: 'logo' },
      ] })`,
    );
    const out = await html();
    assert.doesNotMatch(out, /sv-pill|<img/, 'precondition: none of the three is in the email');
    const hints = await page.$$eval('.sv-content [data-problem]', (els) =>
      els.map((e) => [e.getAttribute('data-problem'), e.textContent]),
    );
    assert.deepEqual(hints, [
      ['SEB_PROBLEM_NO_SOCIAL_LINKS', 'Not in the email until a profile address is added'],
      ['SEB_PROBLEM_NO_IMAGE', 'Not in the email until an image is added'],
      ['SEB_PROBLEM_NO_IMAGE', 'Not in the email until an image is added'],
    ]);
    const problems = await run<{ code: string; block: string; path: number[] }[]>(
      'return editor.getProblems()',
    );
    assert.deepEqual(
      problems.map((p) => [p.code, p.block, p.path]),
      [
        ['SEB_PROBLEM_NO_SOCIAL_LINKS', 'socialLinks', [1]],
        ['SEB_PROBLEM_NO_IMAGE', 'image', [2]],
        ['SEB_PROBLEM_NO_IMAGE', 'logo', [3]],
      ],
    );
    await page.locator('.sv-content').screenshot({ path: path.join(SHOTS, 'left-out-blocks.png') });
  });

  it('signature: avatar, name, position and company', async () => {
    await emptyDoc();
    await slash('signature', 'Signature');
    const attrs = (await first())?.attrs;
    assert.deepEqual(
      [attrs?.avatar, attrs?.name, attrs?.position, attrs?.company],
      [`${server.origin}/assets/avatar.png`, 'Maya Rivers', 'Head of Customer Success', 'Lumen'],
    );
    await page.screenshot({ path: path.join(SHOTS, 'editor-branded-signature.png') });
  });

  it('setBranding() updates branded blocks live in one undo step, and keeps edited ones', async () => {
    await run(`editor.setContent({ type: 'doc', content: [{ type: 'paragraph' }] })`);
    await page.click('.sv-content p');
    await slash('logo', 'Logo');
    await page.keyboard.press('ArrowDown');
    await page.click('.sv-content');
    await run(`
      const b = editor.getBranding();
      editor.setContent({ type: 'doc', content: [
        { type: 'logo', attrs: { src: b.logo.light, darkSrc: b.logo.dark, alt: 'Lumen' } },
        { type: 'button', attrs: { text: 'Brand', backgroundColor: '#e11d48' } },
        { type: 'button', attrs: { text: 'Own', backgroundColor: '#16a34a' } },
        { type: 'paragraph' },
      ] });
    `);
    const before = await json();
    assert.notEqual(before.content?.[0]?.attrs?.src, `${server.origin}/assets/logo-dark.png`, 'precondition');
    const problems = await run<unknown[]>(`
      const b = editor.getBranding();
      return editor.setBranding({ ...b, brandColor: '#2563eb', logo: { light: '${server.origin}/assets/logo-dark.png', dark: null } });
    `);
    assert.deepEqual(problems, []);
    const doc = await json();
    assert.equal(doc.content?.[0]?.attrs?.src, `${server.origin}/assets/logo-dark.png`);
    assert.equal(doc.content?.[1]?.attrs?.backgroundColor, '#2563eb');
    assert.equal(doc.content?.[2]?.attrs?.backgroundColor, '#16a34a');
    await run('editor.undo();');
    const undone = await json();
    assert.equal(undone.content?.[0]?.attrs?.src, before.content?.[0]?.attrs?.src, 'one undo: the old logo');
    assert.equal(undone.content?.[1]?.attrs?.backgroundColor, '#e11d48', 'one undo: the old brand colour');
    assert.equal(undone.content?.[2]?.attrs?.backgroundColor, '#16a34a');
    await run('editor.redo();');
    assert.deepEqual(await json(), doc, 'redo brings the new brand back');
    await emptyDoc();
    await slash('button', 'Button');
    assert.equal((await first())?.attrs?.backgroundColor, '#2563eb', 'later commands use the new brand');
    await run('editor.undo(); editor.undo();');
  });

  it('reports bad branding values clearly, ignores them, and never renders them', async () => {
    const problems = await run<{ path: string; reason: string }[]>(`
      return editor.setBranding({
        brandColor: 'hotpink',
        logo: { light: 'javascript:alert(1)', dark: null },
        contact: { email: 'nobody', phone: null, address: 'Main St' },
        socialMedia: { github: 'https://github.com/ok', facebook: 'ftp://fb' },
      });
    `);
    assert.deepEqual(
      problems.map((p) => p.path),
      [
        'branding.logo.light',
        'branding.socialMedia.facebook',
        'branding.brandColor',
        'branding.contact.email',
      ],
    );
    assert.ok(
      warnings.some((w) =>
        /SEB_ERR_BRANDING: Branding value branding.contact.email ignored: expected an email address/.test(w),
      ),
    );
    assert.deepEqual(await run('return editor.brandingProblems.length'), 4);
    await emptyDoc();
    await slash('footer', 'Footer');
    await page.keyboard.press('Enter');
    await slash('logo', 'Logo');
    const out = await html();
    assert.ok(!out.includes('javascript:') && !out.includes('nobody') && !out.includes('hotpink'));
    assert.match(out, /Main St/);
    const doc = await json();
    assert.equal(doc.content?.[0]?.attrs?.email, '');
  });
});

describe('merge variables', () => {
  before(async () => {
    await run(`editor.setBranding(null)`);
  });

  it('turns {{name|fallback}} typed in full into a chip, kept in getHTML() and getText()', async () => {
    await emptyDoc();
    await page.keyboard.type('Hi {{first_name|friend}}!');
    await page.waitForSelector('.sv-content .sv-variable');
    const para = await first();
    assert.deepEqual(para?.content, [
      { type: 'text', text: 'Hi ' },
      { type: 'variable', attrs: { name: 'first_name', fallback: 'friend' } },
      { type: 'text', text: '!' },
    ]);
    assert.match(await html(), />Hi \{\{first_name\|friend\}\}!<\/p>/);
    assert.equal(await run('return editor.getText()'), 'Hi {{first_name|friend}}!\n');
    const filled = await run<{ output: string }>(
      `return P.renderTemplate(editor.getHTML(), { first_name: '<Ada>' })`,
    );
    assert.match(filled.output, />Hi &lt;Ada&gt;!<\/p>/);
  });

  it('offers the host’s variables after {{, filtered as you type, and the typed name itself', async () => {
    await emptyDoc();
    await page.keyboard.type('Total: {{ord');
    await page.waitForSelector(
      '.sv-popover[hidden] ~ .sv-popover:not([hidden]) .sv-slash-item, .sv-slash:not([hidden]) .sv-slash-item',
    );
    const titles = await page.$$eval('.sv-slash:not([hidden]) .sv-slash-item strong', (els) =>
      els.map((e) => e.textContent),
    );
    assert.deepEqual(titles, ['Order total', 'Insert {{ord}}']);
    const label = await page.$eval('.sv-slash:not([hidden]) [role="listbox"]', (el) =>
      el.getAttribute('aria-label'),
    );
    assert.equal(label, 'Insert variable');
    await page.keyboard.press('Enter');
    assert.deepEqual((await first())?.content, [
      { type: 'text', text: 'Total: ' },
      { type: 'variable', attrs: { name: 'order.total', fallback: '$0' } },
    ]);
    assert.ok(
      warnings.some((w) => /"bad name" is not a variable name/.test(w)),
      'a bad host variable is reported',
    );
  });

  it('inserts a variable from the slash menu and edits its name and fallback in its settings', async () => {
    await emptyDoc();
    await slash('variable', 'Variable');
    await page.waitForSelector('.sv-inspector:not([hidden])');
    await page.fill('.sv-inspector [data-field="name"] input', 'company');
    await page.fill('.sv-inspector [data-field="fallback"] input', 'your team');
    assert.match(await html(), /\{\{company\|your team\}\}/);
  });

  it('turns tags in pasted text and in HTML given to setContent into chips', async () => {
    await run(`editor.setContent('<p>Dear <strong>{{ first_name }}</strong>, see {{link_url}}</p>')`);
    const para = await first();
    assert.deepEqual(para?.content?.[1], {
      type: 'variable',
      attrs: { name: 'first_name', fallback: '' },
      marks: [{ type: 'bold' }],
    });
    assert.equal(para?.content?.[3]?.type, 'variable');
    assert.match(await html(), /<strong>\{\{first_name\}\}<\/strong>/);
  });
});

describe('the template picker with browser storage', () => {
  before(async () => {
    await run(`editor.setBranding(${JSON.stringify(demoBrand(server.origin))}); localStorage.clear();`);
  });

  it('opens on the Templates button with the spec’s two tabs', async () => {
    await page.click('.sv-tpl-btn');
    await page.waitForSelector('.sv-templates [role="dialog"]');
    const tabs = await page.$$eval('[role="tab"]', (els) =>
      els.map((e) => [e.textContent, e.getAttribute('aria-selected')]),
    );
    assert.deepEqual(tabs, [
      ['My Templates', 'true'],
      ['Purchased Templates', 'false'],
    ]);
    await page.waitForSelector('.sv-tpl-empty:text("No saved templates yet")');
    assert.equal(
      await page.evaluate(() => !!document.activeElement?.matches('[role="tab"][aria-selected="true"]')),
      true,
    );
  });

  it('shows the purchased gallery and loads a template with the branding applied', async () => {
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getAttribute('[role="tab"][data-tab="purchased"]', 'aria-selected'), 'true');
    await page.waitForSelector('.sv-tpl-card');
    assert.equal(await page.$$eval('.sv-tpl-card', (els) => els.length), 8);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS, 'templates-purchased.png') });
    await page.click('[aria-label="Use template Receipt"]');
    await page.waitForSelector('.sv-templates', { state: 'detached' });
    const out = await html();
    assert.match(out, /logo-light\.png/);
    assert.match(out, /fillcolor="#e11d48"/);
    assert.match(out, /hello@lumen\.example/);
    assert.match(out, /Thanks for your order!/);
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('sv-content')), true);
    await page.screenshot({ path: path.join(SHOTS, 'editor-receipt-template.png') });
  });

  it('saves, lists, renames, loads and deletes My Templates in browser storage', async () => {
    await run(`editor.openTemplates('mine')`);
    await page.waitForSelector('.sv-tpl-empty');
    await page.fill('.sv-tpl-save input', 'Receipt (Lumen)');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.sv-tpl-item:has-text("Receipt (Lumen)")');
    assert.equal(await page.textContent('.sv-tpl-status'), 'Saved “Receipt (Lumen)”.');
    const stored = await run<{ name: string }[]>(`return JSON.parse(localStorage.getItem('sv-templates'))`);
    assert.deepEqual(
      stored.map((s) => s.name),
      ['Receipt (Lumen)'],
    );

    await page.click('[aria-label="Rename template Receipt (Lumen)"]');
    await page.fill('.sv-tpl-item input', 'Receipt v2');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.sv-tpl-item strong:text("Receipt v2")');
    await page.screenshot({ path: path.join(SHOTS, 'templates-mine.png') });

    // Escape in the rename field cancels the rename, not the dialog
    await page.click('[aria-label="Rename template Receipt v2"]');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('.sv-templates'), true);

    await run(
      `editor.setContent({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'scratch' }] }] })`,
    );
    await page.click('[aria-label="Use template Receipt v2"]');
    await page.waitForSelector('.sv-templates', { state: 'detached' });
    assert.match(await html(), /Thanks for your order!/);

    await run(`editor.openTemplates()`);
    await page.click('[aria-label="Delete template Receipt v2"]');
    await page.click('[aria-label="Confirm: delete template Receipt v2"]');
    await page.waitForSelector('.sv-tpl-empty');
    assert.deepEqual(await run(`return JSON.parse(localStorage.getItem('sv-templates'))`), []);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.sv-templates', { state: 'detached' });
  });

  it('saves through the API too, and reports a store failure in the dialog', async () => {
    const saved = await run<{ name: string; id: string }>(`return editor.saveTemplate('From code')`);
    assert.equal(saved.name, 'From code');
    await run(`
      const store = await editor.getTemplateStore();
      window.realCreate = store.create.bind(store);
      store.create = () => Promise.reject(new P.ServiceEditorError('SEB_ERR_TEMPLATE_STORE', { reason: 'browser storage is full; delete some templates and try again' }));
    `);
    await run(`editor.openTemplates()`);
    await page.fill('.sv-tpl-save input', 'Too much');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.sv-tpl-status.sv-error');
    assert.equal(
      await page.textContent('.sv-tpl-status'),
      'The template store failed: browser storage is full; delete some templates and try again',
    );
    await page.keyboard.press('Escape');
  });
});

describe('the Preview button', () => {
  it('opens the preview on the current email, and closes back to the editor', async () => {
    await page.click('.sv-preview-btn');
    await page.waitForSelector('.sv-preview [role="dialog"]');
    await page.waitForFunction(() =>
      document
        .querySelector<HTMLIFrameElement>('.sv-preview-frame')
        ?.contentDocument?.body?.textContent?.includes('Thanks for your order'),
    );
    await page.keyboard.press('Escape');
    assert.equal(
      await page.evaluate(() => document.activeElement?.classList.contains('sv-preview-btn')),
      true,
    );
  });

  it('destroy() closes everything the editor opened', async () => {
    await page.click('.sv-preview-btn');
    await run(`editor.destroy()`);
    assert.equal(await page.evaluate(() => document.querySelectorAll('[class*="sv-"]').length), 0);
  });
});
