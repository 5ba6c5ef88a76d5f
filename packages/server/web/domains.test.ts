// The domains dashboard (/domains) in Chromium against the real server, whose verification
// resolves through a private BIND: a domain is registered in the page, its records are published
// from the zone lines the page copies, and the page shows it turn verified by itself.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type BindServer, startBind } from '../src/test-support/bind.js';
import {
  axeViolations,
  launchChromium,
  openPage,
  type WatchedPage,
  waitUntil,
} from '../src/test-support/browser.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';

const ZONE = 'example.test';
const DOMAIN = `mail.${ZONE}`;

let dns: BindServer;
let server: TestServer;
let browser: Browser;
let watched: WatchedPage;
let page: Page;
let key: string;

const card = () => page.locator(`article[data-domain="${DOMAIN}"]`);

before(async () => {
  dns = await startBind({ zones: [ZONE] });
  // Every status poll of the page re-checks DNS, so it shows a change at its next poll.
  server = await startTestServer({ DNS_RESOLVERS: dns.address, STATUS_CHECK_MAX_AGE_MS: '0' });
  ({ key } = await server.createKey({ name: 'dashboard' }));
  browser = await launchChromium();
  watched = await openPage(browser, server.url);
  page = watched.page;
  await page.goto(`${server.url}/domains`);
});

after(async () => {
  await browser?.close();
  await server?.close();
  await dns?.close();
});

describe('the domains dashboard', () => {
  it('refuses an unknown key with a message, and asks again', async () => {
    await page.fill('#key-input', 'sk_this_key_does_not_exist');
    await page.click('#key-form button[type="submit"]');
    await page.locator('#key-error').waitFor();
    assert.match(await page.locator('#key-error').innerText(), /refused: it is unknown or revoked/);
    assert.equal(await page.locator('#key-card').isVisible(), true);
    assert.equal(await page.locator('#app').isVisible(), false);
  });

  it('takes a key for this tab only and shows the empty state', async () => {
    await page.fill('#key-input', key);
    await page.click('#key-form button[type="submit"]');
    await page.locator('#empty').waitFor();
    assert.match(await page.locator('#empty').innerText(), /No domains yet/);
    assert.equal(await page.locator('#loading').isVisible(), false);
    assert.equal(await page.locator('#key-error').isVisible(), false);
    assert.equal(await page.evaluate('sessionStorage.getItem("service.apiKey")'), key);
    assert.doesNotMatch(String(await page.evaluate('JSON.stringify(localStorage)')), /sk_/);
  });

  it('registers a domain, and shows the error of an invalid one inline', async () => {
    await page.fill('#register-names', `${DOMAIN}, bad_name.${ZONE}`);
    await page.selectOption('#register-type', 'Marketing');
    await page.click('#register-button');
    await card().waitFor();
    const errors = page.locator('#register-errors li');
    assert.equal(await errors.count(), 1);
    assert.match(
      await errors.innerText(),
      new RegExp(`^bad_name\\.${ZONE.replace('.', '\\.')}: .*underscore`, 'i'),
    );
    assert.equal(await card().locator('.domain-head .badge').innerText(), 'pending');
    assert.match(await card().locator('.domain-meta').innerText(), /^Marketing · DKIM 0\/3 · DMARC pending/);
    // the records table is open: three DKIM CNAMEs and the DMARC TXT
    assert.deepEqual(
      await card().locator('table.records tbody tr:not(:has(.diagnostic)) td:first-child').allInnerTexts(),
      ['CNAME', 'CNAME', 'CNAME', 'TXT'],
    );
    assert.equal(await page.locator('#empty').isVisible(), false);
  });

  it('copies a record value and the zone-file lines to the clipboard', async () => {
    const listed = await server.request('POST', '/api/public/domain/status', {
      key,
      body: { domains: [DOMAIN] },
    });
    const records: { fqdn: string; type: string; value: string }[] = listed.body[0].data.records;
    const dkim = records[0]!;
    await card()
      .getByRole('button', { name: `Copy the value of ${dkim.fqdn}` })
      .click();
    assert.equal(
      await waitUntil('the value copied', async () => (await watched.clipboard()) === dkim.value),
      true,
    );

    await card()
      .getByRole('button', { name: `Copy zone lines ${DOMAIN}` })
      .click();
    const lines = await waitUntil('the zone lines copied', async () => {
      const text = await watched.clipboard();
      return text.includes('\tIN\t') ? text : undefined;
    });
    assert.equal(lines, await card().locator('pre').innerText());
    for (const record of records) {
      const value = record.type === 'CNAME' ? `${record.value}.` : record.value;
      assert.ok(
        lines.includes(`${record.fqdn}.\t3600\tIN\t${record.type}\t${value}`),
        `${record.fqdn} in\n${lines}`,
      );
    }
  });

  it('shows why a record is pending, then turns verified live once the copied lines are published', async () => {
    const [wrong, ...rest] = (await watched.clipboard()).split('\n');
    const fqdn = wrong!.split('\t')[0]!.slice(0, -1);
    await dns.addRecord(fqdn, 'CNAME', 'selector.dkim.elsewhere.test.');
    const diagnostic = card().locator('.diagnostic', { hasText: 'found: selector.dkim.elsewhere.test' });
    await diagnostic.waitFor({ timeout: 30_000 });
    assert.match(await diagnostic.innerText(), /^wrong value — /);
    assert.match(
      await card().locator('.diagnostic', { hasText: 'not found' }).first().innerText(),
      /not found — /,
    );

    // Publish exactly what the page copied: the corrected first line and the three others.
    await dns.deleteRecords(fqdn, 'CNAME');
    await dns.update(
      ZONE,
      [wrong!, ...rest].map((line) => `update add ${line.replaceAll('\t', ' ')}`),
    );
    await card().locator('.domain-head .badge.verified').waitFor({ timeout: 30_000 });
    assert.match(await card().locator('.domain-meta').innerText(), /DKIM 3\/3 · DMARC verified/);
    assert.equal(await card().locator('.diagnostic').count(), 0);
    assert.equal(await card().locator('tbody .badge.verified').count(), 4);
    assert.equal(await page.locator('#live').innerText(), 'All verified');
  });

  it('passes axe (WCAG 2 A and AA) with a verified domain open, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const found = await axeViolations(browser, `${server.url}/domains`, {
        ready: `article[data-domain="${DOMAIN}"] .badge.verified`,
        colorScheme,
        init: `sessionStorage.setItem('service.apiKey', ${JSON.stringify(key)})`,
        prepare: async (page) => {
          await page.getByRole('button', { name: 'Records' }).click();
          await page.locator('table.records').waitFor();
        },
      });
      assert.deepEqual(found, [], colorScheme);
    }
  });

  it('keeps the key across a reload of the tab, and lists the domain again', async () => {
    await page.reload();
    await card().locator('.domain-head .badge.verified').waitFor();
    assert.equal(await page.locator('#key-prefix').innerText(), `${key.slice(0, 11)}…`);
  });

  it('deletes a domain after confirmation, back to the empty state', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await card().getByRole('button', { name: 'Delete' }).click();
    await card().waitFor({ state: 'detached' });
    await page.locator('#empty').waitFor();
    const after = await server.request('POST', '/api/public/domain/status', {
      key,
      body: { domains: [DOMAIN] },
    });
    assert.equal(after.body[0].error.code, 'DOMAIN_NOT_REGISTERED');
  });

  it('forgets the key on request', async () => {
    await page.click('#forget-key');
    await page.locator('#key-card').waitFor();
    assert.equal(await page.evaluate('sessionStorage.getItem("service.apiKey")'), null);
    assert.equal(await page.locator('#app').isVisible(), false);
  });

  it('raised no page error and no console error (CSP violations included)', () => {
    assert.deepEqual(watched.problems, []);
  });
});
