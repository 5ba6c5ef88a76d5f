// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
// The API reference (/docs) in Chromium as a newcomer uses it: the register operation shows a
// body that works (it showed "string"/"string", which the API answers with errors), and the
// page links back to the playground and the dashboard.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage } from '../src/test-support/browser.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';

let server: TestServer;
let browser: Browser;
let page: Page;

before(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  page = (await openPage(browser, server.url)).page;
  await page.goto(`${server.url}/docs`);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('/docs', () => {
  it('shows a register body that the API accepts', async () => {
    await page
      .locator('#operations-Domains-post_api_public_domain')
      .locator('.opblock-summary')
      .first()
      .click();
    const example = await page
      .locator('#operations-Domains-post_api_public_domain .body-param__example')
      .innerText();
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
    const links = await page.$$eval('.info a', (as) =>
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
});
