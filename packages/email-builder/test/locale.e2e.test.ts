// The editor's own words in other languages, in real Chromium (issue 38): the German and the
// Arabic editors open with their chrome translated (toolbar, slash menu, a block's settings, an
// empty image's form), Arabic mirrored (dir="rtl", menus end at the caret, panels on the other
// side), both clean under axe; `messages` overrides a string; an unknown locale warns and stays
// English; and the UI language never reaches the email: getHTML() is the same in every locale.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ENGLISH } from '../src/i18n/en.js';
import de from '../src/i18n/locales/de.js';
import { renderEmail } from '../src/render/email.js';
import { axeViolations } from '../test-support/axe.js';
import { launchChromium } from '../test-support/browser.js';
import { editorPage, startTestServer } from '../test-support/server.js';

const SHOTS = process.env.LOCALE_SHOTS ?? '/tmp/locale-shots';

type Win = { editor: import('../src/editor.js').ServiceEditor };
type Rect = { left: number; right: number; top: number; bottom: number };

const LONG = 'A line of text long enough to put the caret well away from either edge';
const DOC = {
  type: 'doc',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: LONG }] },
    { type: 'button', attrs: { text: 'Buy', href: 'https://shop.example' } },
    { type: 'paragraph', content: [{ type: 'variable', attrs: { name: 'first_name', fallback: 'there' } }] },
    { type: 'image', attrs: { src: '', alt: '' } },
    { type: 'paragraph' },
    { type: 'footer' },
  ],
};

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

/** A page with `new ServiceEditor({ ...options })` as `window.editor`, its console kept. */
async function open(options: string, width = 1280): Promise<{ page: Page; console: string[] }> {
  const at = `/e${Math.random().toString(36).slice(2)}`;
  server.setPage(
    at,
    editorPage(
      `window.editor = new ServiceEmailBuilder.ServiceEditor({ elementId: 'editor', colorScheme: 'light', settingsControl: true, content: ${JSON.stringify(DOC)}, ${options} });`,
    ),
  );
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  const logged: string[] = [];
  page.on('console', (m) => logged.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await page.goto(`${server.origin}${at}`);
  return { page, console: logged };
}

const rect = (page: Page, selector: string): Promise<Rect> =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
const name = (page: Page, selector: string) => page.$eval(selector, (el) => el.getAttribute('aria-label'));

/** Opens the slash menu at the end of the first paragraph; returns the x where its "/" starts. */
async function slashAtEndOfFirstLine(page: Page): Promise<number> {
  await page.click('.sv-content p >> nth=0');
  await page.keyboard.press('End');
  await page.keyboard.type(' /');
  await page.waitForSelector('.sv-slash:not([hidden]) .sv-slash-item');
  return page.evaluate(() => {
    const text = document.querySelector('.sv-content p')!.firstChild as Text;
    const range = document.createRange();
    range.setStart(text, text.length - 1);
    range.setEnd(text, text.length);
    return range.getBoundingClientRect().left;
  });
}

/** The chrome's words shown now (texts, names, tooltips, placeholders), outside the email's text. */
const chromeWords = (page: Page): Promise<string[]> =>
  // a string, not a function: the test runner's transform would name its inner functions
  page.evaluate(`(() => {
    const words = [];
    const root = document.querySelector('.sv-root');
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.currentNode; n; n = walker.nextNode()) {
      const el = n instanceof Element ? n : n.parentElement;
      if (el.closest('.sv-content *') && !el.closest('.sv-image-empty,.sv-upload')) continue;
      if (el.closest('[hidden], .sv-toolbar-host')) continue;
      if (n.nodeType === 3) words.push(n.data.trim());
      else for (const a of ['aria-label', 'title', 'placeholder']) words.push(el.getAttribute(a) || '');
    }
    return words.filter((w) => w !== '');
  })()`);

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ token: 't' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('a German editor (locale: "de")', () => {
  let page: Page;
  before(async () => {
    ({ page } = await open(`locale: 'de'`));
    await page.waitForSelector('.sv-root[lang="de"]');
  });

  it('shows its toolbar, content name, empty image and placeholder in German', async () => {
    assert.equal(await name(page, '.sv-toolbar'), 'Editor');
    assert.equal(await name(page, '.sv-toolbar .sv-icon-btn >> nth=0'), 'Rückgängig');
    assert.equal(await page.textContent('.sv-tpl-label'), 'Vorlagen');
    assert.equal(await name(page, '.sv-settings-btn'), 'E-Mail-Einstellungen');
    assert.equal(await name(page, '.sv-theme-btn'), 'Farbschema: hell');
    assert.equal(await name(page, '.sv-content'), 'E-Mail-Inhalt');
    assert.equal(await page.textContent('.sv-image-empty .sv-image-hint span'), 'Bild hinzufügen');
    assert.equal(
      await page.getAttribute('.sv-image-empty input', 'placeholder'),
      'oder eine Bild-URL einfügen',
    );
    // a footer's hint about its missing address, drawn inside the email by the block itself
    assert.equal(
      await page.textContent('.sv-content .sv-hint[data-problem="SEB_PROBLEM_NO_ADDRESS"]'),
      'Postanschrift hinzufügen',
    );
    // a merge tag's tooltip, its fallback
    assert.equal(await page.getAttribute('.sv-content .sv-variable', 'title'), 'Ersatz: there');
    await page.click('.sv-content > p >> nth=-1');
    assert.equal(
      await page.getAttribute('.sv-content .sv-empty', 'data-placeholder'),
      'Schreiben oder „/“ für Blöcke drücken …',
    );
  });

  it('lists the slash menu in German, finds blocks by their German names, says so when none match', async () => {
    await slashAtEndOfFirstLine(page);
    assert.equal(await name(page, '.sv-slash [role="listbox"]'), 'Block einfügen');
    const headings = await page.$$eval('.sv-slash-heading', (els) => els.map((e) => e.textContent));
    assert.deepEqual(headings.slice(0, 3), ['Text', 'Medien', 'Layout']);
    const titles = await page.$$eval('.sv-slash-item strong', (els) => els.map((e) => e.textContent));
    assert.ok(titles.includes('Überschrift 1') && titles.includes('Schaltfläche'), titles.join(', '));
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: path.join(SHOTS, 'de-slash-menu.png') });
    await page.keyboard.type('überschrift 2');
    assert.equal(await page.textContent('.sv-slash-item strong >> nth=0'), 'Überschrift 2');
    await page.keyboard.type('zzz');
    assert.equal(await page.textContent('.sv-slash-empty'), 'Keine Blöcke passen zu „überschrift 2zzz“');
    await page.keyboard.press('Escape');
  });

  it('shows a button’s settings in German, and no English word of the chrome is left', async () => {
    await page.click('.sv-content .sv-button');
    await page.waitForSelector('.sv-inspector:not([hidden]) [data-field]');
    assert.equal(await name(page, '.sv-inspector'), 'Blockeinstellungen');
    assert.equal(await page.textContent('.sv-inspector .sv-inspector-head strong'), 'Schaltfläche');
    const labels = await page.$$eval('.sv-inspector .sv-label', (els) => els.map((e) => e.textContent));
    assert.ok(labels.includes('Farbe der Schaltfläche') && labels.includes('Eckenradius'), labels.join(', '));
    assert.equal(await page.textContent('.sv-inspector .sv-if-field legend'), 'Anzeigen, wenn');
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: path.join(SHOTS, 'de-block-settings.png') });
    // every word of the chrome on screen that is an English message with a German one is German
    const english = (await chromeWords(page)).filter(
      (w) => (ENGLISH as readonly string[]).includes(w) && de[w as keyof typeof de] !== w,
    );
    assert.deepEqual(english, []);
  });
});

describe('the German formatting bubble and link prompt', () => {
  it('are German, with no English word of the chrome left', async () => {
    const { page } = await open(`locale: 'de'`);
    await page.waitForSelector('.sv-root[lang="de"]');
    await page.dblclick('.sv-content p >> nth=0');
    await page.waitForSelector('.sv-bubble:not([hidden]) button');
    assert.equal(await name(page, '.sv-bubble'), 'Textformatierung');
    const names = await page.$$eval('.sv-bubble button[aria-label]', (els) =>
      els.map((e) => e.getAttribute('aria-label')),
    );
    assert.ok(names.includes('Fett') && names.includes('Linksbündig'), names.join(', '));
    await page.keyboard.press('Control+k');
    await page.waitForSelector('.sv-bubble input[type="url"], .sv-bubble input');
    assert.equal(
      await page.getAttribute('.sv-bubble input >> nth=0', 'placeholder'),
      'Link einfügen (https, mailto, tel)',
    );
    const english = (await chromeWords(page)).filter(
      (w) => (ENGLISH as readonly string[]).includes(w) && de[w as keyof typeof de] !== w,
    );
    assert.deepEqual(english, []);
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: path.join(SHOTS, 'de-link-prompt.png') });
    await page.close();
  });
});

describe('an Arabic editor (locale: "ar")', () => {
  let page: Page;
  let console: string[];
  before(async () => {
    ({ page, console } = await open(`locale: 'ar-EG'`));
    await page.waitForSelector('.sv-root[lang="ar"]');
  });

  it('is right to left in its chrome, while the email keeps its own language and direction', async () => {
    assert.equal(await page.getAttribute('.sv-root', 'dir'), 'rtl');
    assert.equal(await page.getAttribute('.sv-content', 'dir'), 'ltr');
    assert.equal(await page.getAttribute('.sv-content', 'lang'), 'en');
    // an empty image's form is chrome: Arabic, right to left, inside the left-to-right email
    assert.equal(await page.getAttribute('.sv-image-empty', 'dir'), 'rtl');
    assert.equal(await page.textContent('.sv-image-empty .sv-image-hint span'), 'إضافة صورة');
    const html = await page.evaluate(() => (window as unknown as Win).editor.getHTML());
    assert.match(html, /<html lang="en" dir="ltr"/);
    assert.deepEqual(
      console.filter((l) => l.startsWith('warning')),
      [],
    );
  });

  it('mirrors: undo on the right of the toolbar, the email settings on the left', async () => {
    const undo = await rect(page, '.sv-toolbar .sv-icon-btn >> nth=0');
    const settings = await rect(page, '.sv-settings-btn');
    assert.ok(
      undo.left > settings.right,
      `undo ${JSON.stringify(undo)} right of settings ${JSON.stringify(settings)}`,
    );
    assert.equal(await name(page, '.sv-toolbar .sv-icon-btn >> nth=0'), 'تراجع');
    await page.click('.sv-settings-btn');
    await page.waitForSelector('.sv-settings:not([hidden]) [data-field]');
    const panel = await rect(page, '.sv-settings');
    const root = await rect(page, '.sv-root');
    assert.ok(
      panel.left - root.left < root.right - panel.right,
      `settings panel on the left: ${JSON.stringify(panel)}`,
    );
    assert.equal(await page.textContent('.sv-settings .sv-inspector-head strong'), 'إعدادات الرسالة');
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: path.join(SHOTS, 'ar-email-settings.png') });
    await page.keyboard.press('Escape');
  });

  it('opens the slash menu ending where the "/" was typed (in German it starts there), in Arabic', async () => {
    const caret = await slashAtEndOfFirstLine(page);
    const menu = await rect(page, '.sv-slash');
    assert.ok(Math.abs(menu.right - caret) <= 1, `menu ends at the "/": ${menu.right} vs ${caret}`);
    assert.equal(await name(page, '.sv-slash [role="listbox"]'), 'إدراج كتلة');
    const titles = await page.$$eval('.sv-slash-item strong', (els) => els.map((e) => e.textContent));
    assert.ok(titles.includes('عنوان 1'), titles.join(', '));
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: path.join(SHOTS, 'ar-slash-menu.png') });
    await page.keyboard.press('Escape');

    const { page: german } = await open(`locale: 'de'`);
    await german.waitForSelector('.sv-root[lang="de"]');
    const germanCaret = await slashAtEndOfFirstLine(german);
    const germanMenu = await rect(german, '.sv-slash');
    assert.ok(
      Math.abs(germanMenu.left - germanCaret) <= 1,
      `menu starts at the "/": ${germanMenu.left} vs ${germanCaret}`,
    );
    await german.close();
  });

  it('shows a button’s settings in Arabic, mirrored and clean under axe', async () => {
    await page.click('.sv-content .sv-button');
    await page.waitForSelector('.sv-inspector:not([hidden]) [data-field]');
    assert.equal(await page.textContent('.sv-inspector .sv-inspector-head strong'), 'زر');
    assert.equal(await page.$eval('.sv-inspector', (el) => getComputedStyle(el).direction), 'rtl');
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: path.join(SHOTS, 'ar-block-settings.png') });
  });
});

describe('the dialogs in the editor’s language', () => {
  it('the preview: Arabic, right to left, clean under axe', async () => {
    const { page } = await open(`locale: 'ar'`);
    await page.waitForSelector('.sv-root[lang="ar"]');
    await page.click('.sv-preview-btn');
    await page.waitForSelector('.sv-modal[lang="ar"] .sv-seg-btn');
    assert.equal(await page.textContent('.sv-modal-title'), 'معاينة الرسالة');
    assert.equal(await page.getAttribute('.sv-modal', 'dir'), 'rtl');
    assert.equal(await name(page, '.sv-modal-close'), 'إغلاق معاينة الرسالة');
    const views = await page.$$eval('.sv-seg-btn[data-view]', (els) => els.map((e) => e.textContent));
    assert.deepEqual(views, ['سطح المكتب', 'الجوال']);
    assert.deepEqual(await axeViolations(page, '.sv-modal'), []);
    await page.screenshot({ path: path.join(SHOTS, 'ar-preview.png') });
    await page.close();
  });

  it('the template picker: German, dates in German', async () => {
    const { page } = await open(`locale: 'de'`);
    await page.waitForSelector('.sv-root[lang="de"]');
    await page.evaluate(() => (window as unknown as Win).editor.saveTemplate('Newsletter'));
    await page.click('.sv-tpl-btn');
    await page.waitForSelector('.sv-modal[lang="de"] .sv-tpl-item');
    assert.equal(await page.textContent('.sv-modal-title'), 'Vorlagen');
    const tabs = await page.$$eval('[role="tab"]', (els) => els.map((e) => e.textContent));
    assert.deepEqual(tabs, ['Meine Vorlagen', 'Gekaufte Vorlagen']);
    assert.match(
      (await page.textContent('.sv-tpl-item small')) ?? '',
      /^Aktualisiert am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/,
    );
    assert.equal(await name(page, '.sv-tpl-item button >> nth=0'), 'Vorlage Newsletter verwenden');
    assert.deepEqual(await axeViolations(page, '.sv-modal'), []);
    await page.screenshot({ path: path.join(SHOTS, 'de-templates.png') });
    await page.close();
  });
});

describe('messages and unknown locales', () => {
  it('messages overrides one string, the others stay as they are', async () => {
    const { page } = await open(`messages: { Undo: 'Take back', 'Insert block': 'Add a block' }`);
    await page.waitForFunction(
      () => document.querySelector('.sv-toolbar .sv-icon-btn')?.getAttribute('aria-label') === 'Take back',
    );
    assert.equal(await name(page, '.sv-toolbar .sv-icon-btn >> nth=1'), 'Redo');
    await slashAtEndOfFirstLine(page);
    assert.equal(await name(page, '.sv-slash [role="listbox"]'), 'Add a block');
    await page.close();
  });

  it('an unknown locale is English, with a warning that says so', async () => {
    const { page, console } = await open(`locale: 'xx'`);
    await page.waitForFunction(() => document.querySelector('.sv-root')?.getAttribute('lang') === 'en');
    assert.equal(await name(page, '.sv-toolbar .sv-icon-btn >> nth=0'), 'Undo');
    assert.ok(
      console.some((l) => /^warning: SEB_ERR_OPTIONS: Invalid option locale: no catalogue for "xx"/.test(l)),
      console.join('\n'),
    );
    await page.close();
  });

  it('getHTML() is the same in every locale: the UI language never reaches the email', async () => {
    const outputs: string[] = [];
    for (const locale of [null, 'de', 'ar', 'ja']) {
      const { page } = await open(locale ? `locale: '${locale}'` : '');
      if (locale) await page.waitForSelector(`.sv-root[lang="${locale}"]`);
      outputs.push(await page.evaluate(() => (window as unknown as Win).editor.getHTML()));
      await page.close();
    }
    // and the same as Node's renderer makes of the document
    assert.equal(outputs[0], renderEmail(DOC as never));
    for (const html of outputs.slice(1)) assert.equal(html, outputs[0]);
  });
});
