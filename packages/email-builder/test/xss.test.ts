// An XSS corpus through every way content gets in: setContent(HTML), setContent(JSON) with
// hostile attributes, and paste. Nothing executable may reach getHTML(), and rendering the
// output in a real page must run nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { renderEmail } from '../src/render/email.js';
import { launchChromium } from '../test-support/browser.js';
import { editorPage, startTestServer } from '../test-support/server.js';

const JS = [
  'javascript:window.__xss=1',
  'JaVaScRiPt:window.__xss=1',
  'java\tscript:window.__xss=1',
  ' javascript:window.__xss=1',
  'data:text/html,<script>window.__xss=1</script>',
  'vbscript:x',
];
const HTML_PAYLOADS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<svg onload="window.__xss=1"></svg>',
  '<p onclick="window.__xss=1" style="background:url(javascript:window.__xss=1)">x</p>',
  '<iframe src="javascript:window.__xss=1"></iframe>',
  '<a href="javascript:window.__xss=1">a</a>',
  '<a href="&#106;avascript:window.__xss=1">b</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1">',
  '<div data-block="button" data-attrs=\'{"href":"javascript:window.__xss=1","text":"<script>window.__xss=1</script>"}\'></div>',
  '<div data-block="image" data-attrs=\'{"src":"javascript:window.__xss=1","alt":"\\" onerror=\\"window.__xss=1"}\'></div>',
  '<object data="javascript:window.__xss=1"></object><embed src="javascript:window.__xss=1">',
  '<form action="javascript:window.__xss=1"><button>x</button></form>',
  '"><script>window.__xss=1</script>',
];

/** What must never be in the email. */
function assertInert(html: string, context: string): void {
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, (c) =>
    /\[if (!)?mso\]/.test(c) ? c.replace(/<[^>]*>/g, (t) => t) : '',
  );
  assert.ok(
    !/<(script|iframe|object|embed|form|svg|math)\b/i.test(withoutComments),
    `${context}: dangerous element`,
  );
  // attribute names only: quoted values (escaped text, data-attrs JSON) are blanked first
  const tags = (withoutComments.match(/<[^>]*>/g) ?? []).map((t) => t.replace(/="[^"]*"/g, '=""'));
  assert.ok(!tags.some((t) => /\son[a-z]+\s*=/i.test(t)), `${context}: event handler attribute`);
  assert.ok(
    !/(href|src)="\s*(javascript|vbscript|data:text|data:image\/svg)/i.test(withoutComments),
    `${context}: bad URL scheme`,
  );
}

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let page: Page;

before(async () => {
  server = await startTestServer({
    token: 'x',
    pages: {
      '/': editorPage('window.editor = new ServiceEmailBuilder.ServiceEditor({ elementId: "editor" });'),
    },
  });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${server.origin}/`);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function renderedRunsNothing(html: string): Promise<void> {
  const frame = await browser.newPage();
  server.setPage('/out', html);
  await frame.goto(`${server.origin}/out`);
  await frame.evaluate(() => {
    for (const a of document.querySelectorAll('a')) a.click();
  });
  await frame.waitForTimeout(50);
  assert.equal(await frame.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
  await frame.close();
}

describe('XSS corpus', () => {
  it('setContent(html) keeps nothing executable', async () => {
    for (const payload of HTML_PAYLOADS) {
      const html = await page.evaluate((p) => {
        const w = window as unknown as { editor: { setContent(c: string): void; getHTML(): string } };
        w.editor.setContent(`<p>before</p>${p}<p>after</p>`);
        return w.editor.getHTML();
      }, payload);
      assertInert(html, payload);
      assert.equal(
        await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
        undefined,
        payload,
      );
    }
  });

  it('paste keeps nothing executable', async () => {
    const html = await page.evaluate((payloads) => {
      const w = window as unknown as {
        editor: { setContent(c: string): void; getHTML(): string; focus(): void };
      };
      w.editor.setContent('<p>x</p>');
      w.editor.focus();
      const data = new DataTransfer();
      data.setData('text/html', payloads.join(''));
      data.setData('text/plain', 'x');
      document
        .querySelector('.sv-content')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return w.editor.getHTML();
    }, HTML_PAYLOADS);
    assertInert(html, 'paste');
    await renderedRunsNothing(html);
  });

  it('setContent(json) and the renderer drop hostile attributes and URLs', async () => {
    const quote = '"><script>window.__xss=1</script><img src=x onerror=window.__xss=1>';
    for (const url of JS) {
      const doc = {
        type: 'doc',
        attrs: {
          lang: `en" onload="window.__xss=1`,
          backdrop: 'red;background:url(javascript:x)',
          preheader: quote,
        },
        content: [
          {
            type: 'paragraph',
            content: [
              {
                type: 'text',
                text: quote,
                marks: [
                  { type: 'link', attrs: { href: url } },
                  { type: 'textColor', attrs: { color: `#000;background:url(${url})` } },
                ],
              },
            ],
          },
          { type: 'button', attrs: { text: quote, href: url, backgroundColor: `#fff" onclick="x` } },
          { type: 'image', attrs: { src: url, alt: quote, href: url, darkSrc: url } },
          { type: 'logo', attrs: { src: 'https://ok.test/l.png', alt: quote, href: url } },
          {
            type: 'socialLinks',
            attrs: {
              links: [
                { network: 'github', url },
                { network: '<script>', url: 'https://ok.test' },
              ],
            },
          },
          { type: 'footer', attrs: { email: `a@b.test" onclick="x`, unsubscribeUrl: url, company: quote } },
          { type: 'signature', attrs: { avatar: url, name: quote } },
          {
            type: 'columns',
            content: [
              {
                type: 'column',
                attrs: { backgroundColor: `#fff;x:url(${url})`, padding: '1;x' },
                content: [{ type: 'paragraph', content: [{ type: 'badge', attrs: { text: quote } }] }],
              },
            ],
          },
        ],
      };
      assertInert(renderEmail(doc), `renderer ${url}`);
      const html = await page.evaluate((d) => {
        const w = window as unknown as { editor: { setContent(c: object): void; getHTML(): string } };
        w.editor.setContent(d);
        return w.editor.getHTML();
      }, doc);
      assertInert(html, `setContent(json) ${url}`);
      assert.ok(html.includes('&lt;script&gt;'), 'hostile text is shown as text');
      await renderedRunsNothing(html);
    }
  });
});
