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

/** Enters the key as a user does: the page keeps it in memory only, so every new page asks. */
async function signIn(p: Page): Promise<void> {
  await p.fill('#key-input', key);
  await p.click('#key-form button[type="submit"]');
}

/** No storage the same origin's scripts could read holds a full key. */
async function assertKeyNotStored(p: Page): Promise<void> {
  const stored = String(await p.evaluate('JSON.stringify([sessionStorage, localStorage, document.cookie])'));
  assert.doesNotMatch(stored, /sk_/);
}

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

  it('drops a key scoped to templates,images, saying the page needs a full-access key and how to make one', async () => {
    const { key: scoped } = await server.createKey({ name: 'playground', scopes: ['templates', 'images'] });
    const own = await openPage(browser, server.url);
    try {
      const p = own.page;
      await p.goto(`${server.url}/domains`);
      await p.fill('#key-input', scoped);
      await p.click('#key-form button[type="submit"]');
      await p.locator('#key-error', { hasText: 'full-access key' }).waitFor({ timeout: 10_000 });
      const message = await p.locator('#key-error').innerText();
      assert.doesNotMatch(message, /could not reach/i);
      assert.match(message, /limited to templates, images/);
      assert.match(message, /npm run --silent cli -- keys create --name /);
      await assertKeyNotStored(p);
      assert.equal(await p.locator('#key-card').isVisible(), true);
      assert.equal(await p.locator('#app').isVisible(), false);
      assert.equal(await p.locator('#key-status').isVisible(), false);
      assert.deepEqual(own.problems, []);
    } finally {
      await own.context.close();
    }
  });

  it('takes a key for this page only, keeping it out of storage, and shows the empty state', async () => {
    await signIn(page);
    await page.locator('#empty').waitFor();
    assert.match(await page.locator('#empty').innerText(), /No domains yet/);
    assert.equal(await page.locator('#loading').isVisible(), false);
    assert.equal(await page.locator('#key-error').isVisible(), false);
    // It was kept in sessionStorage, readable by any script of the origin (the playground runs
    // templates from anywhere): now only the page's memory holds it.
    await assertKeyNotStored(page);
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
        ready: '#key-form',
        colorScheme,
        prepare: async (page) => {
          await signIn(page);
          await page.locator(`article[data-domain="${DOMAIN}"] .badge.verified`).waitFor();
          await page.getByRole('button', { name: 'Records' }).click();
          await page.locator('table.records').waitFor();
        },
      });
      assert.deepEqual(found, [], colorScheme);
    }
  });

  it('asks for the key again after a reload, and lists the domain again once given', async () => {
    await page.reload();
    await page.locator('#key-card').waitFor();
    assert.equal(await page.locator('#app').isVisible(), false);
    await signIn(page);
    await card().locator('.domain-head .badge.verified').waitFor();
    assert.equal(await page.locator('#key-prefix').innerText(), `${key.slice(0, 11)}…`);
    await assertKeyNotStored(page);
  });

  for (const width of [375, 420]) {
    it(`fits a ${width} px screen with the records open: no sideways scrolling, nothing cut off`, async () => {
      const narrow = await openPage(browser, server.url, { viewport: { width, height: 800 } });
      try {
        await narrow.page.goto(`${server.url}/domains`);
        await signIn(narrow.page);
        const domain = narrow.page.locator(`article[data-domain="${DOMAIN}"]`);
        await domain.getByRole('button', { name: 'Records' }).click();
        await domain.locator('table.records').waitFor();
        const scrollWidth = Number(await narrow.page.evaluate('document.documentElement.scrollWidth'));
        assert.ok(scrollWidth <= width, `the page is ${scrollWidth} px wide: it scrolls sideways`);
        // Every status and copy button lies within the card, the card within the screen.
        const box = (await domain.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= width);
        for (const inner of await domain.locator('tbody .badge, tbody button').all()) {
          const b = (await inner.boundingBox())!;
          assert.ok(b.x >= box.x && b.x + b.width <= box.x + box.width, await inner.innerText());
        }
        const forget = (await narrow.page.locator('#forget-key').boundingBox())!;
        assert.ok(forget.x + forget.width <= width, 'the Forget button is off the screen');
        // The domain field keeps room for a name, not a few characters.
        const names = (await narrow.page.locator('#register-names').boundingBox())!;
        assert.ok(names.width >= 0.7 * (width - 64), `the domain field is ${names.width} px wide`);
      } finally {
        await narrow.context.close();
      }
    });
  }

  it('passes axe at 375 px with the records open (rows reflowed)', async () => {
    const found = await axeViolations(browser, `${server.url}/domains`, {
      ready: '#key-form',
      colorScheme: 'light',
      viewport: { width: 375, height: 800 },
      prepare: async (page) => {
        await signIn(page);
        await page.locator(`article[data-domain="${DOMAIN}"] .badge.verified`).waitFor();
        await page.getByRole('button', { name: 'Records' }).click();
        await page.locator('table.records').waitFor();
      },
    });
    assert.deepEqual(found, []);
  });

  it('drops a domain deleted elsewhere at the next status poll, with a notice', async () => {
    const other = `other.${ZONE}`;
    await server.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: other, domainType: 'Transactional' }] },
    });
    await page.reload();
    await signIn(page);
    const otherCard = page.locator(`article[data-domain="${other}"]`);
    await otherCard.waitFor();
    const deleted = await server.request('DELETE', '/api/public/domain', { key, body: { domains: [other] } });
    assert.equal(deleted.body[0].data.deleted, true);
    // Well before the next list read (30 s): the poll's "not registered" answer takes it off.
    await otherCard.waitFor({ state: 'detached', timeout: 15_000 });
    assert.match(
      await page.locator('#notice').innerText(),
      new RegExp(`^${other.replaceAll('.', '\\.')} is no longer registered to this account`),
    );
    assert.equal(await card().count(), 1);
    assert.equal(await page.locator('#list-error').isVisible(), false);
  });

  it('shows a domain added elsewhere when the tab regains focus, opened with its records', async () => {
    const added = `added.${ZONE}`;
    await server.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: added, domainType: 'Transactional' }] },
    });
    const addedCard = page.locator(`article[data-domain="${added}"]`);
    // Back to the tab (a focus event), as a user returning from the terminal. Focus and
    // visibility events closer than 2 s to the last list read are folded into it: repeat.
    await waitUntil('the domain added elsewhere to appear', async () => {
      await page.evaluate('window.dispatchEvent(new Event("focus"))');
      return (await addedCard.count()) > 0;
    });
    // Few domains are pending, so the new one opens with its records to publish.
    await addedCard.locator('table.records').waitFor();
    assert.equal(await card().locator('table.records').count(), 0, 'the verified one stays closed');
    await server.request('DELETE', '/api/public/domain', { key, body: { domains: [added] } });
    await addedCard.waitFor({ state: 'detached', timeout: 15_000 });
  });

  it('re-reads the whole list every 30 s, so domains added or deleted elsewhere show up unprompted', async () => {
    const timed = await openPage(browser, server.url);
    try {
      await timed.page.clock.install();
      await timed.page.goto(`${server.url}/domains`);
      await signIn(timed.page);
      await timed.page.locator(`article[data-domain="${DOMAIN}"]`).waitFor();
      const late = `late.${ZONE}`;
      await server.request('POST', '/api/public/domain', {
        key,
        body: { domains: [{ domain: late, domainType: 'Marketing' }] },
      });
      await timed.page.clock.runFor(20_000);
      assert.equal(await timed.page.locator(`article[data-domain="${late}"]`).count(), 0);
      await timed.page.clock.runFor(11_000);
      await timed.page.locator(`article[data-domain="${late}"]`).waitFor();

      // And one deleted elsewhere leaves without a reload.
      await server.request('DELETE', '/api/public/domain', { key, body: { domains: [late] } });
      await timed.page.clock.runFor(31_000);
      await timed.page.locator(`article[data-domain="${late}"]`).waitFor({ state: 'detached' });
      assert.deepEqual(timed.problems, []);
    } finally {
      await timed.context.close();
    }
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
    await assertKeyNotStored(page);
    assert.equal(await page.locator('#app').isVisible(), false);
  });

  it('raised no page error and no console error (CSP violations included)', () => {
    assert.deepEqual(watched.problems, []);
  });
});
