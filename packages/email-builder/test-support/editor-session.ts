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
