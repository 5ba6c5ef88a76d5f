// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
// The dashboard's account sections (issue 40), in Chromium against the real server in
// development mode: a newcomer's first send in the Sandbox section (the captured copy with its
// verdicts, events and rendering), the Suppressions it causes, and the API keys section.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchChromium, openPage, waitUntil } from '../src/test-support/browser.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';

let server: TestServer;
let browser: Browser;

before(async () => {
  server = await startTestServer({ SEND_INTERVAL_MS: '50' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function signedIn(p: Page): Promise<string> {
  const { key } = await server.createKey({ name: 'dashboard' });
  await p.goto(`${server.url}/domains`);
  await p.fill('#key-input', key);
  await p.click('#key-form button[type="submit"]');
  await p.locator('#sandbox-empty').waitFor();
  return key;
}

/** Sends a test email from the section to `to`, with `subject`. */
async function sendFromPage(p: Page, to: string, subject: string): Promise<void> {
  await p.selectOption('#sandbox-to', to);
  await p.fill('#sandbox-subject', subject);
  await p.getByRole('button', { name: 'Send', exact: true }).click();
}

describe('the dashboard’s sandbox', () => {
  it('sends a first email, lists it with SPF, DKIM and DMARC passing, and opens it with its events and rendering', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      await signedIn(p);
      await sendFromPage(p, 'complained@sandbox.test', 'My first email');
      await waitUntil('the notice', async () =>
        /^Sent eml_/.test(await p.locator('#sandbox-notice').innerText()) ? true : undefined,
      );
      const row = p.locator('#capture-list .capture', { hasText: 'My first email' });
      await row.waitFor({ timeout: 30_000 });
      assert.deepEqual(await row.locator('.verdicts .badge').allInnerTexts(), [
        'SPF pass',
        'DKIM pass',
        'DMARC pass',
      ]);
      assert.match(await row.innerText(), /to complained@sandbox\.test/);

      await row.getByRole('button', { name: 'Open' }).click();
      // The complaint comes after delivery; the open message's events follow at each poll.
      await waitUntil('sent, delivered and complained in the events', async () => {
        const text = await p
          .locator('#capture-detail .capture-events')
          .innerText()
          .catch(() => '');
        return /sent 250[\s\S]*delivered 250[\s\S]*complained/.test(text) ? text : undefined;
      });
      const frame = p.frameLocator('.capture-frame');
      await frame.getByText('Hello from the sandbox.').waitFor();
      // the frame has no scripts and no access to the page
      assert.equal(await p.locator('.capture-frame').getAttribute('sandbox'), '');
      assert.match(await p.locator('#capture-detail .hint.mono').innerText(), /dkim=pass .* dmarc=pass/);
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('shows a sandbox bounce among the suppressions within a poll, and removes it (suppressions were API-only)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const key = await signedIn(p);
      assert.equal(await p.locator('#suppressions-empty').isVisible(), true);
      await sendFromPage(p, 'bounced@sandbox.test', 'Bounce me');
      const row = p.locator('#suppression-list li', { hasText: 'bounced@sandbox.test' });
      await row.waitFor({ timeout: 30_000 });
      assert.match(await row.innerText(), /all mail · since .* · 550 5\.1\.1/);
      await row
        .getByRole('button', { name: 'Remove bounced@sandbox.test from the suppression list' })
        .click();
      await waitUntil('the removal said', async () =>
        /^bounced@sandbox\.test is off the list/.test(await p.locator('#suppressions-notice').innerText())
          ? true
          : undefined,
      );
      assert.equal(await row.count(), 0);
      const listed = await server.request('GET', '/api/public/suppressions', { key });
      assert.deepEqual(listed.body.data, []);
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('makes a browser key shown once, lists it, and revokes it after confirming; the page’s own key cannot be revoked here (keys were CLI-only)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const key = await signedIn(p);
      await p.locator('#key-list li').first().waitFor();
      const own = p.locator('#key-list li').first();
      assert.match(await own.innerText(), /this page’s key/);
      assert.equal(await own.getByRole('button', { name: /Revoke/ }).isVisible(), false);

      await p.fill('#new-key-name', 'playground');
      await p.selectOption('#new-key-scope', 'templates,images');
      await p.getByRole('button', { name: 'Create key' }).click();
      const shown = await p.locator('#new-key .secret-value').innerText();
      assert.match(shown, /^sk_/);
      // the key works, for what it may reach
      assert.equal((await server.request('GET', '/api/public/templates', { key: shown })).status, 200);
      await p.getByRole('button', { name: 'Copy key' }).click();
      assert.equal(
        await waitUntil('copied', async () => ((await watched.clipboard()) === shown ? true : undefined)),
        true,
      );
      await p.getByRole('button', { name: 'I have stored it' }).click();
      assert.equal(await p.locator('#new-key').isVisible(), false);
      const row = p.locator('#key-list li', { hasText: 'playground' });
      assert.match(await row.innerText(), /templates and images only \(for a web page\)/);
      assert.doesNotMatch(await p.locator('#keys').innerText(), new RegExp(shown));

      await row.getByRole('button', { name: 'Revoke the key playground' }).click();
      await p.locator('#delete-dialog').getByRole('button', { name: 'Revoke key' }).click();
      await waitUntil('revoked', async () => (/revoked/.test(await row.innerText()) ? true : undefined));
      assert.equal((await server.request('GET', '/api/public/templates', { key: shown })).status, 401);
      const listed = await server.request('GET', '/api/public/keys', { key });
      assert.equal(listed.body.data.filter((k: any) => k.revokedAt === null).length, 1);
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('makes a key for one customer’s domain: it sends from that domain only and reads neither the suppressions nor the sandbox', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const key = await signedIn(p);
      const registered = await server.request('POST', '/api/public/domain', {
        key,
        body: { domains: [{ domain: 'mail.customer-one.test', domainType: 'Transactional' }] },
      });
      assert.equal(registered.body[0].status, 200, JSON.stringify(registered.body));
      await p.fill('#new-key-name', 'customer one');
      assert.equal(await p.locator('#new-key-domain').isVisible(), false);
      await p.selectOption('#new-key-scope', 'domain');
      await p.fill('#new-key-domain', 'Mail.Customer-One.test');
      await p.getByRole('button', { name: 'Create key' }).click();
      const shown = await p.locator('#new-key .secret-value').innerText();
      await p.getByRole('button', { name: 'I have stored it' }).click();
      const row = p.locator('#key-list li', { hasText: 'customer one' });
      assert.match(await row.innerText(), /sends from mail\.customer-one\.test only/);

      const limited = await server.request('GET', '/api/public/keys', { key });
      assert.deepEqual(limited.body.data.find((k: any) => k.name === 'customer one').domains, [
        'mail.customer-one.test',
      ]);
      const elsewhere = await server.request('POST', '/api/public/emails', {
        key: shown,
        body: {
          from: 'onboarding@sandbox.test',
          to: ['delivered@sandbox.test'],
          subject: 'x',
          html: '<p>x</p>',
        },
      });
      assert.equal(elsewhere.status, 403);
      assert.equal(elsewhere.body.error.code, 'EMAIL_FROM_NOT_ALLOWED');
      for (const route of [
        '/api/public/suppressions',
        '/api/public/sandbox/messages',
        '/api/public/domain',
      ]) {
        const refused = await server.request('GET', route, { key: shown });
        assert.equal(refused.status, 403, route);
        assert.equal(refused.body.error.code, 'AUTH_SCOPE', route);
      }
      // a domain the account does not hold is named, and no key is made
      await p.fill('#new-key-name', 'nobody');
      await p.selectOption('#new-key-scope', 'domain');
      await p.fill('#new-key-domain', 'not-ours.test');
      await p.getByRole('button', { name: 'Create key' }).click();
      await waitUntil('the refusal', async () =>
        /Not created: not-ours\.test is not a registered domain/.test(
          await p.locator('#keys-notice').innerText(),
        )
          ? true
          : undefined,
      );
      assert.equal(await p.locator('#key-list li', { hasText: 'nobody' }).count(), 0);
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('lists the messages with their status, filters them, and opens one with each recipient’s events (emails were API-only)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      await signedIn(p);
      await sendFromPage(p, 'delivered@sandbox.test', 'Listed and delivered');
      await sendFromPage(p, 'bounced@sandbox.test', 'Listed and bounced');
      const bounced = p.locator('#email-list li', { hasText: 'Listed and bounced' });
      await waitUntil('the bounce shown in the list', async () =>
        (await bounced
          .locator('.badge')
          .innerText()
          .catch(() => '')) === 'bounced'
          ? true
          : undefined,
      );
      const delivered = p.locator('#email-list li', { hasText: 'Listed and delivered' });
      assert.equal(await delivered.locator('.badge').innerText(), 'sent');
      assert.match(await delivered.innerText(), /from onboarding@sandbox\.test to delivered@sandbox\.test/);

      await p.selectOption('#emails-status', 'bounced');
      await waitUntil('only the bounce listed', async () =>
        (await delivered.count()) === 0 ? true : undefined,
      );
      assert.equal(await bounced.count(), 1);

      await bounced.getByRole('button', { name: 'Open the message “Listed and bounced”' }).click();
      const events = await waitUntil('its events', async () => {
        const text = await p
          .locator('#email-detail pre.capture-events')
          .innerText()
          .catch(() => '');
        return text.includes('bounced 550') ? text : undefined;
      });
      assert.match(events, /^bounced@sandbox\.test \(to\): bounced\n {2}bounced 550 · .* · 550 5\.1\.1 /);
      // The message itself (issue 40: a message opened showed its events only), in a frame
      // without scripts or access to the page, with its text part and header fields
      const frame = p.locator('#email-detail iframe.capture-frame');
      assert.equal(await frame.getAttribute('sandbox'), '');
      assert.equal(await frame.getAttribute('title'), 'The email "Listed and bounced" as rendered');
      await p
        .frameLocator('#email-detail iframe.capture-frame')
        .getByText('Hello from the sandbox.')
        .waitFor();
      await p.locator('#email-detail summary', { hasText: /^Headers \(\d+\)$/ }).click();
      assert.match(
        await p.locator('#email-detail .capture-pre').last().innerText(),
        /^Subject: Listed and bounced$/m,
      );
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('draws the Emails section’s recipient filter as the page’s other fields (it was the browser’s bare search box)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      await signedIn(p);
      const look = (selector: string) =>
        p.evaluate(`(() => {
          const s = getComputedStyle(document.querySelector(${JSON.stringify(selector)}));
          return [s.padding, s.borderRadius, s.borderColor, s.backgroundColor, s.fontSize, s.height].join(' | ');
        })()`);
      assert.equal(await look('#emails-recipient'), await look('#new-key-name'));
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 812 },
  ]) {
    it(`passes axe at ${viewport.width} px with a message open, and does not scroll sideways`, async () => {
      const found = await axeViolations(browser, `${server.url}/domains`, {
        ready: '#key-form',
        colorScheme: 'light',
        viewport,
        prepare: async (p) => {
          await signedIn(p);
          await sendFromPage(p, 'delivered@sandbox.test', 'Checked by axe');
          const row = p.locator('#capture-list .capture', { hasText: 'Checked by axe' });
          await row.waitFor({ timeout: 30_000 });
          await row.getByRole('button', { name: 'Open' }).click();
          await p.frameLocator('.capture-frame').getByText('Hello from the sandbox.').waitFor();
          // the key form as it is for a customer's key, its domain field shown
          await p.selectOption('#new-key-scope', 'domain');
          const width = Number(await p.evaluate('document.documentElement.scrollWidth'));
          assert.ok(width <= viewport.width, `the page is ${width} px wide at ${viewport.width} px`);
        },
      });
      assert.deepEqual(found, []);
    });
  }
});
