// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
// The dashboard's account sections (issue 40: "axe 0, keyboard, 375 px") by keyboard alone, in
// Chromium against the real server in development mode: Tab, Shift+Tab, Enter, Space, Escape
// and the arrows, never the mouse. Every control is reached, every action done, the focus is
// drawn wherever it lands and never falls back to <body> after an action (a removed row, a
// closed dialog, an opened message).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, type WatchedPage, waitUntil } from '../src/test-support/browser.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';

let server: TestServer;
let browser: Browser;

before(async () => {
  server = await startTestServer({
    SEND_INTERVAL_MS: '50',
    LOCAL_DNS_LISTEN: '127.0.0.1:0',
    STATUS_CHECK_MAX_AGE_MS: '0',
    VERIFY_GRACE_MS: '0',
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** What has the focus, as a person sees it. */
interface Focus {
  /** `body` when nothing has it */
  tag: string;
  id: string;
  /** its accessible name as the tests read it: aria-label, else its text */
  name: string;
  /** whether an outline is drawn around it */
  drawn: boolean;
}

async function focus(p: Page): Promise<Focus> {
  return (await p.evaluate(`(() => {
    const e = document.activeElement ?? document.body;
    const style = getComputedStyle(e);
    return {
      tag: e.tagName.toLowerCase(),
      id: e.id,
      name: (e.getAttribute('aria-label') ?? e.textContent ?? '').trim().replace(/\\s+/g, ' ').slice(0, 80),
      drawn: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
    };
  })()`)) as Focus;
}

/** Asserts the focus is on something drawn (not lost to <body>) and, if given, what it is. */
async function assertFocus(p: Page, expected: RegExp | undefined, when: string): Promise<Focus> {
  const f = await focus(p);
  assert.notEqual(f.tag, 'body', `${when}: the focus fell back to <body>`);
  if (expected)
    assert.match(`${f.id} ${f.name}`, expected, `${when}: the focus is on ${f.tag}#${f.id} “${f.name}”`);
  assert.equal(f.drawn, true, `${when}: ${f.tag}#${f.id} “${f.name}” has the focus with no outline drawn`);
  return f;
}

/**
 * Presses Tab (Shift+Tab when `back`) until the focus is on an element matching `selector`,
 * at most `max` times; the focus is drawn at every stop.
 */
async function tabTo(
  p: Page,
  selector: string,
  options: { back?: boolean; max?: number } = {},
): Promise<void> {
  const max = options.max ?? 150;
  for (let i = 0; i < max; i++) {
    await p.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    if (await p.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) {
      await assertFocus(p, undefined, `tabbed to ${selector}`);
      return;
    }
  }
  const f = await focus(p);
  assert.fail(
    `${selector} not reached in ${max} presses of ${options.back ? 'Shift+Tab' : 'Tab'} (at ${f.tag}#${f.id} “${f.name}”)`,
  );
}

/** The page with a new key typed in and submitted with Enter, then the focus back at the top. */
async function signedIn(watched: WatchedPage, prepared?: string): Promise<string> {
  const p = watched.page;
  const key = prepared ?? (await server.createKey({ name: 'dashboard' })).key;
  await p.goto(`${server.url}/domains`);
  await tabTo(p, '#key-input');
  await p.keyboard.type(key);
  await p.keyboard.press('Enter');
  await p.locator('#sandbox-empty, #capture-list li').first().waitFor({ state: 'attached' });
  await p.locator('#sandbox').waitFor();
  await p.evaluate('document.activeElement?.blur()');
  return key;
}

async function send(key: string, to: string, subject: string): Promise<void> {
  const sent = await server.request('POST', '/api/public/emails', {
    key,
    body: { from: 'onboarding@sandbox.test', to: [to], subject, html: '<p>Hello from the sandbox.</p>' },
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
}

describe('the dashboard’s account sections by keyboard', () => {
  it('Emails: filters by status and recipient, opens a message, reads inside it, and Escape brings the focus back to its row (Escape did nothing: only the row’s button closed it)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const key = await signedIn(watched);
      await send(key, 'delivered@sandbox.test', 'Keyboard delivered');
      await send(key, 'bounced@sandbox.test', 'Keyboard bounced');
      const bounced = p.locator('#email-list li', { hasText: 'Keyboard bounced' });
      const delivered = p.locator('#email-list li', { hasText: 'Keyboard delivered' });
      await waitUntil('the bounce listed as such', async () =>
        (await bounced
          .locator('.badge')
          .innerText()
          .catch(() => '')) === 'bounced'
          ? true
          : undefined,
      );
      await delivered.waitFor();

      // the status filter: a select changed with the arrows filters at once
      await tabTo(p, '#emails-status');
      while ((await p.locator('#emails-status').inputValue()) !== 'bounced')
        await p.keyboard.press('ArrowDown');
      await waitUntil('only the bounce listed', async () =>
        (await delivered.count()) === 0 ? true : undefined,
      );
      await assertFocus(p, /^emails-status/, 'the list filtered by status');
      // back to any status, then the recipient filter, typed and sent with Enter
      while ((await p.locator('#emails-status').inputValue()) !== '') await p.keyboard.press('ArrowUp');
      await delivered.waitFor();
      await p.keyboard.press('Tab');
      await assertFocus(p, /^emails-recipient/, 'Tab after the status');
      await p.keyboard.type('delivered@sandbox.test');
      await p.keyboard.press('Enter');
      await waitUntil('only the delivered one listed', async () =>
        (await bounced.count()) === 0 ? true : undefined,
      );
      await assertFocus(p, /^emails-recipient/, 'the list filtered by recipient');
      await p.keyboard.press('Tab');
      await assertFocus(p, /Filter/, 'Tab after the recipient');

      // open the message from its row
      await tabTo(p, '#email-list button[aria-controls="email-detail"]');
      await assertFocus(p, /Open the message “Keyboard delivered”/, 'its Open button');
      await p.keyboard.press('Enter');
      await p.locator('#email-detail iframe.capture-frame').waitFor();
      const toggle = delivered.getByRole('button', { name: 'Open the message “Keyboard delivered”' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      await assertFocus(p, /Open the message “Keyboard delivered”/, 'the message opened');
      // into it: the folded headers open with Enter (a summary), and Escape closes the message
      await tabTo(p, '#email-detail details:last-of-type > summary', { max: 10 });
      await p.keyboard.press('Enter');
      assert.equal(await p.locator('#email-detail details').last().getAttribute('open'), '');
      await p.keyboard.press('Escape');
      await p.locator('#email-detail').waitFor({ state: 'detached' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      await assertFocus(p, /Open the message “Keyboard delivered”/, 'Escape in the open message');
      // and Space opens it again, and closes it from its own button
      await p.keyboard.press('Space');
      await p.locator('#email-detail iframe.capture-frame').waitFor();
      await p.keyboard.press('Space');
      await p.locator('#email-detail').waitFor({ state: 'detached' });
      await assertFocus(p, /Open the message “Keyboard delivered”/, 'the message closed from its button');
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('Emails: a row that leaves the list at a refresh (cancelled while filtered by “scheduled”) hands its focus to the section’s heading (it fell to <body>)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const key = await signedIn(watched);
      const sent = await server.request('POST', '/api/public/emails', {
        key,
        body: {
          from: 'onboarding@sandbox.test',
          to: ['delivered@sandbox.test'],
          subject: 'Keyboard waiting',
          html: '<p>Later.</p>',
          scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
        },
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const row = p.locator('#email-list li', { hasText: 'Keyboard waiting' });
      await tabTo(p, '#emails-status');
      while ((await p.locator('#emails-status').inputValue()) !== 'scheduled')
        await p.keyboard.press('ArrowDown');
      await row.waitFor({ timeout: 30_000 });
      await tabTo(p, '#email-list button[aria-controls="email-detail"]');
      await p.keyboard.press('Enter');
      await p.locator('#email-detail iframe.capture-frame').waitFor();
      await assertFocus(p, /Open the message “Keyboard waiting”/, 'the message opened');
      const canceled = await server.request('POST', `/api/public/emails/${sent.body.data.id}/cancel`, {
        key,
      });
      assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
      await row.waitFor({ state: 'detached', timeout: 30_000 });
      await assertFocus(p, /^emails-title Emails$/, 'its row gone at a refresh');
      await p.keyboard.press('Tab');
      await assertFocus(p, /^emails-status/, 'Tab from the heading');
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('Sandbox: sends with Enter, opens the captured copy and comes back with Escape (Escape did nothing)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      await signedIn(watched);
      await tabTo(p, '#sandbox-to');
      while ((await p.locator('#sandbox-to').inputValue()) !== 'complained@sandbox.test')
        await p.keyboard.press('ArrowDown');
      await p.keyboard.press('Tab');
      await assertFocus(p, /^sandbox-subject/, 'Tab after To');
      await p.keyboard.press('Control+A');
      await p.keyboard.type('Sent by keyboard');
      await p.keyboard.press('Enter');
      await waitUntil('the notice', async () =>
        /^Sent eml_/.test(await p.locator('#sandbox-notice').innerText()) ? true : undefined,
      );
      await assertFocus(p, /^sandbox-subject/, 'sent');
      const row = p.locator('#capture-list .capture', { hasText: 'Sent by keyboard' });
      await row.waitFor({ timeout: 30_000 });
      await p.keyboard.press('Tab');
      await assertFocus(p, /Send/, 'Tab after the subject');
      await tabTo(p, '#capture-list button[aria-controls="capture-detail"]');
      await p.keyboard.press('Enter');
      await p.locator('#capture-detail iframe.capture-frame').waitFor();
      const opened = await assertFocus(p, /Close/, 'the capture opened');
      await tabTo(p, '#capture-detail summary', { max: 10 });
      await p.keyboard.press('Escape');
      await p.locator('#capture-detail').waitFor({ state: 'detached' });
      const back = await assertFocus(p, /Open/, 'Escape in the open capture');
      assert.equal(back.id, opened.id);
      assert.equal(await row.getByRole('button', { name: 'Open' }).getAttribute('aria-expanded'), 'false');
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('Sandbox: the oldest capture pushed off the list by a new one hands its focus to the section’s heading (it fell to <body>)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const { key } = await server.createKey({ name: 'dashboard' });
      for (let i = 0; i < 20; i++) await send(key, 'delivered@sandbox.test', `Batch ${i}`);
      await waitUntil('twenty captured', async () =>
        (await server.request('GET', '/api/public/sandbox/messages?limit=20', { key })).body.data.messages
          .length === 20
          ? true
          : undefined,
      );
      await signedIn(watched, key);
      const oldest = p.locator('#capture-list li', { hasText: 'Batch 0' });
      await oldest.waitFor();
      await tabTo(p, '#capture-list li:last-child button[aria-controls="capture-detail"]');
      await send(key, 'delivered@sandbox.test', 'Batch 20');
      await oldest.waitFor({ state: 'detached', timeout: 30_000 });
      await assertFocus(p, /^sandbox-title Sandbox$/, 'its row pushed off at a refresh');
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('Suppressions: Remove by keyboard leaves the focus in the section, on the notice that confirms it', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const key = await signedIn(watched);
      await send(key, 'bounced@sandbox.test', 'Suppress me');
      const row = p.locator('#suppression-list li', { hasText: 'bounced@sandbox.test' });
      await row.waitFor({ timeout: 30_000 });
      await tabTo(p, '#suppression-list button');
      await assertFocus(p, /Remove bounced@sandbox\.test from the suppression list/, 'its Remove button');
      await p.keyboard.press('Enter');
      await waitUntil('the removal said', async () =>
        /^bounced@sandbox\.test is off the list/.test(await p.locator('#suppressions-notice').innerText())
          ? true
          : undefined,
      );
      await row.waitFor({ state: 'detached' });
      await assertFocus(p, /^suppressions-notice bounced@sandbox\.test is off the list/, 'the row removed');
      // the next Tab goes on from the section, not from the top of the page
      await p.keyboard.press('Tab');
      const next = await assertFocus(p, undefined, 'Tab after the removal');
      assert.notEqual(next.id, 'skip-link');
      assert.deepEqual((await server.request('GET', '/api/public/suppressions', { key })).body.data, []);
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('Suppressions: a row removed elsewhere while its Remove button has the focus hands the focus to the section’s heading (it fell to <body>)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const key = await signedIn(watched);
      await send(key, 'bounced@sandbox.test', 'Suppressed elsewhere');
      const row = p.locator('#suppression-list li', { hasText: 'bounced@sandbox.test' });
      await row.waitFor({ timeout: 30_000 });
      await tabTo(p, '#suppression-list button');
      const removed = await server.request('DELETE', '/api/public/suppressions/bounced@sandbox.test', {
        key,
      });
      assert.ok(removed.status < 300, JSON.stringify(removed.body));
      await row.waitFor({ state: 'detached', timeout: 30_000 });
      await assertFocus(p, /^suppressions-title Suppressions$/, 'its row gone at a refresh');
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('API keys: creates a key with a chosen reach, copies it, and revokes it through the dialog, which holds the focus (Tab left its last button for <body>) and gives it back', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const key = await signedIn(watched);
      await tabTo(p, '#new-key-name');
      await p.keyboard.type('by keyboard');
      await p.keyboard.press('Tab');
      await assertFocus(p, /^new-key-scope/, 'Tab after the name');
      while ((await p.locator('#new-key-scope').inputValue()) !== 'sending')
        await p.keyboard.press('ArrowDown');
      await p.keyboard.press('Tab');
      await assertFocus(p, /Create key/, 'Tab after the reach');
      await p.keyboard.press('Enter');
      await p.locator('#new-key .secret-value').waitFor();
      const shown = await p.locator('#new-key .secret-value').innerText();
      await assertFocus(p, /Copy key/, 'the key made');
      await p.keyboard.press('Space');
      assert.equal(
        await waitUntil('copied', async () => ((await watched.clipboard()) === shown ? true : undefined)),
        true,
      );
      await p.keyboard.press('Tab');
      await assertFocus(p, /I have stored it/, 'Tab after Copy key');
      await p.keyboard.press('Enter');
      await p.locator('#new-key').waitFor({ state: 'hidden' });
      await assertFocus(p, /^keys-title/, 'the key put away');

      const row = p.locator('#key-list li', { hasText: 'by keyboard' });
      assert.match(await row.innerText(), /sending only/);
      await tabTo(p, '#key-list button:not([hidden])', { max: 10 });
      await assertFocus(p, /Revoke the key by keyboard/, 'its Revoke button');
      // the dialog: Cancel first; Tab and Shift+Tab stay inside it; Escape gives the focus back
      await p.keyboard.press('Enter');
      const dialog = p.getByRole('dialog', { name: 'Revoke by keyboard?' });
      await dialog.waitFor();
      await assertFocus(p, /^delete-cancel/, 'the dialog opened');
      const stops: string[] = [];
      for (const press of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
        await p.keyboard.press(press);
        stops.push((await assertFocus(p, undefined, `${press} in the dialog`)).id);
      }
      assert.deepEqual(stops, [
        'delete-confirm',
        'delete-cancel',
        'delete-confirm',
        'delete-cancel',
        'delete-confirm',
      ]);
      await p.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await assertFocus(p, /Revoke the key by keyboard/, 'the dialog cancelled');
      assert.match(await row.innerText(), /live/);
      // and now for real
      await p.keyboard.press('Space');
      await dialog.waitFor();
      await p.keyboard.press('Tab');
      await assertFocus(p, /^delete-confirm Revoke key/, 'Tab in the dialog');
      await p.keyboard.press('Enter');
      await waitUntil('revoked', async () => (/revoked/.test(await row.innerText()) ? true : undefined), {
        seen: () => p.locator('#keys-notice').innerText(),
      });
      await assertFocus(p, /^keys-title/, 'the key revoked (its button gone)');
      assert.equal((await server.request('GET', '/api/public/templates', { key: shown })).status, 401);
      assert.equal((await server.request('GET', '/api/public/keys', { key })).status, 200);
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('a confirmation reopened before the last one’s close event arrived is answered by its own buttons (that stale event cancelled it: a keyboard run under load revoked nothing)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      const { key } = await server.createKey({ name: 'dashboard' });
      await server.request('POST', '/api/public/keys', { key, body: { name: 'raced', scopes: ['sending'] } });
      await signedIn(watched, key);
      const row = p.locator('#key-list li', { hasText: 'raced' });
      await row.waitFor();
      // Escape then Space, faster than the dialog's close event: both in one task
      await row.getByRole('button', { name: 'Revoke the key raced' }).focus();
      await p.keyboard.press('Enter');
      await p.getByRole('dialog', { name: 'Revoke raced?' }).waitFor();
      await p.evaluate(`(() => {
        document.getElementById('delete-dialog').close('');
        document.querySelector('[aria-label="Revoke the key raced"]').click();
      })()`);
      await p.getByRole('dialog', { name: 'Revoke raced?' }).waitFor();
      await p.keyboard.press('Tab');
      await assertFocus(p, /^delete-confirm Revoke key/, 'Tab in the reopened dialog');
      await p.keyboard.press('Enter');
      await waitUntil('revoked', async () => (/revoked/.test(await row.innerText()) ? true : undefined), {
        seen: () => p.locator('#keys-notice').innerText(),
      });
      await assertFocus(p, /^keys-title/, 'the key revoked');
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('at 375 px, Tab reaches every control of the account sections, each drawn and scrolled into view', async () => {
    const watched = await openPage(browser, server.url, { viewport: { width: 375, height: 812 } });
    try {
      const p = watched.page;
      // what the sections list, there before the page reads them
      const { key } = await server.createKey({ name: 'dashboard' });
      const made = await server.request('POST', '/api/public/keys', {
        key,
        body: { name: 'phone', scopes: ['sending'] },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      await send(key, 'bounced@sandbox.test', 'On a phone');
      await waitUntil('the bounce suppressed', async () =>
        (await server.request('GET', '/api/public/suppressions', { key })).body.data.length === 1
          ? true
          : undefined,
      );
      await signedIn(watched, key);
      await p.locator('#suppression-list li').waitFor();
      await p.locator('#key-list li', { hasText: 'phone' }).waitFor();
      const stops: string[] = [];
      for (let i = 0; i < 300; i++) {
        await p.keyboard.press('Tab');
        const f = await focus(p);
        if (f.tag === 'body') break;
        assert.equal(f.drawn, true, `${f.tag}#${f.id} “${f.name}” has the focus with no outline drawn`);
        const box = (await p.evaluate(`(() => {
          const r = document.activeElement.getBoundingClientRect();
          return [r.left, r.top, r.right, r.bottom];
        })()`)) as number[];
        const [left, top, right, bottom] = box as [number, number, number, number];
        assert.ok(
          left >= 0 && top >= 0 && right <= 375 && bottom <= 812,
          `${f.tag}#${f.id} “${f.name}” has the focus out of view at ${box.join(', ')}`,
        );
        stops.push(f.id || f.name);
      }
      for (const expected of [
        'sandbox-to',
        'sandbox-subject',
        'Send',
        'Open',
        'emails-status',
        'emails-recipient',
        'Filter',
        'Open the message “On a phone”',
        'Remove bounced@sandbox.test from the suppression list',
        'Revoke the key phone',
        'new-key-name',
        'new-key-scope',
        'Create key',
      ])
        assert.ok(
          stops.includes(expected),
          `${expected} not reached by Tab; the stops: ${stops.join(' → ')}`,
        );
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });

  it('Rotate now: a .test domain published in the local DNS, verified, and its key rotated, the focus kept on the buttons (Publish hid itself once verified and dropped the focus to <body>)', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const p = watched.page;
      await signedIn(watched);
      const domain = 'keyboard.test';
      await tabTo(p, '#register-names');
      await p.keyboard.type(domain);
      await p.keyboard.press('Enter');
      const card = p.locator(`article[data-domain="${domain}"]`);
      await card.waitFor();
      await assertFocus(p, undefined, 'registered');
      await tabTo(p, `[aria-label="Publish the records of ${domain} in the local DNS"]`);
      await p.keyboard.press('Enter');
      await card.locator('.domain-head .badge.verified').waitFor({ timeout: 30_000 });
      await assertFocus(p, /Remove the records of keyboard\.test from the local DNS/, 'published');
      const rotate = `[aria-label="Rotate the DKIM key of ${domain} now"]`;
      await p.locator(rotate).waitFor();
      await tabTo(p, rotate, { max: 40 });
      await p.keyboard.press('Enter');
      await waitUntil('the rotation said', async () =>
        new RegExp(`^${domain.replace('.', '\\.')}: (signing moves|rotation asked)`).test(
          await p.locator('#notice').innerText(),
        )
          ? true
          : undefined,
      );
      await assertFocus(p, /Rotate the DKIM key of keyboard\.test now/, 'rotated');
      assert.deepEqual(watched.problems, []);
    } finally {
      await watched.context.close();
    }
  });
});
