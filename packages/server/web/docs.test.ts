// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
// The API reference (/docs) in Chromium as a newcomer uses it: the register operation shows a
// body that works (Swagger UI showed "string"/"string", which the API answers with errors), the
// page links back to the playground and the dashboard, and it passes axe's WCAG 2 A and AA rules
// on a desktop and a phone, light and dark (Swagger UI failed 4 rules on 134 nodes; issue 40).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { PAGE_CSP } from '../src/http/routes/pages.js';
import { axeViolations, launchChromium, openPage, type WatchedPage } from '../src/test-support/browser.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';

let server: TestServer;
let browser: Browser;
let watched: WatchedPage;
let page: Page;

/** The register operation: there once the reference is rendered. */
const REGISTER = '#post-api-public-domain';

before(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  watched = await openPage(browser, server.url);
  page = watched.page;
  await page.goto(`${server.url}/docs`);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('/docs', () => {
  it('shows a register body that the API accepts', async () => {
    const example = await page.locator(`${REGISTER} pre.example`).innerText();
    const body = JSON.parse(example);
    assert.deepEqual(body, { domains: [{ domain: 'mail.example.com', domainType: 'Transactional' }] });
    const { key } = await server.createKey({ name: 'docs' });
    const answer = await fetch(`${server.url}/api/public/domain`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: example,
    });
    assert.equal(answer.status, 200);
    const [envelope] = (await answer.json()) as { error: unknown; data: { domain: string } }[];
    assert.equal(envelope?.error, null);
    assert.equal(envelope?.data.domain, 'mail.example.com');
  });

  it('links back to the playground and the dashboard', async () => {
    const links = await page.$$eval('.intro a', (as) =>
      as.map((a) => [a.textContent, a.getAttribute('href')]),
    );
    assert.deepEqual(
      links.filter(([, href]) => href === '/' || href === '/domains'),
      [
        ['email editor playground', '/'],
        ['domains dashboard', '/domains'],
      ],
    );
  });

  it('links every operation from its contents, and each schema named in an operation to its entry', async () => {
    await page
      .getByRole('navigation', { name: 'Reference contents' })
      .getByRole('link', { name: /Register sending domains/ })
      .click();
    assert.match(page.url(), /#post-api-public-domain$/);
    const missing = await page.$$eval('a[href^="#"]', (as) =>
      as.flatMap((a) => {
        const href = a.getAttribute('href') ?? '';
        return a.ownerDocument.getElementById(href.slice(1)) ? [] : [href];
      }),
    );
    assert.deepEqual(missing, []);
  });

  it('runs no script and reports no problem under the pages’ CSP', async () => {
    const answer = await fetch(`${server.url}/docs`);
    assert.equal(answer.headers.get('content-security-policy'), PAGE_CSP);
    assert.equal(await page.evaluate('document.scripts.length'), 0);
    assert.deepEqual(watched.problems, []);
  });

  it('fits a phone screen: nothing wider than 375 px', async () => {
    const phone = await openPage(browser, server.url, { viewport: { width: 375, height: 800 } });
    try {
      await phone.page.goto(`${server.url}/docs`);
      await phone.page.locator(REGISTER).waitFor();
      assert.equal(await phone.page.evaluate('document.documentElement.scrollWidth'), 375);
    } finally {
      await phone.context.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      it(`has no WCAG 2 A or AA violations at ${width} px, ${colorScheme}`, async () => {
        const violations = await axeViolations(browser, `${server.url}/docs`, {
          ready: REGISTER,
          colorScheme,
          viewport: { width, height: 900 },
        });
        assert.deepEqual(violations, []);
      });
    }
  }
});
