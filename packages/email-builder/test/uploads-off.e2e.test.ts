// Image and logo upload controls when the host configured no uploads (no `upload`, no
// `imageServiceUrl`): disabled with their reason shown, in the block and in its settings.
// Regression (issue 40): "Upload" looked live, and a click on it opened the logo's settings
// instead of saying that uploads are off.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations } from '../test-support/axe.js';
import { doc, node, p, t } from '../test-support/doc.js';
import { type EditorSession, openEditorSession } from '../test-support/editor-session.js';
import { PACKAGE_DIR } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'uploads-off');

type Win = { editor: import('../src/editor.js').ServiceEditor };

let session: EditorSession;
let page: Page;
let fileChoosers = 0;

/** The reason an upload button gives for being disabled (its aria-describedby), if it does. */
const reasonOf = (button: string) =>
  page.$eval(button, (b) => {
    const note = document.getElementById(b.getAttribute('aria-describedby') ?? '');
    return note?.checkVisibility() ? note.textContent : null;
  });

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session = await openEditorSession(`{ elementId: 'editor', colorScheme: 'light' }`, {
    viewport: { width: 1280, height: 800 },
  });
  page = session.page;
  page.on('filechooser', () => fileChoosers++);
  await page.evaluate(
    (c) => (window as unknown as Win).editor.setContent(c),
    doc(p(t('Hello')), node('logo'), p(t('Bye'))),
  );
});

after(async () => {
  await session?.close();
});

describe('uploads off', () => {
  it('disables the block’s Upload, saying why and how a host turns uploads on, and a click opens nothing', async () => {
    const upload = '.sv-image-empty button:has-text("Upload")';
    assert.equal(await page.getAttribute(upload, 'aria-disabled'), 'true');
    assert.match((await reasonOf(upload)) ?? '', /^Uploads are off: .*upload or imageServiceUrl option/);
    // forced: Playwright, like a person, would not click a control marked disabled
    await page.click(upload, { force: true });
    assert.equal(fileChoosers, 0, 'no file picker');
    assert.equal(await page.isHidden('.sv-inspector'), true, 'not the logo’s settings');
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: path.join(SHOTS, 'logo-block.png') });
  });

  it('disables the Upload of the logo’s settings too', async () => {
    const box = await page.locator('.sv-image-empty').boundingBox();
    await page.mouse.move(box!.x + 20, box!.y + box!.height / 2);
    await page.click('.sv-grip');
    await page.click('.sv-menu [role="menuitem"]:has-text("Settings")');
    await page.locator('.sv-inspector').waitFor();
    const upload = '.sv-inspector button[aria-label^="Upload"] >> nth=0';
    assert.equal(await page.getAttribute(upload, 'aria-disabled'), 'true');
    assert.match((await reasonOf(upload)) ?? '', /^Uploads are off: /);
    await page.click(upload, { force: true });
    assert.equal(fileChoosers, 0, 'no file picker');
    await page.screenshot({ path: path.join(SHOTS, 'logo-settings.png') });
  });

  it('leaves Upload live when the host gives an upload function', async () => {
    // a string, not a function: the test's compiler would add helpers the page lacks
    const enabled = await page.evaluate(`(() => {
      const host = document.body.appendChild(Object.assign(document.createElement('div'), { id: 'other' }));
      const other = new editor.constructor({
        elementId: 'other',
        upload: async () => ({ url: 'https://cdn.example/a.png' }),
        content: { type: 'doc', content: [{ type: 'logo' }] },
      });
      const button = [...host.querySelectorAll('.sv-image-empty button')].find((b) => /Upload/.test(b.textContent));
      const state = button ? button.getAttribute('aria-disabled') : 'no button';
      other.destroy();
      host.remove();
      return state;
    })()`);
    assert.equal(enabled, null);
  });
});
