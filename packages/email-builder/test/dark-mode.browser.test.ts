// Dark mode in real Chromium, for text with an explicit colour: the editor's dark colour scheme
// shows each colour's dark-mode counterpart (what dark-mode mail clients will show), and the
// email passes axe's colour contrast where prefers-color-scheme is dark; light mode and the
// document keep the author's colours. Regression for the welcome template's step text, #52525b
// on the darkened panel (#3f3f46): 1.35:1. Screenshots in test-results/dark-mode/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { applyBranding } from '../src/document/branding.js';
import type { JSONNode } from '../src/model/types.js';
import { darkTextColor, highlightTextColor } from '../src/primitives/dark-color.js';
import { renderEmail } from '../src/render/email.js';
import { STARTER_TEMPLATES } from '../src/templates/gallery/starter.js';
import { demoBrand } from '../test-support/brand.js';
import { col, doc, h, link, node, p, t } from '../test-support/doc.js';
import { type EditorSession, openEditorSession } from '../test-support/editor-session.js';
import { PACKAGE_DIR } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'dark-mode');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const MUTED = '#52525b';
const STEP = '.sv-colbg p:nth-child(2) span'; // the welcome template's first step text
// the page belongs to the mail client: its landmarks are not the email's to provide
const EMAIL_AXE =
  '{ resultTypes: ["violations"], rules: { "landmark-one-main": { enabled: false }, region: { enabled: false } } }';

type Win = {
  editor: import('../src/editor.js').ServiceEditor;
  ServiceEmailBuilder: typeof import('../src/iife.js');
};
type AxeResult = { violations: { id: string; nodes: { target: string[]; any: { message: string }[] }[] }[] };

let session: EditorSession;
let server: EditorSession['server'];
let browser: Browser;
let page: Page;

const welcome = STARTER_TEMPLATES.find((t) => t.id === 'welcome')!;
const brand = () => demoBrand(server.origin);
const violations = (r: AxeResult) =>
  r.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.any[0]?.message})`).join('; ')}`,
  );

async function axe(
  target: Page,
  context: string,
  options = '{ resultTypes: ["violations"] }',
): Promise<string[]> {
  if (!(await target.evaluate('typeof axe !== "undefined"')))
    await target.addScriptTag({ content: axeSource });
  return violations((await target.evaluate(`axe.run(${context}, ${options})`)) as AxeResult);
}

/** The colour a text shows, and the dark-mode colour its decoration carries. */
const shown = (selector: string) =>
  page.$eval(selector, (el) => {
    const inner = el.querySelector('.sv-dark-text') ?? el;
    return {
      color: getComputedStyle(inner).color,
      dark: getComputedStyle(inner).getPropertyValue('--sv-dark-text').trim(),
    };
  });
const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

async function openEmail(json: JSONNode, scheme: 'light' | 'dark'): Promise<Page> {
  server.setPage('/email', renderEmail(json));
  const email = await browser.newPage({ viewport: { width: 600, height: 900 }, colorScheme: scheme });
  await email.goto(`${server.origin}/email`);
  await email.waitForLoadState('load');
  return email;
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session = await openEditorSession(`{ elementId: 'editor', colorScheme: 'dark', settingsControl: true }`, {
    viewport: { width: 1200, height: 1300 },
    colorScheme: 'dark',
  });
  ({ server, browser, page } = session);
});

after(async () => {
  await session?.close();
});

const hl = (color: string) => ({ type: 'highlight', attrs: { color } });
/**
 * Highlighted text of every kind: body text, a text colour, a link, on a panel, and on a dark
 * highlight. Regression: the highlight kept its light background in dark mode while the text
 * turned light, light on yellow (1.1:1).
 */
const highlighted = doc(
  h(1, t('Highlights')),
  p(t('Body text with '), t('a highlight', hl('#fef08a')), t(' in it.')),
  p(t('Red on yellow', { type: 'textColor', attrs: { color: '#dc2626' } }, hl('#fef08a'))),
  p(t('A highlighted link', link('https://example.com'), hl('#bfdbfe'))),
  node(
    'columns',
    { layout: '1' },
    col({ backgroundColor: '#eef2ff', padding: 16 }, p(t('On a panel', hl('#bbf7d0')))),
  ),
  p(t('On navy', hl('#1e3a8a'))),
);

describe('dark mode for explicit text colours, in Chromium', () => {
  it('editor: the welcome starter in the dark scheme passes axe, its step text lightened', async () => {
    await page.evaluate(async () => {
      const w = window as unknown as Win;
      const gallery = await w.ServiceEmailBuilder.loadStarterTemplates();
      w.editor.loadTemplate(gallery.find((t) => t.id === 'welcome')!);
    });
    await page.waitForSelector(STEP);
    await page.screenshot({ path: path.join(SHOTS, 'editor-welcome-dark.png'), fullPage: true });
    // every rule, not only contrast: the social block's empty pills were flagged here too
    assert.deepEqual(await axe(page, 'document.querySelector(".sv-root")'), []);
    const panelText = darkTextColor(MUTED, '#3f3f46');
    assert.deepEqual(await shown(STEP), { color: rgb(panelText), dark: panelText });
    // the document and the email keep the author's colour
    const doc = JSON.stringify(await page.evaluate(() => (window as unknown as Win).editor.getJSON()));
    assert.equal(doc.match(/"color":"#52525b"/g)?.length, 3);
    const html = await page.evaluate(() => (window as unknown as Win).editor.getHTML());
    assert.equal(html.match(/style="color:#52525b"/g)?.length, 3);
  });

  it('editor: light mode shows the author’s colours unchanged', async () => {
    await page.evaluate(() => (window as unknown as Win).editor.setColorScheme('light'));
    assert.equal((await shown(STEP)).color, rgb(MUTED));
    await page.screenshot({ path: path.join(SHOTS, 'editor-welcome-light.png'), fullPage: true });
    await page.evaluate(() => (window as unknown as Win).editor.setColorScheme('dark'));
    assert.equal((await shown(STEP)).color, rgb(darkTextColor(MUTED, '#3f3f46')));
  });

  it('editor: typed text keeps the dark colour, and a change of dark colours is followed', async () => {
    await page.click(STEP);
    await page.keyboard.type(' Really ');
    // the typed words take the text colour mark, and its dark colour with it
    const decorated = await page.$eval(`${STEP} .sv-dark-text`, (el) => el.textContent);
    assert.match(decorated ?? '', / Really /);
    assert.equal((await shown(STEP)).dark, darkTextColor(MUTED, '#3f3f46'));
    // the darkened panel colour comes from the settings' dark border colour
    await page.click('.sv-settings-btn');
    await page.fill('.sv-settings [data-field="darkBorder"] input[type="text"]', '#1e293b');
    await page.press('.sv-settings [data-field="darkBorder"] input[type="text"]', 'Tab');
    assert.equal((await shown(STEP)).dark, darkTextColor(MUTED, '#1e293b'));
    assert.deepEqual(await axe(page, 'document.querySelector(".sv-content")'), []);
    await page.keyboard.press('Escape');
  });

  it('editor: setContent(getHTML()) gives the same document back (no dark colour leaks in)', async () => {
    // branded, so the logo has an image: an empty logo is left out of the email
    const json = applyBranding(welcome.document, brand());
    const [first, again] = await page.evaluate((d) => {
      const { editor } = window as unknown as Win;
      editor.setContent(d);
      const first = editor.getJSON();
      editor.setContent(editor.getHTML());
      return [first, editor.getJSON()];
    }, json);
    assert.deepEqual(again, first);
    assert.match(JSON.stringify(again), /"color":"#52525b"/);
  });

  it('editor: every starter template, plain and branded, passes axe colour contrast in the dark scheme', async () => {
    for (const template of STARTER_TEMPLATES) {
      for (const json of [template.document, applyBranding(template.document, brand())]) {
        await page.evaluate((d) => (window as unknown as Win).editor.setContent(d), json);
        assert.deepEqual(
          await axe(page, 'document.querySelector(".sv-content")', '{ runOnly: ["color-contrast"] }'),
          [],
          template.id,
        );
      }
    }
  });

  it('email: the welcome starter at 600 px passes axe in dark emulation, and light keeps its colours', async () => {
    const dark = await openEmail(welcome.document, 'dark');
    assert.deepEqual(await axe(dark, 'document', EMAIL_AXE), []);
    const step = '.sv-colbg p:nth-child(2) > span';
    assert.equal(
      await dark.$eval(step, (el) => getComputedStyle(el).color),
      rgb(darkTextColor(MUTED, '#3f3f46')),
    );
    await dark.screenshot({ path: path.join(SHOTS, 'email-welcome-600-dark.png'), fullPage: true });
    await dark.close();
    const light = await openEmail(welcome.document, 'light');
    assert.equal(await light.$eval(step, (el) => getComputedStyle(el).color), rgb(MUTED));
    assert.deepEqual(await axe(light, 'document', EMAIL_AXE), []);
    await light.close();
  });

  it('email: every starter template, plain and branded, passes axe in dark emulation', async () => {
    for (const template of STARTER_TEMPLATES) {
      for (const json of [template.document, applyBranding(template.document, brand())]) {
        const email = await openEmail(json, 'dark');
        assert.deepEqual(await axe(email, 'document', EMAIL_AXE), [], template.id);
        await email.close();
      }
    }
  });

  it('editor: highlighted text keeps a readable colour on its highlight in the dark scheme', async () => {
    await page.evaluate(() => (window as unknown as Win).editor.setColorScheme('dark'));
    await page.evaluate((d) => (window as unknown as Win).editor.setContent(d), highlighted);
    assert.deepEqual(await shown('.sv-content mark'), { color: rgb('#27272a'), dark: '#27272a' });
    await page.screenshot({ path: path.join(SHOTS, 'editor-highlight-dark.png'), fullPage: true });
    assert.deepEqual(
      await axe(page, 'document.querySelector(".sv-content")', '{ runOnly: ["color-contrast"] }'),
      [],
    );
    // a highlight applied from the bubble menu is followed too (a mark step maps no range)
    await page.click('.sv-content > p:first-of-type');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+Control+ArrowRight');
    await page.waitForSelector('.sv-bubble:not([hidden])');
    await page.click('.sv-bubble [aria-label="Highlight"]');
    await page.click('.sv-bubble [aria-label="#fed7aa"]');
    assert.deepEqual(await shown('.sv-content > p:first-of-type mark:first-child'), {
      color: rgb('#27272a'),
      dark: '#27272a',
    });
    assert.equal(await page.textContent('.sv-content > p:first-of-type mark:first-child'), 'Body');
    await page.evaluate(() => (window as unknown as Win).editor.setColorScheme('light'));
    assert.equal((await shown('.sv-content mark')).color, rgb('#27272a'));
    await page.evaluate(() => (window as unknown as Win).editor.setColorScheme('dark'));
  });

  it('email: highlighted text passes axe in dark emulation; light keeps the author’s colours', async () => {
    const dark = await openEmail(highlighted, 'dark');
    await dark.screenshot({ path: path.join(SHOTS, 'email-highlight-dark.png'), fullPage: true });
    assert.deepEqual(await axe(dark, 'document', EMAIL_AXE), []);
    const colours = await dark.$$eval('span[style*="background-color"]', (els) =>
      els.map((el) => getComputedStyle(el).color),
    );
    assert.deepEqual(colours, [
      rgb('#27272a'),
      rgb(highlightTextColor('#dc2626', '#fef08a')),
      rgb(highlightTextColor('#2563eb', '#bfdbfe')),
      rgb('#27272a'),
      rgb(highlightTextColor('#27272a', '#1e3a8a')),
    ]);
    await dark.close();
    // light mode shows the author's colours as they were (red on yellow is theirs to choose)
    const light = await openEmail(highlighted, 'light');
    assert.deepEqual(
      await light.$$eval('span[style*="background-color"]', (els) =>
        els.map((el) => getComputedStyle(el).color),
      ),
      ['#27272a', '#dc2626', '#2563eb', '#27272a', '#27272a'].map(rgb),
    );
    await light.close();
  });
});
