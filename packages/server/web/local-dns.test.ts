// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
// The dashboard's local DNS buttons (issue 40) in Chromium against a real server in development
// mode with its local DNS and no public DNS: a pending `.test` domain is published with one
// click and turns verified through the real verification path; removing its records brings the
// diagnostics back. A server without a local DNS shows no such buttons.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchChromium, openPage, type WatchedPage } from '../src/test-support/browser.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';

const DOMAIN = 'acme.test';
let server: TestServer;
let browser: Browser;
let watched: WatchedPage;
let page: Page;
let key: string;

const card = () => page.locator(`article[data-domain="${DOMAIN}"]`);

async function signIn(p: Page, withKey = key): Promise<void> {
  await p.fill('#key-input', withKey);
  await p.click('#key-form button[type="submit"]');
}

before(async () => {
  server = await startTestServer({
    LOCAL_DNS_LISTEN: '127.0.0.1:0',
    // every poll of the page re-checks DNS; a removed record is pending at its next check
    STATUS_CHECK_MAX_AGE_MS: '0',
    VERIFY_GRACE_MS: '0',
  });
  ({ key } = await server.createKey({ name: 'dashboard' }));
  const registered = await server.request('POST', '/api/public/domain', {
    key,
    body: { domains: [{ domain: DOMAIN, domainType: 'Transactional' }] },
  });
  assert.equal(registered.status, 200);
  browser = await launchChromium();
  watched = await openPage(browser, server.url);
  page = watched.page;
  await page.goto(`${server.url}/domains`);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('the local DNS on the dashboard', () => {
  it('passes axe with the pending .test domain open and its local DNS buttons shown, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const found = await axeViolations(browser, `${server.url}/domains`, {
        ready: '#key-form',
        colorScheme,
        prepare: async (p) => {
          await signIn(p);
          await p
            .getByRole('button', { name: `Publish the records of ${DOMAIN} in the local DNS` })
            .waitFor();
        },
      });
      assert.deepEqual(found, [], colorScheme);
    }
  });

  it('fits a phone (375 px): the note and its buttons wrap, nothing scrolls sideways', async () => {
    const phone = await openPage(browser, server.url, { viewport: { width: 375, height: 812 } });
    try {
      const p = phone.page;
      await p.goto(`${server.url}/domains`);
      await signIn(p);
      const publish = p.getByRole('button', { name: `Publish the records of ${DOMAIN} in the local DNS` });
      await publish.waitFor();
      const widths = await p.evaluate(
        '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
      );
      const [scroll, client] = widths as [number, number];
      assert.ok(scroll <= client, `the page is ${scroll} px wide in a ${client} px window`);
      const box = await publish.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 375, JSON.stringify(box));
    } finally {
      await phone.context.close();
    }
  });

  it('publishes a pending .test domain with one click: it turns verified, and the notice says where', async () => {
    await signIn(page);
    // the first new pending domain opens by itself, with its records and the local DNS note
    const publish = card().getByRole('button', { name: `Publish the records of ${DOMAIN} in the local DNS` });
    await publish.waitFor();
    assert.match(
      await card().locator('.local-dns').innerText(),
      /this server’s local DNS can hold its records/,
    );
    await publish.click();
    await card().locator('.domain-head .badge.verified').waitFor({ timeout: 15_000 });
    assert.match(
      await page.locator('#notice').innerText(),
      /^acme\.test: its 4 records are in the local DNS \(127\.0\.0\.1:\d+\); the domain is verified\.$/,
    );
    assert.equal(await publish.isVisible(), false, 'nothing left to publish once verified');
    assert.deepEqual(watched.problems, []);
  });

  it('removes the records with the other button: each says why it is missing again', async () => {
    await card()
      .getByRole('button', { name: `Remove the records of ${DOMAIN} from the local DNS` })
      .click();
    await card().locator('.domain-head .badge.pending').waitFor({ timeout: 15_000 });
    const why = await card().locator('.diagnostic-text').allInnerTexts();
    assert.equal(why.length, 4);
    for (const text of why) assert.match(text, /^not found — no (DMARC )?record at this name/);
    assert.match(
      await page.locator('#notice').innerText(),
      /^acme\.test: its records are out of the local DNS/,
    );
    // keyboard: the publish button is back, and Enter on it publishes again
    const publish = card().getByRole('button', { name: `Publish the records of ${DOMAIN} in the local DNS` });
    await publish.focus();
    await page.keyboard.press('Enter');
    await card().locator('.domain-head .badge.verified').waitFor({ timeout: 15_000 });
    assert.deepEqual(watched.problems, []);
  });
});

it('a server without a local DNS (production mode, LOCAL_DNS_LISTEN=off) shows no local DNS buttons', async () => {
  const off = await startTestServer();
  const own = await openPage(browser, off.url);
  try {
    const { key: offKey } = await off.createKey({ name: 'dashboard' });
    await off.request('POST', '/api/public/domain', {
      key: offKey,
      body: { domains: [{ domain: DOMAIN, domainType: 'Transactional' }] },
    });
    await own.page.goto(`${off.url}/domains`);
    await signIn(own.page, offKey);
    await own.page.locator('table.records').waitFor();
    assert.equal(await own.page.locator('.local-dns').isVisible(), false);
    assert.equal(await own.page.getByRole('button', { name: /local DNS/ }).count(), 0);
  } finally {
    await own.context.close();
    await off.close();
  }
});
