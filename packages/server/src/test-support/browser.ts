/**
 * Debian's Chromium, headless, for the tests that drive the server's pages (the playground and
 * the domains dashboard) as a user would, and a page that records what would go unnoticed:
 * uncaught errors and console errors (a Content-Security-Policy violation is one).
 */
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Launches Chromium the way every browser test of this repository does. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
}

/** A page of a fresh context (its own storage), and the problems it reported. */
export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions and console errors (HTTP error answers aside), in order. */
  problems: string[];
  /** The clipboard's text (the context may read it). */
  clipboard(): Promise<string>;
}

/**
 * Opens a page on `origin` in a new context that may read and write the clipboard, 1280 × 900
 * unless `viewport` says otherwise.
 */
export async function openPage(
  browser: Browser,
  origin: string,
  options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // An API answering 4xx is logged by Chromium too; the pages show those answers themselves.
    if (message.type() === 'error' && !/^Failed to load resource: the server responded/.test(message.text()))
      problems.push(`console error: ${message.text()}`);
  });
  return {
    context,
    page,
    problems,
    clipboard: () => page.evaluate('navigator.clipboard.readText()') as Promise<string>,
  };
}

export { waitUntil } from './wait.js';

/**
 * The WCAG 2 A and AA violations axe-core finds on `url` once `ready` is in the page, as
 * "rule: selector" lines. It runs in a context of its own that bypasses the page's CSP (axe is
 * injected as a script); `init` runs before the page's scripts (e.g. to put a key in storage),
 * `prepare` after `ready` appeared.
 */
export async function axeViolations(
  browser: Browser,
  url: string,
  options: {
    ready: string;
    colorScheme: 'light' | 'dark';
    exclude?: string[];
    init?: string;
    /** Brings the page into the state to check, once `ready` is there. */
    prepare?: (page: Page) => Promise<void>;
    viewport?: { width: number; height: number };
  },
): Promise<string[]> {
  const context = await browser.newContext({
    bypassCSP: true,
    colorScheme: options.colorScheme,
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  try {
    if (options.init) await context.addInitScript(options.init);
    const page = await context.newPage();
    // What the page did, told when `ready` never shows (twice in ~15 full runs the playground's
    // editor did not appear in 30 s, on the phone viewport; never alone): errors, requests that
    // failed or answered an error, and where loading stood.
    const seen: string[] = [];
    page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
    page.on('console', (m) => m.type() === 'error' && seen.push(`console error: ${m.text()}`));
    page.on('requestfailed', (r) => seen.push(`failed: ${r.url()} (${r.failure()?.errorText})`));
    page.on('response', (r) => r.status() >= 400 && seen.push(`${r.status()}: ${r.url()}`));
    await page.goto(url);
    try {
      await page.locator(options.ready).first().waitFor();
    } catch (error) {
      const state = await page
        .evaluate(
          `document.readyState + '; ' + (document.querySelector('#editor')?.outerHTML ?? '').slice(0, 300)`,
        )
        .catch((e: Error) => `(page not readable: ${e.message})`);
      throw new Error(
        `${(error as Error).message}\nthe page: ${state}\nwhat it did: ${seen.join(' | ') || 'nothing reported'}`,
      );
    }
    await options.prepare?.(page);
    await page.addScriptTag({ path: fileURLToPath(import.meta.resolve('axe-core/axe.min.js')) });
    const exclude = JSON.stringify((options.exclude ?? []).map((s) => [s]));
    const violations = (await page.evaluate(
      `axe.run({ include: [['body']], exclude: ${exclude} }, { runOnly: ['wcag2a', 'wcag2aa'] })
        .then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' '))))`,
    )) as string[];
    return violations;
  } finally {
    await context.close();
  }
}
