// Every word of the editor's chrome goes through its catalogue (issue 38): with `messages`
// marking every English message (⟪…⟫), each menu, settings form, bubble, card and dialog is
// opened in real Chromium and every text, name, tooltip and placeholder it shows must be marked,
// or be data (a colour, a size, a URL pattern, a merge tag, a user's text). A string added to
// the chrome without a message, or drawn where the catalogue does not reach, fails here.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ENGLISH } from '../src/i18n/en.js';
import { launchChromium } from '../test-support/browser.js';
import { editorPage, startTestServer } from '../test-support/server.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

before(async () => {
  server = await startTestServer({ token: 't' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const MARKED = Object.fromEntries(ENGLISH.map((key) => [key, `⟪${key}⟫`]));

/** What may show unmarked: data and code, not words. */
const DATA = [
  /^#[0-9a-f]{6}$/i, // colours, and the colour field's placeholder
  /^\d+px$/, // font sizes
  /^(px|%)$/, // units
  /^https:\/\/(…\/image\.png)?$/, // URL fields' placeholders
  /^\{\{[a-z_]+(\|[^}]*)?\}\}$/, // merge tags in the {{ menu
  /^plan$/, // the condition's example variable name
  /^(Facebook|Instagram|X|LinkedIn|YouTube|GitHub|TikTok)$/, // names of networks
];

const DOC = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Hello ' },
        { type: 'text', text: 'linked', marks: [{ type: 'link', attrs: { href: 'https://a.example' } }] },
        { type: 'text', text: ' world' },
      ],
    },
    // a merge tag's tooltip (its fallback) is chrome drawn inside the email
    {
      type: 'paragraph',
      content: [
        { type: 'variable', attrs: { name: 'first_name', fallback: 'there' } },
        { type: 'variable', attrs: { name: 'company' } },
      ],
    },
    { type: 'button', attrs: { text: 'Buy', href: '' } },
    { type: 'image', attrs: { src: '' } },
    { type: 'socialLinks' },
    { type: 'footer' },
    { type: 'signature' },
    { type: 'paragraph' },
  ],
};

/** The chrome's words on screen that are neither marked nor data. */
const unmarked = async (page: Page, where: string): Promise<string[]> => {
  const words = (await page.evaluate(`(() => {
    const out = [];
    for (const root of document.querySelectorAll('.sv-root, .sv-modal')) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = walker.currentNode; n; n = walker.nextNode()) {
        const el = n instanceof Element ? n : n.parentElement;
        if (el.closest('.sv-content *') && !el.closest('.sv-image-empty,.sv-upload,.sv-hint[data-problem],.sv-variable')) continue;
        // hidden, the host's, and people's own text: a link's address, a template's name
        if (el.closest('[hidden], .sv-toolbar-host, .sv-link-url, .sv-tpl-meta strong, .sv-tpl-grid')) continue;
        if (n.nodeType === 3) out.push(n.data.trim());
        // label: a datalist's suggestion (a variable's type)
        else for (const a of ['aria-label', 'title', 'placeholder', 'label']) out.push(el.getAttribute(a) || '');
      }
    }
    return out;
  })()`)) as string[];
  return words
    .filter((w) => w !== '' && !w.includes('⟪') && !DATA.some((d) => d.test(w)))
    .map((w) => `${where}: ${w}`);
};

it('marks every word of the chrome: toolbar, menus, settings, bubble, link card, dialogs', async () => {
  server.setPage(
    '/',
    editorPage(
      `window.editor = new ServiceEmailBuilder.ServiceEditor({ elementId: 'editor', colorScheme: 'light', settingsControl: true, messages: ${JSON.stringify(MARKED)}, content: ${JSON.stringify(DOC)} });`,
    ),
  );
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await page.goto(`${server.origin}/`);
  await page.waitForSelector('.sv-toolbar[aria-label="⟪Editor⟫"]');
  const found = await unmarked(page, 'toolbar and blocks');

  await page.click('.sv-content > p >> nth=-1');
  await page.keyboard.type('/');
  await page.waitForSelector('.sv-slash:not([hidden]) .sv-slash-item');
  found.push(...(await unmarked(page, 'slash menu')));
  await page.keyboard.type('zzqq');
  await page.waitForSelector('.sv-slash-empty:not([hidden])');
  found.push(...(await unmarked(page, 'slash menu, no match')));
  await page.keyboard.press('Escape');
  await page.keyboard.type(' {{');
  await page.waitForSelector('.sv-slash:not([hidden]) .sv-slash-item');
  found.push(...(await unmarked(page, '{{ menu')));
  // a name no variable has: "Insert {{zz}}"
  await page.keyboard.type('zz');
  await page.waitForSelector('.sv-slash:not([hidden]) .sv-slash-item[data-id="var-zz"]');
  found.push(...(await unmarked(page, '{{ menu, a new name')));
  await page.keyboard.press('Escape');

  for (const block of [
    '.sv-button',
    '[data-block="socialLinks"]',
    '[data-block="footer"]',
    '[data-block="signature"]',
  ]) {
    await page.click(`.sv-content ${block}`, { position: { x: 4, y: 4 } });
    await page.waitForSelector('.sv-inspector:not([hidden]) [data-field]');
    found.push(...(await unmarked(page, `settings of ${block}`)));
  }
  await page.hover('.sv-content .sv-button');
  await page.click('.sv-grip');
  await page.waitForSelector('.sv-menu:not([hidden]) [role="menuitem"]');
  found.push(...(await unmarked(page, 'block menu')));
  await page.keyboard.press('Escape');

  await page.click('.sv-settings-btn');
  await page.waitForSelector('.sv-settings:not([hidden]) [data-field]');
  found.push(...(await unmarked(page, 'email settings')));
  await page.click('.sv-settings-btn');
  await page.click('.sv-theme-btn');
  await page.waitForSelector('[role="menuitemradio"]');
  found.push(...(await unmarked(page, 'colour scheme menu')));
  await page.keyboard.press('Escape');

  await page.dblclick('.sv-content p >> nth=0');
  await page.waitForSelector('.sv-bubble:not([hidden]) button');
  found.push(...(await unmarked(page, 'formatting bubble')));
  await page.click('.sv-bubble button[aria-label="⟪Text colour⟫"]');
  await page.waitForSelector('.sv-bubble .sv-swatches');
  found.push(...(await unmarked(page, 'colour swatches')));
  await page.keyboard.press('Escape');
  await page.click('.sv-content a');
  await page.waitForSelector('.sv-link-card:not([hidden])');
  found.push(...(await unmarked(page, 'link card')));

  await page.click('.sv-preview-btn');
  await page.waitForSelector('.sv-modal .sv-seg-btn[aria-pressed="true"]');
  await page.waitForSelector('.sv-modal-title:has-text("⟪Email preview⟫")');
  found.push(...(await unmarked(page, 'preview')));
  await page.keyboard.press('Escape');
  await page.waitForSelector('.sv-modal', { state: 'detached' });

  await page.evaluate(() =>
    (window as unknown as { editor: { saveTemplate(n: string): Promise<unknown> } }).editor.saveTemplate(
      'Mine',
    ),
  );
  await page.click('.sv-tpl-btn');
  await page.waitForSelector('.sv-modal .sv-tpl-item');
  await page.waitForSelector('.sv-modal-title:has-text("⟪Templates⟫")');
  found.push(...(await unmarked(page, 'templates')));
  await page.close();

  assert.deepEqual(found, []);
});
