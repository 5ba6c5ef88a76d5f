// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
// The domains dashboard (/domains) in Chromium against the real server, whose verification
// resolves through a private BIND: a domain is registered in the page, its records are published
// from the zone lines the page copies, and the page shows it turn verified by itself.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { providersById, providersHints } from '../src/domain/provider-hints.js';
import { type BindServer, startBind } from '../src/test-support/bind.js';
import {
  axeViolations,
  launchChromium,
  openPage,
  type WatchedPage,
  waitUntil,
} from '../src/test-support/browser.js';
import { startTestServer, type TestServer, testDatabaseUrl } from '../src/test-support/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../src/test-support/webhook-receiver.js';

const ZONE = 'example.test';
const DOMAIN = `mail.${ZONE}`;

let dns: BindServer;
let server: TestServer;
let browser: Browser;
let watched: WatchedPage;
let page: Page;
let key: string;

const card = () => page.locator(`article[data-domain="${DOMAIN}"]`);
/** The window sizes the dashboard was reviewed at: a laptop and a phone. */
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

/** Enters the key as a user does: the page keeps it in memory only, so every new page asks. */
async function signIn(p: Page, withKey = key): Promise<void> {
  await p.fill('#key-input', withKey);
  await p.click('#key-form button[type="submit"]');
}

/** Whether `element` has the page's focus. (Reached through the element: this file has no DOM globals.) */
function hasFocus(element: Locator): Promise<boolean> {
  return element.evaluate((e) => e === e.ownerDocument.activeElement);
}

/** One computed style property of `element`, e.g. `color`. */
function style(element: Locator, property: 'color' | 'boxShadow'): Promise<string> {
  return element.evaluate((e, name) => e.ownerDocument.defaultView!.getComputedStyle(e)[name], property);
}

/** A key of a new account holding `names`, registered (pending): a test's own list, which no other test sees. */
async function accountWith(names: string[]): Promise<string> {
  const { key: own } = await server.createKey({ name: 'dashboard' });
  const registered = await server.request('POST', '/api/public/domain', {
    key: own,
    body: { domains: names.map((domain) => ({ domain, domainType: 'Transactional' })) },
  });
  assert.equal(registered.status, 200);
  return own;
}

/** The page's answer to the next status poll, once the page has shown it (the next poll begins only then). */
async function nextPollShown(p: Page): Promise<void> {
  const isPoll = (r: { url(): string }) => r.url().endsWith('/api/public/domain/status');
  await p.waitForResponse(isPoll, { timeout: 30_000 });
  await p.waitForResponse(isPoll, { timeout: 30_000 });
}

/**
 * Has `p` see every domain as served by the providers `ids` (most name servers first), with
 * their hints, as the API answers for such a zone: the real server's answers, rewritten on
 * the way, because the dashboard's BIND delegates nothing (`service/dns-provider.test.ts`
 * checks the API's side through a real delegation).
 */
async function servedBy(p: Page, ids: string[]): Promise<void> {
  const providers = providersById(ids);
  const views = providers.map((d) => ({ id: d.id, name: d.name, docs: d.docs ?? null }));
  type Result = {
    providers: unknown[];
    records: { type: 'CNAME' | 'TXT'; name: string; fqdn: string; value: string; zone: string }[];
  };
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    if ('providers' in value && 'records' in value) {
      const result = value as Result;
      return {
        ...result,
        provider: views[0] ?? null,
        providers: views,
        records: result.records.map((r) => ({ ...r, providerHints: providersHints(providers, r) })),
      };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
  };
  await p.route(/\/api\/public\/domain(\/status)?(\?|$)/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: rewrite(await response.json()) });
  });
}

/** No storage the same origin's scripts could read holds a full key. */
async function assertKeyNotStored(p: Page): Promise<void> {
  const stored = String(await p.evaluate('JSON.stringify([sessionStorage, localStorage, document.cookie])'));
  assert.doesNotMatch(stored, /sk_/);
}

before(async () => {
  dns = await startBind({ zones: [ZONE] });
  // Every status poll of the page re-checks DNS, so it shows a change at its next poll.
  server = await startTestServer({
    DNS_RESOLVERS: dns.address,
    STATUS_CHECK_MAX_AGE_MS: '0',
    // Webhooks go to receivers on 127.0.0.1, are sent within 20 ms, and an endpoint is disabled
    // at its first failure (it would take 5 days), retried 50 ms later once enabled.
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_INTERVAL_MS: '20',
    WEBHOOK_DISABLE_AFTER_MS: '0',
    WEBHOOK_RETRY_BASE_MS: '50',
  });
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

  it('keeps a refused key in the field, focused, to correct it (it was cleared)', async () => {
    // The last character missed when pasting: the key is refused.
    await signIn(page, key.slice(0, -1));
    await page.locator('#key-error').waitFor();
    const field = page.locator('#key-input');
    assert.equal(await field.inputValue(), key.slice(0, -1));
    assert.equal(await hasFocus(field), true);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await field.getAttribute('aria-describedby'), 'key-error');
    // Corrected where it stands: the missing character typed at the end.
    await page.keyboard.press('End');
    await page.keyboard.type(key.slice(-1));
    await page.keyboard.press('Enter');
    await page.locator('#empty').waitFor();
    // Accepted, it lives in the page's client only: the field is emptied.
    assert.equal(await field.inputValue(), '');
    assert.equal(await field.getAttribute('aria-invalid'), null);
  });

  it('takes a key for this page only, keeping it out of storage, and shows the empty state', async () => {
    // (signed in by the test above)
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

  it('copies a record value (a TXT one without its quotation marks) and the zone-file lines to the clipboard', async () => {
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
    // A TXT value is copied as a provider's form takes it: without the zone file's quotation marks.
    const dmarc = records.find((r) => r.type === 'TXT')!;
    assert.match(dmarc.value, /^"v=DMARC1;.*"$/);
    await card()
      .getByRole('button', { name: `Copy the value of ${dmarc.fqdn}` })
      .click();
    assert.equal(
      await waitUntil('the DMARC value copied', async () =>
        (await watched.clipboard()) === dmarc.value.slice(1, -1) ? true : undefined,
      ),
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

  it('keeps keyboard focus, a mouse selection, the scroll position and the open records across refreshes (the whole list was redrawn every 5 s)', async () => {
    const listed = await server.request('POST', '/api/public/domain/status', {
      key,
      body: { domains: [DOMAIN] },
    });
    const [first, second]: { fqdn: string; name: string }[] = listed.body[0].data.records;
    // A record's name selected with the mouse, then a copy button focused from the keyboard.
    await card().locator('td.value.name .mono').nth(1).click({ clickCount: 3 });
    const copy = card().getByRole('button', { name: `Copy the value of ${first!.fqdn}` });
    await copy.focus();
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    // Scrolled to the end, the view stays at the end: the same distance from the page's bottom
    // (the refresh may add a diagnostic above; the browser keeps what is in view where it was).
    const fromBottom = () => page.evaluate('document.documentElement.scrollHeight - window.scrollY');
    const scrolled = await fromBottom();
    const cardNode = await card().elementHandle();
    const selected = () => page.evaluate('String(getSelection())') as Promise<string>;
    assert.match(await selected(), new RegExp(second!.name.replaceAll('.', '\\.')));

    await nextPollShown(page);
    assert.equal(await hasFocus(copy), true, 'the focus left the button');
    assert.match(await selected(), new RegExp(second!.name.replaceAll('.', '\\.')), 'the selection is gone');
    assert.equal(await cardNode!.evaluate((e) => e.isConnected), true, 'the card was replaced');
    assert.equal(await fromBottom(), scrolled);
    assert.equal(
      await card().getByRole('button', { name: 'Hide records' }).getAttribute('aria-expanded'),
      'true',
    );
    await page.evaluate('getSelection().removeAllRanges(); document.activeElement.blur()');
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
    // the keys behind the records, which rotate by themselves
    const note = card().locator('.key-note > span');
    await waitUntil('the planned rotation shown', async () =>
      /rotates by itself on \d{4}-\d{2}-\d{2}\.$/.test(await note.innerText()),
    );
    assert.match(
      await note.innerText(),
      /^Signing key: selector [a-z2-7]{8}…, made today; rotates by itself on /,
    );
  });

  it('rotates the DKIM key on request and says when signing moves, or why not yet (it was API-only)', async () => {
    await card()
      .getByRole('button', { name: `Rotate the DKIM key of ${DOMAIN} now` })
      .click();
    const said = await waitUntil('the rotation answered', async () => {
      const text = await page.locator('#notice').innerText();
      return text.startsWith(`${DOMAIN}:`) ? text : undefined;
    });
    // The page says what the API decided: a planned switch, recorded on the domain, or its refusal.
    const status = await server.request('POST', '/api/public/domain/status', {
      key,
      body: { domains: [DOMAIN] },
    });
    const dkim = status.body[0].data.dkim;
    if (dkim.rotationRequestedAt !== null) {
      assert.match(
        said,
        /signing moves to the next DKIM key at .+; its CNAME already points there|rotation asked for/,
      );
    } else {
      assert.match(said, /^mail\.example\.test: not rotated\. /);
    }
    assert.deepEqual(watched.problems, []);
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

  for (const [size, viewport] of [
    ['1280 × 800', LAPTOP],
    ['375 × 812', PHONE],
  ] as const) {
    it(`opens one domain at a time at ${size}, in compact rows with inline copy icons and whole zone-file lines (every pending domain was open, zone lines cut off)`, async () => {
      const names = ['a4', 'b4', 'c4'].map((n) => `${n}-${viewport.width}.${ZONE}`);
      const own = await accountWith(names);
      const view = await openPage(browser, server.url, { viewport });
      try {
        const p = view.page;
        await p.goto(`${server.url}/domains`);
        await signIn(p, own);
        const [first, second] = names.map((name) => p.locator(`article[data-domain="${name}"]`));
        await first!.locator('.diagnostic').first().waitFor({ timeout: 30_000 });
        assert.equal(await p.locator('.domain-body').count(), 1, 'three pending domains, one open');
        await second!.getByRole('button', { name: 'Records' }).click();
        await second!.locator('table.records').waitFor();
        assert.equal(await p.locator('.domain-body').count(), 1, 'opening one closes the other');
        assert.equal(
          await first!.getByRole('button', { name: 'Records' }).getAttribute('aria-expanded'),
          'false',
        );
        await second!.locator('.diagnostic').first().waitFor({ timeout: 30_000 });

        // A diagnostic says what is wrong without repeating the name and value beside it.
        const status = await server.request('POST', '/api/public/domain/status', {
          key: own,
          body: { domains: [names[1]] },
        });
        const records: { fqdn: string; value: string }[] = status.body[0].data.records;
        for (const text of await second!.locator('.diagnostic').allInnerTexts()) {
          for (const record of records) {
            assert.ok(!text.includes(record.fqdn), `${text} repeats ${record.fqdn}`);
            assert.ok(!text.includes(record.value), `${text} repeats ${record.value}`);
          }
        }
        // Every copy icon sits on a line of the text it copies, not below it.
        for (const cell of await second!.locator('td.value').all()) {
          const text = (await cell.locator('.mono').boundingBox())!;
          const icon = (await cell.getByRole('button').boundingBox())!;
          assert.ok(
            icon.y < text.y + text.height && icon.y + icon.height > text.y,
            `${await cell.innerText()}: the copy icon is not beside its text`,
          );
        }
        if (viewport === LAPTOP) {
          // At 1280 px each name and value is one line, as tall as the short DMARC name.
          const values = await second!.locator('td.value .mono').all();
          const oneLine = (await values.at(-2)!.boundingBox())!.height;
          for (const value of values)
            assert.equal((await value.boundingBox())!.height, oneLine, await value.innerText());
        }
        // Zone-file lines wrap: nothing is cut off at the right.
        const [scrollWidth, clientWidth] = await second!
          .locator('pre')
          .evaluate((e) => [e.scrollWidth, e.clientWidth]);
        assert.ok(
          scrollWidth! <= clientWidth!,
          `the zone lines are ${scrollWidth} px wide in ${clientWidth} px`,
        );
        assert.deepEqual(view.problems, []);
      } finally {
        await view.context.close();
      }
      const found = await axeViolations(browser, `${server.url}/domains`, {
        ready: '#key-form',
        colorScheme: 'light',
        viewport,
        prepare: async (p) => {
          await signIn(p, own);
          await p.locator('.diagnostic').first().waitFor({ timeout: 30_000 });
        },
      });
      assert.deepEqual(found, [], 'axe, with the pending records and their diagnostics open');
    });
  }

  it('says a domain’s names are provisional while DNS has not shown its zone, and nothing once it has', async () => {
    // this test's DNS serves ZONE alone: a name outside it shows no zone
    const outside = 'mail.outside-zone.test';
    const inside = `zone-shown.${ZONE}`;
    const own = await accountWith([outside, inside]);
    const view = await openPage(browser, server.url, { viewport: LAPTOP });
    try {
      const p = view.page;
      await p.goto(`${server.url}/domains`);
      await signIn(p, own);
      /** The card of `name`, its records open. */
      const opened = async (name: string) => {
        const domainCard = p.locator(`article[data-domain="${name}"]`);
        await domainCard.waitFor();
        if (!(await domainCard.locator('table.records').isVisible()))
          await domainCard.getByRole('button', { name: 'Records' }).click();
        await domainCard.locator('table.records').waitFor();
        return domainCard;
      };
      assert.equal(
        await (await opened(outside)).locator('.provisional').innerText(),
        `DNS has not shown ${outside}'s zone yet, so these names are relative to outside-zone.test. If ${outside} is a zone of its own, they change at the next check; the full names below are right either way.`,
      );
      assert.equal(await (await opened(inside)).locator('.provisional').isVisible(), false);
    } finally {
      await view.context.close();
    }
  });

  it('announces a registered domain and brings it into view, open and outlined (it was sorted below the fold, unannounced)', async () => {
    const names = ['a3', 'b3', 'c3', 'd3'].map((n) => `${n}.${ZONE}`);
    const own = await accountWith(names);
    const view = await openPage(browser, server.url, { viewport: LAPTOP });
    try {
      const p = view.page;
      await p.goto(`${server.url}/domains`);
      await signIn(p, own);
      await p.locator(`article[data-domain="${names[3]}"]`).waitFor();
      const notice = p.locator('#notice');
      // A live region present before it speaks: one that appears with its text is often not read.
      assert.equal(await notice.getAttribute('role'), 'status');
      assert.equal(await notice.innerText(), '');

      const added = `z3.${ZONE}`;
      await p.fill('#register-names', added);
      // by keyboard: the button keeps the focus while it works (disabling it dropped the focus)
      await p.focus('#register-button');
      await p.keyboard.press('Enter');
      const addedCard = p.locator(`article[data-domain="${added}"]`);
      await addedCard.locator('table.records').waitFor();
      await waitUntil('the announcement', async () =>
        /^Registered z3\.example\.test: publish/.test(await notice.innerText()),
      );
      assert.equal(
        await p.evaluate('document.activeElement?.id'),
        'register-button',
        'the button kept the focus',
      );
      assert.equal(await p.getAttribute('#register-button', 'aria-disabled'), null, 'and works again');
      const box = (await addedCard.boundingBox())!;
      assert.ok(box.y >= 0 && box.y + 60 <= LAPTOP.height, `the new card's head is at ${box.y} px`);
      assert.ok(Number(await p.evaluate('window.scrollY')) > 0, 'the page did not scroll');
      const outline = (name: string) => style(p.locator(`article[data-domain="${name}"]`), 'boxShadow');
      assert.notEqual(await outline(added), 'none');
      assert.equal(await outline(names[0]!), 'none');
      assert.equal(await p.locator('.domain-body').count(), 1, 'only the new domain is open');

      // Registering one already there says so, and brings that one into view.
      await p.evaluate('window.scrollTo(0, 0)');
      await p.fill('#register-names', names[3]!);
      await p.click('#register-button');
      await waitUntil('the second announcement', async () =>
        /^d3\.example\.test was already registered/.test(await notice.innerText()),
      );
      await p.locator(`article[data-domain="${names[3]}"] table.records`).waitFor();
      assert.notEqual(await outline(names[3]!), 'none');
      assert.equal(await outline(added), 'none');

      // With "Return path" ticked (issue 34), the records to publish end with its CNAME.
      const withReturnPath = `rp3.${ZONE}`;
      await p.fill('#register-names', withReturnPath);
      await p.check('#register-return-path');
      await p.click('#register-button');
      const rows = p.locator(`article[data-domain="${withReturnPath}"] table.records tbody tr`);
      await waitUntil('five records', async () => (await rows.count()) === 5);
      assert.match(
        await rows.nth(4).innerText(),
        /CNAME[\s\S]*bounces\.rp3[\s\S]*return-path\.dkim\.provider\.test/,
      );
      assert.deepEqual(view.problems, []);
    } finally {
      await view.context.close();
    }
  });

  it('names every DNS provider of a zone served by several, says to add the records at each, and lists each one’s tips (it named one)', async () => {
    const name = `multi.${ZONE}`;
    const own = await accountWith([name]);
    const view = await openPage(browser, server.url, { viewport: LAPTOP });
    try {
      const p = view.page;
      await servedBy(p, ['route53', 'cloudflare']);
      await p.goto(`${server.url}/domains`);
      await signIn(p, own);
      // a new pending domain opens by itself
      const domain = p.locator(`article[data-domain="${name}"]`);
      const note = domain.locator('.provider-note');
      const summary = note.locator('summary');
      await summary.waitFor();
      assert.equal(
        await summary.innerText(),
        'DNS hosted at Amazon Route 53 and Cloudflare: add the records at each of them',
      );
      await summary.click();
      const text = await note.innerText();
      assert.match(text, /a record missing at one is missing for the resolvers that ask it/);
      // each provider's tips under its name, Route 53's first
      const route53 = text.indexOf('At Amazon Route 53:');
      const cloudflare = text.indexOf('At Cloudflare:');
      assert.ok(route53 > 0 && cloudflare > route53, text);
      assert.match(
        text.slice(route53, cloudflare),
        /Enter the value with its surrounding quotes, as shown\./,
      );
      assert.doesNotMatch(text.slice(route53, cloudflare), /DNS only/);
      assert.match(text.slice(cloudflare), /Set the proxy status to “DNS only”/);
      assert.match(
        text.slice(cloudflare),
        /Paste the value without its surrounding quotes; Cloudflare adds them\./,
      );
      // a link names the site it opens
      assert.equal((await note.getByRole('link', { name: 'docs.aws.amazon.com' }).count()) > 0, true);

      // one provider: the short form, as before
      await p.unrouteAll({ behavior: 'wait' });
      await servedBy(p, ['ns1']);
      await waitUntil('one provider named', async () =>
        /^DNS hosted at IBM NS1 Connect \(also used by Netlify DNS\): 2 tips/.test(await summary.innerText()),
      );
      assert.deepEqual(view.problems, []);
    } finally {
      await view.context.close();
    }
  });

  it('passes axe with the providers of a zone served by several open, light and dark', async () => {
    const name = `multi-axe.${ZONE}`;
    const own = await accountWith([name]);
    for (const colorScheme of ['light', 'dark'] as const) {
      const found = await axeViolations(browser, `${server.url}/domains`, {
        ready: '#key-form',
        colorScheme,
        prepare: async (p) => {
          await servedBy(p, ['route53', 'cloudflare']);
          await signIn(p, own);
          await p.locator('.provider-note summary').click();
          await p.getByText('At Cloudflare:').waitFor();
        },
      });
      assert.deepEqual(found, [], colorScheme);
    }
  });

  it('shows the server offline with a backing-off retry countdown, greys the statuses and recovers quietly (it still said "Live", and failed every 5 s)', async () => {
    const databaseUrl = await testDatabaseUrl();
    // Its own server, stopped and started again on the same port and data.
    const env = {
      DNS_RESOLVERS: dns.address,
      STATUS_CHECK_MAX_AGE_MS: '0',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dashboard-offline-')),
      ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    };
    let own = await startTestServer(env);
    let running = true;
    const view = await openPage(browser, own.url);
    try {
      const { key: ownKey } = await own.createKey({ name: 'dashboard' });
      const name = `offline.${ZONE}`;
      await own.request('POST', '/api/public/domain', {
        key: ownKey,
        body: { domains: [{ domain: name, domainType: 'Transactional' }] },
      });
      const p = view.page;
      // The test drives every attempt: focus or visibility changes the browser may send as other
      // pages come and go would bring an attempt forward (the page retries when the tab comes back).
      await p.addInitScript(`{
        const swallow = (event) => event.stopImmediatePropagation();
        window.addEventListener('focus', swallow, true);
        document.addEventListener('visibilitychange', swallow, true);
      }`);
      let failedRequests = 0;
      p.on('requestfailed', () => failedRequests++);
      await p.clock.install();
      await p.goto(`${own.url}/domains`);
      await signIn(p, ownKey);
      const domainCard = p.locator(`article[data-domain="${name}"]`);
      await domainCard.waitFor();
      await p.clock.pauseAt(Date.now() + 1000);

      await own.server.close();
      running = false;
      await p.clock.runFor(5000);
      await p.locator('#offline').waitFor();
      assert.match(await p.locator('#offline-text').innerText(), /^Cannot reach the server/);
      assert.doesNotMatch(await p.locator('#offline').innerText(), /failed to fetch/i);
      assert.match(await p.locator('#live').innerText(), /^Offline: statuses as of /);
      // The statuses lose their colours: a pending badge is as grey as the text beside it.
      const colour = (selector: string) => style(domainCard.locator(selector), 'color');
      assert.equal(await colour('.domain-head .badge'), await colour('.domain-meta'));

      // One request per attempt, 5, 10, 20, 40, then 60 s apart, counted down on the page.
      const countdown = p.locator('#offline-countdown');
      for (const [i, delay] of [5, 10, 20, 40, 60, 60].entries()) {
        const pattern = new RegExp(`^Retrying in (\\d+) s \\(attempt ${i + 2}\\)\\.$`);
        let left = 0;
        await waitUntil(`the countdown of attempt ${i + 2}`, async () => {
          left = Number(pattern.exec(await countdown.innerText())?.[1] ?? 0);
          return left > 0;
        });
        // the first countdown may start within the clock step that met the closed server, and
        // have ticked for the rest of it; every later one starts with the clock paused
        if (i === 0) assert.ok(left <= delay, `attempt 2 in ${left} s`);
        else assert.equal(left, delay, `attempt ${i + 2} after ${delay} s`);
        await waitUntil('the failed requests counted', () => failedRequests === i + 1);
        await p.clock.runFor((left - 1) * 1000);
        assert.equal(await countdown.innerText(), `Retrying in 1 s (attempt ${i + 2}).`);
        assert.equal(failedRequests, i + 1, 'no attempt before its time');
        await p.clock.runFor(1000);
      }
      await waitUntil('the last attempt to fail', () => failedRequests === 7);
      // The age of the statuses kept moving while offline.
      assert.match(await domainCard.locator('.domain-meta').innerText(), /checked \d+ min ago$/);
      // The page logged nothing itself: only Chromium's line for each refused connection.
      await waitUntil('the console lines', () => view.problems.length === failedRequests);
      for (const problem of view.problems)
        assert.match(problem, /Failed to load resource: net::ERR_CONNECTION_REFUSED/);

      // Back: the next attempt (here the Retry button) finds it, and the page returns to normal.
      own = await startTestServer({ ...env, PORT: new URL(own.url).port });
      running = true;
      await p.getByRole('button', { name: 'Retry now' }).click();
      await p.locator('#offline').waitFor({ state: 'hidden' });
      assert.equal(await p.locator('#live').innerText(), 'Live: re-checking 1 pending every 5 s');
      assert.notEqual(await colour('.domain-head .badge'), await colour('.domain-meta'));
      assert.equal(await p.locator('[role="alert"]:visible').count(), 0);
      const polled = p.waitForResponse((r) => r.url().endsWith('/api/public/domain/status'));
      await p.clock.runFor(5000);
      assert.equal((await polled).status(), 200);
    } finally {
      await view.context.close();
      if (running) await own.close();
    }
  });

  it('passes axe offline (statuses greyed) and with the delete dialog open, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const offline = await axeViolations(browser, `${server.url}/domains`, {
        ready: '#key-form',
        colorScheme,
        prepare: async (p) => {
          await signIn(p);
          const domain = p.locator(`article[data-domain="${DOMAIN}"]`);
          await domain.getByRole('button', { name: 'Records' }).click();
          // The API stops answering: the next poll of the open domain goes unanswered.
          await p.route('**/api/public/**', (route) => route.abort('connectionrefused'));
          await p.locator('#offline').waitFor();
        },
      });
      assert.deepEqual(offline, [], `offline, ${colorScheme}`);
      const dialog = await axeViolations(browser, `${server.url}/domains`, {
        ready: '#key-form',
        colorScheme,
        prepare: async (p) => {
          await signIn(p);
          await p.getByRole('button', { name: `Delete ${DOMAIN}` }).click();
          await p.getByRole('dialog').waitFor();
        },
      });
      assert.deepEqual(dialog, [], `dialog, ${colorScheme}`);
    }
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

  it('asks before deleting in a labelled dialog: Cancel has the focus, Escape cancels and gives it back (it was window.confirm)', async () => {
    const native: string[] = [];
    const onDialog = (dialog: { message(): string; dismiss(): Promise<void> }) => {
      native.push(dialog.message());
      void dialog.dismiss();
    };
    page.on('dialog', onDialog);
    try {
      const remove = card().getByRole('button', { name: 'Delete' });
      await remove.click();
      const dialog = page.getByRole('dialog', { name: `Delete ${DOMAIN}?` });
      await dialog.waitFor();
      assert.match(await dialog.innerText(), /DKIM keys are destroyed/);
      assert.equal(await page.evaluate('document.activeElement.textContent'), 'Cancel');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await hasFocus(remove), true, 'the focus is not back');
      assert.equal(await card().count(), 1);
      assert.deepEqual(native, []);
      // Among several cards, each Delete button says which domain it deletes.
      assert.equal(await remove.getAttribute('aria-label'), `Delete ${DOMAIN}`);
    } finally {
      page.off('dialog', onDialog);
    }
  });

  it('deletes a domain once confirmed in the dialog, back to the empty state', async () => {
    await card().getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete domain' }).click();
    await card().waitFor({ state: 'detached' });
    await page.locator('#empty').waitFor();
    assert.equal(await page.locator('#notice').innerText(), `Deleted ${DOMAIN}.`);
    // Its card is gone: the focus goes to the list's heading, not to the page's start.
    assert.equal(await page.evaluate('document.activeElement.id'), 'list-title');
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

describe('the Webhooks section of the dashboard', () => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver?.close();
  });

  /** A new account's key, signed in on a new page at `viewport`, its (empty) Webhooks section shown. */
  async function signedIn(viewport = LAPTOP): Promise<{ view: WatchedPage; own: string }> {
    const { key: own } = await server.createKey({ name: 'dashboard' });
    const view = await openPage(browser, server.url, { viewport });
    await view.page.goto(`${server.url}/domains`);
    await signIn(view.page, own);
    await view.page.locator('#webhooks-empty').waitFor();
    return { view, own };
  }

  /** Adds an endpoint for `url` in the page, as a user does; resolves to the secret shown. */
  async function addEndpoint(p: Page, url: string): Promise<string> {
    await p.getByLabel('Endpoint URL').fill(url);
    await p.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = p.locator('#webhook-secret .secret-value');
    await secret.waitFor();
    return secret.innerText();
  }

  it('adds an endpoint, shows its secret once, shows the domain.created delivery, retries it and removes the endpoint after confirming', async () => {
    const { view, own } = await signedIn();
    const p = view.page;
    try {
      // Each event is a checkbox, all ticked: one is left out.
      await p.getByRole('checkbox', { name: /domain\.deleted/ }).uncheck();
      const secret = await addEndpoint(p, receiver.url);
      assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
      const box = p.getByRole('region', { name: 'Signing secret of the new endpoint' });
      assert.match(await box.innerText(), /Shown only once\..*cannot be shown again/s);
      // The focus is on its Copy button, which copies it whole.
      const copy = box.getByRole('button', { name: 'Copy secret' });
      assert.equal(await hasFocus(copy), true);
      await copy.click();
      assert.equal(
        await waitUntil('the secret copied', async () => (await view.clipboard()) === secret),
        true,
      );
      assert.match(
        await p.locator('#webhooks-notice').innerText(),
        /^Added http:\/\/127\.0\.0\.1:\d+\/hooks\. Copy/,
      );

      const item = p.locator('li.webhook');
      assert.equal(await item.count(), 1);
      assert.equal(await item.locator('.webhook-url').innerText(), receiver.url);
      assert.equal(await item.locator('.badge').innerText(), 'active');
      assert.match(
        await item.locator('.webhook-meta').innerText(),
        /^domain\.created, domain\.updated, domain\.verified, domain\.dkim_rotated, email\.sent, email\.delivered, email\.deferred, email\.bounced, email\.failed, email\.complained, email\.opened, email\.clicked · added /,
      );
      // The new endpoint's deliveries are open, empty so far.
      await item.getByText('No deliveries yet').waitFor();
      assert.equal(
        await item.getByRole('button', { name: 'Hide deliveries' }).getAttribute('aria-expanded'),
        'true',
      );

      // Dismissed, the secret is nowhere in the page, nor in the API's list.
      await box.getByRole('button', { name: 'I have stored it' }).click();
      await box.waitFor({ state: 'hidden' });
      assert.equal(await p.evaluate('document.activeElement.id'), 'webhooks-title');
      assert.ok(!(await p.content()).includes(secret));
      const listed = await server.request('GET', '/api/public/webhooks', { key: own });
      assert.ok(!JSON.stringify(listed.body).includes(secret));

      // A domain registered in the page: its domain.created reaches the receiver, signed with the secret shown.
      const name = `hooked.${ZONE}`;
      await p.fill('#register-names', name);
      await p.click('#register-button');
      const received = await waitUntil('the domain.created request', () => receiver.received.at(-1));
      const verified = new Webhook(secret).verify(
        received.body,
        received.headers as Record<string, string>,
      ) as {
        type: string;
        data: { domain: string };
      };
      assert.equal(verified.type, 'domain.created');
      assert.equal(verified.data.domain, name);

      // The deliveries list shows it delivered at the next poll.
      const row = item.locator('table.deliveries tbody tr', { hasText: 'domain.created' });
      await row.locator('.badge.delivered').waitFor({ timeout: 15_000 });
      assert.match(await row.locator('td.event').innerText(), /^domain\.created /);
      assert.equal(await row.locator('td.attempts').innerText(), '1');
      assert.match(await row.locator('td.last').innerText(), /^HTTP 204 · \d+ ms$/);
      assert.equal(await row.locator('td.next').innerText(), '–');

      // Retry: the same webhook-id again; the row counts the second attempt, the focus stays on Retry.
      const before = receiver.received.length;
      const retry = row.getByRole('button', { name: /^Retry domain\.created of / });
      await retry.click();
      const again = await waitUntil('the retried request', () => receiver.received[before]);
      assert.equal(again.headers['webhook-id'], received.headers['webhook-id']);
      await waitUntil(
        'the second attempt shown',
        async () => (await row.locator('td.attempts').innerText()) === '2',
      );
      await row.locator('.badge.delivered').waitFor();
      assert.equal(await hasFocus(retry), true);
      assert.equal(await p.locator('#webhooks-notice').innerText(), 'Sending domain.created again.');

      // Remove, in the domains' confirmation dialog with its own words; Escape first keeps it.
      const remove = item.getByRole('button', { name: `Remove ${receiver.url}` });
      await remove.click();
      const dialog = p.getByRole('dialog', { name: `Remove ${receiver.url}?` });
      await dialog.waitFor();
      assert.match(await dialog.innerText(), /Nothing more is sent to it/);
      assert.equal(await p.evaluate('document.activeElement.textContent'), 'Cancel');
      await p.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await hasFocus(remove), true);
      await remove.click();
      await dialog.getByRole('button', { name: 'Remove endpoint' }).click();
      await item.waitFor({ state: 'detached' });
      await p.locator('#webhooks-empty').waitFor();
      assert.equal(await p.locator('#webhooks-notice').innerText(), `Removed ${receiver.url}.`);
      assert.equal(await p.evaluate('document.activeElement.id'), 'webhooks-title');
      const gone = await server.request('GET', '/api/public/webhooks', { key: own });
      assert.deepEqual(gone.body.data, []);

      // The same dialog still speaks of domains for a domain.
      await p.getByRole('button', { name: `Delete ${name}` }).click();
      const domainDialog = p.getByRole('dialog', { name: `Delete ${name}?` });
      await domainDialog.waitFor();
      assert.match(await domainDialog.innerText(), /DKIM keys are destroyed/);
      assert.equal(await domainDialog.getByRole('button', { name: 'Delete domain' }).count(), 1);
      await p.keyboard.press('Escape');
      assert.deepEqual(view.problems, []);
    } finally {
      await view.context.close();
    }
  });

  it('shows the API’s error for a refused URL in the form', async () => {
    const { view } = await signedIn();
    try {
      const p = view.page;
      await p.getByLabel('Endpoint URL').fill('ftp://hooks.example.com/');
      await p.getByRole('button', { name: 'Add endpoint' }).click();
      const error = p.locator('#webhook-form-errors li');
      await error.waitFor();
      assert.match(
        await error.innerText(),
        /^The server answered with an error \(HTTP 400, WEBHOOK_URL_INVALID\)/,
      );
      assert.equal(await p.locator('li.webhook').count(), 0);
      assert.equal(await p.locator('#webhook-secret').isVisible(), false);
    } finally {
      await view.context.close();
    }
  });

  it('shows an endpoint disabled after failing, with the failed attempt, and enables it again', async () => {
    const failing = await startWebhookReceiver('/down');
    failing.failing = true;
    const { key: own } = await server.createKey({ name: 'dashboard' });
    const view = await openPage(browser, server.url);
    try {
      const created = await server.request('POST', '/api/public/webhooks', {
        key: own,
        body: { url: failing.url },
      });
      assert.equal(created.status, 200);
      await server.request('POST', '/api/public/domain', {
        key: own,
        body: { domains: [{ domain: `down.${ZONE}`, domainType: 'Transactional' }] },
      });
      await waitUntil('the endpoint disabled', async () => {
        const listed = await server.request('GET', '/api/public/webhooks', { key: own });
        return listed.body.data[0].disabledAt !== null;
      });
      const p = view.page;
      await p.goto(`${server.url}/domains`);
      await signIn(p, own);
      const item = p.locator('li.webhook');
      await item.locator('.badge.disabled').waitFor();
      assert.match(await item.locator('.webhook-note').innerText(), /^Disabled .*nothing is sent/);
      const enable = item.getByRole('button', { name: `Enable ${failing.url}` });
      assert.equal(await enable.isVisible(), true);
      await item.getByRole('button', { name: 'Deliveries' }).click();
      const row = item.locator('table.deliveries tbody tr', { hasText: 'domain.created' });
      await row.waitFor();
      assert.equal(await row.locator('.badge').innerText(), 'pending');
      assert.match(await row.locator('td.last').innerText(), /^HTTP 500 · \d+ ms/);
      assert.equal(await row.locator('td.next').innerText(), 'when enabled');

      const found = await axeViolations(browser, `${server.url}/domains`, {
        ready: '#key-form',
        colorScheme: 'dark',
        prepare: async (q) => {
          await signIn(q, own);
          await q.getByRole('button', { name: 'Deliveries' }).click();
          await q.locator('table.deliveries tbody tr').waitFor();
        },
      });
      assert.deepEqual(found, [], 'axe, a disabled endpoint with its deliveries open, dark');

      // The receiver is fixed: Enable sends the waiting delivery.
      failing.failing = false;
      await enable.click();
      await item.locator('.badge.active').waitFor();
      assert.equal(await enable.isVisible(), false);
      assert.equal(await hasFocus(item.getByRole('button', { name: 'Hide deliveries' })), true);
      await waitUntil('the waiting delivery received', () => failing.received.length > 0);
      await item.getByRole('button', { name: `Refresh deliveries of ${failing.url}` }).click();
      await row.locator('.badge.delivered').waitFor({ timeout: 10_000 });
      assert.deepEqual(view.problems, []);
    } finally {
      await view.context.close();
      await failing.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`passes axe with the secret shown and deliveries listed, ${colorScheme}`, async () => {
      const { key: own } = await server.createKey({ name: 'dashboard' });
      const found = await axeViolations(browser, `${server.url}/domains`, {
        ready: '#key-form',
        colorScheme,
        prepare: async (q) => {
          await signIn(q, own);
          await q.locator('#webhooks-empty').waitFor();
          await addEndpoint(q, receiver.url);
          await q.fill('#register-names', `axe-${colorScheme}.${ZONE}`);
          await q.click('#register-button');
          await q.locator('table.deliveries .badge.delivered').waitFor({ timeout: 15_000 });
        },
      });
      assert.deepEqual(found, []);
    });
  }

  it('fits a 390 px phone with the secret shown and deliveries open: no sideways scrolling', async () => {
    const width = 390;
    const { view } = await signedIn({ width, height: 844 });
    try {
      const p = view.page;
      await addEndpoint(p, receiver.url);
      await p.fill('#register-names', `phone.${ZONE}`);
      await p.click('#register-button');
      await p.locator('table.deliveries .badge.delivered').waitFor({ timeout: 15_000 });
      const scrollWidth = Number(await p.evaluate('document.documentElement.scrollWidth'));
      assert.ok(scrollWidth <= width, `the page is ${scrollWidth} px wide: it scrolls sideways`);
      const section = (await p.locator('#webhooks').boundingBox())!;
      for (const inner of await p.locator('#webhooks :is(button, .badge, input):visible').all()) {
        const b = (await inner.boundingBox())!;
        assert.ok(b.x >= section.x && b.x + b.width <= section.x + section.width, await inner.innerText());
      }
      assert.deepEqual(view.problems, []);
    } finally {
      await view.context.close();
    }
  });
});
