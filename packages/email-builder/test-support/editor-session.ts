import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { editorPage, startTestServer } from './server.js';

/** A test server, Chromium, and a page at `/` whose `window.editor` is a ServiceEditor. */
export interface EditorSession {
  server: Awaited<ReturnType<typeof startTestServer>>;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * Opens `/` with `new ServiceEditor(<options>)` as `window.editor`; `options` is the source of
 * an object literal (it runs in the page). A page error fails the running test.
 */
export async function openEditorSession(
  options: string,
  page: { viewport: { width: number; height: number }; colorScheme?: 'light' | 'dark' },
): Promise<EditorSession> {
  const server = await startTestServer({ token: 't' });
  server.setPage('/', editorPage(`window.editor = new ServiceEmailBuilder.ServiceEditor(${options});`));
  const browser = await launchChromium();
  const tab = await browser.newPage(page);
  tab.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await tab.goto(`${server.origin}/`);
  return {
    server,
    browser,
    page: tab,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Waits until the caret is collapsed at the end of the paragraph saying `text`, and one frame
 * more. The editor learns of a click's caret (and of End after it) from the browser's
 * selectionchange event, a task of its own: on a loaded machine a shortcut pressed at once still
 * met the old caret (issue 41: Mod-D duplicated the wrong block, Mod-K linked at the start).
 */
export async function caretAtEndOf(page: Page, text: string): Promise<void> {
  await page.waitForFunction((said) => {
    const selection = document.getSelection();
    const at = selection?.anchorNode;
    if (!selection?.isCollapsed || !at) return false;
    return (
      (at instanceof Element ? at : at.parentElement)?.closest('p')?.textContent === said &&
      selection.anchorOffset ===
        (at.nodeType === Node.TEXT_NODE ? at.textContent!.length : at.childNodes.length)
    );
  }, text);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}
