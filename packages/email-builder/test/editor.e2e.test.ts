// End to end in real Chromium: the editor as a person uses it, checking getHTML() after each step.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test-support/browser.js';
import { editorPage, PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const TOKEN = 'public_test_token';
const SHOTS = path.join(PACKAGE_DIR, 'test-results');
const PNG = readFileSync(path.join(PACKAGE_DIR, 'test-support/pixel.png'));

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let page: Page;

type Win = {
  editor: import('../src/editor.js').ServiceEditor;
  events: string[];
  ServiceEmailBuilder: typeof import('../src/index.js');
};
const html = () => page.evaluate(() => (window as unknown as Win).editor.getHTML());
const json = () => page.evaluate(() => (window as unknown as Win).editor.getJSON());
const setContent = (c: unknown) =>
  page.evaluate((c) => (window as unknown as Win).editor.setContent(c as object), c);
const types = async () => ((await json()).content ?? []).map((n) => n.type);

async function emptyDoc(): Promise<void> {
  await setContent({ type: 'doc', content: [{ type: 'paragraph' }] });
  await page.click('.sv-content p');
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ token: TOKEN });
  server.setPage(
    '/',
    editorPage(`
      window.events = [];
      window.editor = new ServiceEmailBuilder.ServiceEditor({
        elementId: 'editor', settingsControl: true, colorScheme: 'light',
        imageServiceUrl: { url: '/api/v1/files/upload', token: '${TOKEN}' },
        branding: { brandColor: '#4f46e5' },
      });
      for (const e of ['change', 'focus', 'blur', 'upload', 'theme']) editor.on(e, (p) => events.push(e + (p && p.phase ? ':' + p.phase : '')));
    `),
  );
  server.setPage('/bare', editorPage(''));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await page.goto(`${server.origin}/`);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('ServiceEditor in Chromium', () => {
  it('checks its options with coded errors', async () => {
    const bare = await browser.newPage();
    await bare.goto(`${server.origin}/bare`);
    // a string, not a function: tsx would wrap named inner functions in a helper the page lacks
    const codes = await bare.evaluate(`(() => {
      const { ServiceEditor } = window.ServiceEmailBuilder;
      const code = (o) => {
        try {
          new ServiceEditor(o);
          return 'no error';
        } catch (e) {
          return e.code;
        }
      };
      const el = document.getElementById('editor');
      const missing = code({ elementId: 'nope' });
      const badColor = code({ elementId: 'editor', theme: { light: { emailBackground: 'red' } } });
      const badRadius = code({ elementId: 'editor', theme: { borderRadius: 'round' } });
      el.textContent = 'occupied';
      const notEmpty = code({ elementId: 'editor' });
      return { missing, badColor, badRadius, notEmpty };
    })()`);
    assert.deepEqual(codes, {
      missing: 'SEB_ERR_ELEMENT_NOT_FOUND',
      badColor: 'SEB_ERR_BAD_COLOR',
      badRadius: 'SEB_ERR_OPTIONS',
      notEmpty: 'SEB_ERR_ELEMENT_NOT_EMPTY',
    });
    await bare.close();
  });

  it('types text and reports change and focus', async () => {
    await page.click('.sv-content');
    await page.keyboard.type('Hello <world> & friends');
    assert.match(await html(), /<p class="sv-t"[^>]*>Hello &lt;world&gt; &amp; friends<\/p>/);
    const events = await page.evaluate(() => (window as unknown as Win).events);
    assert.ok(events.includes('focus') && events.includes('change'));
  });

  it('opens an accessible slash menu that filters by title and keyword', async () => {
    await page.keyboard.press('Enter');
    await page.keyboard.type('/');
    await page.waitForSelector('.sv-slash:not([hidden])');
    await page.screenshot({ path: path.join(SHOTS, 'editor-slash-menu.png') });
    const active = await page.getAttribute('.sv-content', 'aria-activedescendant');
    assert.ok(active && (await page.$(`#${active}[role="option"][aria-selected="true"]`)));
    await page.keyboard.type('cta');
    assert.deepEqual(await page.$$eval('.sv-slash-item strong', (els) => els.map((e) => e.textContent)), [
      'Button',
    ]);
    await page.keyboard.type('zzz');
    assert.equal(await page.textContent('.sv-slash [role="status"]'), 'No blocks match “ctazzz”');
    assert.equal(await page.$$eval('.sv-slash-item', (els) => els.length), 0);
    await page.keyboard.press('Escape');
    assert.equal(await page.isHidden('.sv-slash'), true);
  });

  const commands: [string, string, string][] = [
    ['Text', 'text', 'paragraph'],
    ['Heading 1', 'h1', 'heading'],
    ['Heading 2', 'h2', 'heading'],
    ['Heading 3', 'h3', 'heading'],
    ['Bulleted list', 'bullet', 'bulletList'],
    ['Numbered list', 'numbered', 'orderedList'],
    ['Quote', 'quote', 'blockquote'],
    ['Button', 'button', 'button'],
    ['Image', 'image', 'image'],
    ['Logo', 'logo', 'logo'],
    ['Divider', 'divider', 'divider'],
    ['Spacer', 'spacer', 'spacer'],
    ['Section', 'section', 'columns'],
    ['Columns 2 equal', '2 equal', 'columns'],
    ['Columns 1 : 2', '1:2', 'columns'],
    ['Columns 2 : 1', '2:1', 'columns'],
    ['Columns 3 equal', '3 equal', 'columns'],
    ['Social links', 'social', 'socialLinks'],
    ['Footer', 'footer', 'footer'],
    ['Signature', 'signature', 'signature'],
    ['Badge', 'badge', 'paragraph'],
  ];
  for (const [title, query, type] of commands) {
    it(`inserts "${title}" from the slash menu`, async () => {
      await emptyDoc();
      await page.keyboard.type(`/${query.split(' ')[0]}`);
      await page.waitForSelector('.sv-slash:not([hidden])');
      const titles = await page.$$eval('.sv-slash-item strong', (els) => els.map((e) => e.textContent));
      const index = titles.indexOf(title);
      assert.ok(index >= 0, `${title} not in ${titles.join(', ')}`);
      for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const doc = await json();
      assert.equal(doc.content?.[0]?.type, type);
      assert.ok(!JSON.stringify(doc).includes('"/'), 'the typed command is gone');
      const out = await html();
      if (title === 'Badge') assert.match(out, /data-block="badge"/);
      if (title.startsWith('Heading')) assert.match(out, new RegExp(`<h${title.slice(-1)} `));
      if (type === 'button') assert.match(out, /v:roundrect/);
      if (title === 'Columns 3 equal') assert.equal(doc.content?.[0]?.content?.length, 3);
    });
  }

  it('edits a block’s settings and shows them in getHTML()', async () => {
    await emptyDoc();
    await page.keyboard.type('/button');
    await page.keyboard.press('Enter');
    await page.click('.sv-content .sv-button');
    await page.waitForSelector('.sv-inspector:not([hidden])');
    await page.fill('.sv-inspector [data-field="text"] input', 'Shop now');
    await page.fill('.sv-inspector [data-field="href"] input', 'shop.example.com');
    await page.press('.sv-inspector [data-field="href"] input', 'Enter');
    await page.fill('.sv-inspector [data-field="backgroundColor"] input[type="text"]', '#e11d48');
    await page.press('.sv-inspector [data-field="backgroundColor"] input[type="text"]', 'Tab');
    await page.click('.sv-inspector [data-field="align"] button:has-text("Right")');
    const out = await html();
    assert.match(
      out,
      /<td align="right"[^>]*><!--\[if mso\]><v:roundrect[^>]*href="https:\/\/shop.example.com"[^>]*fillcolor="#e11d48"/,
    );
    assert.match(out, />Shop now<\/a>/);
    await page.fill('.sv-inspector [data-field="href"] input', 'javascript:alert(1)');
    await page.press('.sv-inspector [data-field="href"] input', 'Enter');
    assert.equal(await page.isVisible('.sv-inspector [data-field="href"] .sv-error'), true);
    assert.ok(!(await html()).includes('javascript:'));
  });

  it('closes a block’s settings, also when no text follows the block', async () => {
    const inspector = page.locator('.sv-inspector');
    const closeAndReachUpload = async () => {
      await page.getByRole('button', { name: 'Close settings' }).click();
      await inspector.waitFor({ state: 'hidden' });
      // nothing covers the block any more: its own Upload button takes the click
      await page.locator('.sv-content .sv-image-empty button', { hasText: 'Upload' }).click({ trial: true });
    };

    await setContent({ type: 'doc', content: [{ type: 'image' }] });
    // an empty image's box is its upload form: its settings open from the block's handle
    const box = (await page.locator('.sv-content .sv-image-empty').boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.click('.sv-grip');
    await page.click('.sv-menu [role="menuitem"]:has-text("Settings")');
    await inspector.waitFor();
    assert.deepEqual(await types(), ['image'], 'precondition: the image is the only block');
    await closeAndReachUpload();
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))),
    );
    await page.waitForTimeout(200);
    assert.equal(await inspector.isHidden(), true, 'still closed after a moment');
  });

  it('keeps an empty image’s URL field usable on a phone', async () => {
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      await setContent({ type: 'doc', content: [{ type: 'logo' }] });
      const field = await page.locator('.sv-content .sv-image-empty input').boundingBox();
      assert.ok(field && field.width >= 150, `the URL field is ${field?.width} px wide at 375 px`);
    } finally {
      await page.setViewportSize(size);
    }
  });

  it('formats selected text from the bubble menu, and undoes it', async () => {
    await emptyDoc();
    await page.keyboard.type('Make this bold');
    await page.keyboard.press('Shift+Home');
    await page.waitForSelector('.sv-bubble:not([hidden])');
    await page.click('.sv-bubble [aria-label="Bold"]');
    assert.match(await html(), /<strong>Make this bold<\/strong>/);
    assert.equal(await page.getAttribute('.sv-bubble [aria-label="Bold"]', 'aria-pressed'), 'true');
    await page.click('.sv-bubble [aria-label="Text colour"]');
    await page.click('.sv-bubble [aria-label="#dc2626"]');
    // the red keeps its light colour inline; the class lightens it where the client is in dark mode
    assert.match(
      await html(),
      /<span class="sv-tc0" style="color:#dc2626"><strong>Make this bold<\/strong><\/span>/,
    );
    assert.match(await html(), /\.sv-tc0\{color:#e66464!important\}/);
    await page.keyboard.press('Control+k');
    await page.fill('.sv-bubble input[type="url"]', 'example.com');
    await page.keyboard.press('Enter');
    assert.match(
      await html(),
      /<a href="https:\/\/example.com" target="_blank"[^>]*><span class="sv-tc\d" style="color:#dc2626"><strong>Make this bold/,
    );
    await page.keyboard.press('Control+z');
    assert.ok(!(await html()).includes('href="https://example.com"'));
    await page.keyboard.press('Control+Shift+z');
    assert.ok((await html()).includes('href="https://example.com"'));
  });

  it('keeps Shift+Enter line breaks and nested lists', async () => {
    await emptyDoc();
    await page.keyboard.type('line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- first');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('nested');
    const out = await html();
    assert.match(out, />line one<br>line two</);
    assert.match(
      out,
      /<ul[^>]*><li[^>]*><p[^>]*>first<\/p><ul[^>]*><li[^>]*><p[^>]*>nested<\/p><\/li><\/ul><\/li><\/ul>/,
    );
  });

  it('drags a block by its handle, and duplicates and deletes from its menu', async () => {
    await setContent({
      type: 'doc',
      content: ['A', 'B', 'C'].map((x) => ({ type: 'paragraph', content: [{ type: 'text', text: x }] })),
    });
    const paras = await page.$$('.sv-content > p');
    const c = (await paras[2]!.boundingBox())!;
    await page.mouse.move(c.x + 20, c.y + c.height / 2);
    await page.waitForSelector('.sv-handle:not([hidden])');
    const grip = (await (await page.$('.sv-grip'))!.boundingBox())!;
    const a = (await paras[0]!.boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + 30, a.y + a.height * 0.3, { steps: 8 });
    await page.mouse.move(a.x + 20, a.y + a.height * 0.25, { steps: 4 });
    await page.mouse.up();
    const texts = async () => ((await json()).content ?? []).map((n) => n.content?.[0]?.text);
    const moved = await texts();
    // C left the end and A, B kept their order: the block moved, not copied.
    assert.equal(moved.length, 3);
    assert.notEqual(moved[2], 'C');
    assert.deepEqual(
      moved.filter((x) => x !== 'C'),
      ['A', 'B'],
    );
    assert.match(await html(), new RegExp(moved.map((x) => `>${x}</p>`).join('<p[^>]*')));
    await page.keyboard.press('Control+z');
    assert.deepEqual(await texts(), ['A', 'B', 'C']);
    const b = (await (await page.$$('.sv-content > p'))[1]!.boundingBox())!;
    await page.mouse.move(b.x + 20, b.y + b.height / 2);
    await page.waitForTimeout(50);
    await page.click('.sv-grip');
    await page.click('.sv-menu [role="menuitem"]:has-text("Duplicate")');
    assert.deepEqual(await texts(), ['A', 'B', 'B', 'C']);
    await page.mouse.move(b.x + 20, b.y + b.height / 2);
    await page.waitForTimeout(50);
    await page.click('.sv-grip');
    await page.click('.sv-menu [role="menuitem"]:has-text("Delete")');
    assert.deepEqual(await texts(), ['A', 'B', 'C']);
  });

  it('uploads an image through the ImageKit protocol with progress, then shows it in getHTML()', async () => {
    await emptyDoc();
    await page.keyboard.type('/image');
    await page.keyboard.press('Enter');
    const chooser = page.waitForEvent('filechooser');
    await page.click('.sv-image-empty button:has-text("Upload")');
    await (await chooser).setFiles({ name: 'hero shot.png', mimeType: 'image/png', buffer: PNG });
    await page.waitForSelector('.sv-image img');
    const upload = server.uploads.at(-1)!;
    assert.equal(upload.authorization, `Basic ${Buffer.from(`${TOKEN}:`).toString('base64')}`);
    assert.equal(upload.fields.fileName, 'hero shot.png');
    assert.equal(upload.fields.folder, '/email-builder');
    assert.equal(upload.fileType, 'image/png');
    assert.equal(upload.fileSize, PNG.length);
    assert.match(
      await html(),
      new RegExp(`<img src="${server.origin}/images/[\\w-]+-hero_shot.png" alt="" width="536"`),
    );
    const events = await page.evaluate(() => (window as unknown as Win).events);
    assert.ok(
      ['upload:start', 'upload:progress', 'upload:done'].every((e) => events.includes(e)),
      events.join(),
    );
  });

  it('shows a clear inline error when an upload fails, and loses nothing', async () => {
    await setContent({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Keep me' }] }, { type: 'image' }],
    });
    const before = await json();
    const chooser = page.waitForEvent('filechooser');
    await page.click('.sv-image-empty button:has-text("Upload")');
    await (await chooser).setFiles({ name: 'fail.png', mimeType: 'image/png', buffer: PNG });
    await page.waitForSelector('.sv-image-empty .sv-error');
    assert.equal(
      await page.textContent('.sv-image-empty .sv-error'),
      'The image service answered 500: Storage is full',
    );
    assert.deepEqual(await json(), before);
    const chooser2 = page.waitForEvent('filechooser');
    await page.click('.sv-image-empty button:has-text("Upload")');
    await (await chooser2).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await page.waitForSelector('.sv-image-empty .sv-error');
    assert.match(
      (await page.textContent('.sv-image-empty .sv-error'))!,
      /"notes.txt" is not an image this editor accepts/,
    );
  });

  it('uploads pasted images behind a placeholder', async () => {
    await emptyDoc();
    await page.keyboard.type('Before');
    await page.evaluate(
      (bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], 'pasted.png', { type: 'image/png' }));
        document
          .querySelector('.sv-content')!
          .dispatchEvent(
            new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
          );
      },
      [...PNG],
    );
    await page.waitForFunction(() =>
      (window as unknown as Win).editor.getJSON().content?.some((n) => n.type === 'image'),
    );
    assert.deepEqual(await types(), ['paragraph', 'image']);
    assert.match(await html(), /alt="pasted"/);
    assert.equal(server.uploads.at(-1)!.fields.fileName, 'pasted.png');
  });

  it('shows a pasted image it cannot upload as an error in its placeholder, which Dismiss removes', async () => {
    await emptyDoc();
    await page.keyboard.type('Before');
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(
        new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'drawing.svg', { type: 'image/svg+xml' }),
      );
      document
        .querySelector('.sv-content')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const alert = await page.waitForSelector('.sv-content .sv-upload-error[role="alert"]');
    assert.match((await alert.textContent())!, /"drawing.svg" is not an image this editor accepts/);
    await page.click('.sv-upload-error button[aria-label="Dismiss"]');
    await page.waitForSelector('.sv-content .sv-upload', { state: 'detached' });
    assert.deepEqual(await types(), ['paragraph']);
    assert.equal(await page.textContent('.sv-content'), 'Before');
  });

  it('normalises pasted HTML to the schema', async () => {
    await emptyDoc();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData(
        'text/html',
        '<h4 onclick="x()">Title</h4><p>Go <a href="javascript:alert(1)">bad</a> <a href="https://ok.test">good</a><script>window.pwned=1</script></p><ul><li>one<ul><li>two</li></ul></li></ul><img src="https://x.test/a.png" alt="A" onerror="window.pwned=1">',
      );
      data.setData('text/plain', 'Title');
      document
        .querySelector('.sv-content')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const out = await html();
    assert.deepEqual((await types()).slice(0, 4), ['heading', 'paragraph', 'bulletList', 'image']);
    assert.ok(!/javascript:|onclick|onerror|<script/i.test(out));
    assert.match(out, /<a href="https:\/\/ok.test"/);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  });

  it('edits a right-to-left document right to left: list indents and the quote bar on the right', async () => {
    const { sidedDocument } = await import('../test-support/doc.js');
    await setContent(sidedDocument('rtl'));
    const got = await page.evaluate(() => {
      const content = document.querySelector('.sv-content')!;
      const [ul, quote] = [
        getComputedStyle(content.querySelector('ul')!),
        getComputedStyle(content.querySelector('blockquote')!),
      ];
      return {
        dir: content.getAttribute('dir'),
        lang: content.getAttribute('lang'),
        align: getComputedStyle(content.querySelector('p')!).textAlign,
        list: [ul.paddingLeft, ul.paddingRight],
        quote: [quote.borderLeftWidth, quote.borderRightWidth, quote.paddingLeft, quote.paddingRight],
      };
    });
    assert.deepEqual(got, {
      dir: 'rtl',
      lang: 'ar',
      align: 'start',
      list: ['0px', '24px'],
      quote: ['0px', '4px', '0px', '16px'],
    });
    await page.screenshot({ path: path.join(SHOTS, 'editor-rtl.png'), fullPage: true });
    // a left-to-right document turns it back
    await setContent({
      type: 'doc',
      content: [{ type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }] }],
    });
    assert.equal(await page.getAttribute('.sv-content', 'dir'), 'ltr');
    assert.equal(await page.$eval('.sv-content ul', (el) => getComputedStyle(el).paddingLeft), '24px');
  });

  /** Pastes `html` through the editor's paste path, as a browser does for Ctrl+V. */
  const paste = (html: string) =>
    page.evaluate((html) => {
      const data = new DataTransfer();
      data.setData('text/html', html);
      data.setData('text/plain', 'ignored');
      document
        .querySelector('.sv-content')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, html);
  /** Each text run of the document as `[text, 'mark mark(attr)']`. */
  const runs = async () => {
    const out: [string, string][] = [];
    const walk = (n: import('../src/model/types.js').JSONNode) => {
      if (n.type === 'text') {
        const marks = (n.marks ?? []).map((m) => {
          const attr = m.attrs?.color ?? m.attrs?.size;
          return attr === undefined ? m.type : `${m.type}(${attr})`;
        });
        out.push([n.text ?? '', marks.join(' ')]);
      }
      for (const c of n.content ?? []) walk(c);
    };
    walk(await json());
    return out;
  };
  // Google Docs' clipboard, trimmed: a wrapper <b> that is not bold, and every run a span with
  // all of its styles, black text colour included.
  const DOCS_RUN =
    'font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-variant:normal;vertical-align:baseline;white-space:pre-wrap;';
  const docsSpan = (style: string, text: string) => `<span style="${DOCS_RUN}${style}">${text}</span>`;

  it('composes every style of a pasted span: bold and italic are kept beside a colour', async () => {
    await emptyDoc();
    await paste(
      '<p><span style="color:#000000;font-weight:700">x</span> <span style="color:#2563eb;font-style:italic">blue italic</span> ' +
        '<span style="color:#dc2626;background-color:#fef08a;font-size:20px;font-weight:bold;font-style:italic;text-decoration:underline line-through">all</span> ' +
        '<span style="background-color:#ffffff;font-weight:600">on white</span></p>',
    );
    assert.deepEqual(await runs(), [
      ['x', 'bold'],
      [' ', ''],
      ['blue italic', 'textColor(#2563eb) italic'],
      [' ', ''],
      ['all', 'textColor(#dc2626) highlight(#fef08a) fontSize(20) bold italic underline strike'],
      [' ', ''],
      ['on white', 'bold'],
    ]);
  });

  it('pastes from Google Docs: its wrapper <b> does not make everything bold', async () => {
    await emptyDoc();
    await paste(
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-5a1b2c3d-7fff-1234-abcd-0123456789ab">' +
        '<p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;">' +
        docsSpan('font-weight:400;font-style:normal;text-decoration:none;', 'Plain, ') +
        docsSpan('font-weight:700;font-style:normal;text-decoration:none;', 'bold, ') +
        docsSpan('font-weight:400;font-style:italic;text-decoration:none;', 'italic, ') +
        docsSpan('color:#ff0000;font-weight:700;font-style:italic;text-decoration:underline;', 'red') +
        '</p></b>',
    );
    assert.deepEqual(await runs(), [
      ['Plain, ', ''],
      ['bold, ', 'bold'],
      ['italic, ', 'italic'],
      ['red', 'textColor(#ff0000) bold italic underline'],
    ]);
    assert.match(await html(), /Plain, <strong>bold, <\/strong><em>italic, <\/em>/);
  });

  it('pastes from Word: bold and italic tags around coloured spans, and normal weight inside bold', async () => {
    await emptyDoc();
    await paste(
      "<p class=MsoNormal><b><span lang=EN-GB style='font-size:12.0pt;color:#1F3864'>Word bold</span></b> " +
        "<i><span style='color:#C00000'>word italic</span></i> <b>bold <span style='font-weight:normal'>not bold</span></b></p>",
    );
    assert.deepEqual(await runs(), [
      ['Word bold', 'textColor(#1f3864) bold'],
      [' ', ''],
      ['word italic', 'textColor(#c00000) italic'],
      [' ', ''],
      ['bold ', 'bold'],
      ['not bold', ''],
    ]);
  });

  /** Each top-level block as `type: text`, bold runs in *stars*. */
  const blocks = async () =>
    ((await json()).content ?? []).map(
      (n) =>
        `${n.type}: ${(n.content ?? []).map((c) => (c.marks?.some((m) => m.type === 'bold') ? `*${c.text}*` : (c.text ?? ''))).join('')}`,
    );

  it('pastes a table row as one paragraph, its cells separated (they ran together)', async () => {
    await emptyDoc();
    await paste('<table><tr><td>cell A</td><td>cell B</td></tr></table>');
    assert.deepEqual(await blocks(), ['paragraph: cell A · cell B']);
    assert.match(await html(), />cell A · cell B<\/p>/);

    // a spreadsheet: a header row, empty cells left out, an empty row dropped
    await emptyDoc();
    await paste(
      '<p>Order</p><google-sheets-html-origin><table><tbody><tr><th>Item</th><th>Qty</th></tr>' +
        '<tr><td>Coffee</td><td></td><td>2</td></tr><tr><td> </td><td></td></tr>' +
        '<tr><td><b>Total</b></td><td>2</td></tr></tbody></table></google-sheets-html-origin><p>Thanks</p>',
    );
    assert.deepEqual(await blocks(), [
      'paragraph: Order',
      'paragraph: *Item* · *Qty*',
      'paragraph: Coffee · 2',
      'paragraph: *Total* · 2',
      'paragraph: Thanks',
    ]);

    // cells copied without their table (prosemirror-view parses them inside a row)
    await emptyDoc();
    await paste('<td>left</td><td>right</td>');
    assert.deepEqual(await blocks(), ['paragraph: left · right']);
  });

  it('keeps the paragraphs of table cells that hold blocks (Google Docs, Word), text cells apart', async () => {
    await emptyDoc();
    await paste(
      '<table><tr><td><p>Docs A</p></td><td><p>Docs B</p><p>B two</p></td><td>bare</td><td>text</td></tr></table>',
    );
    // text-only cells beside them become paragraphs of their own
    assert.deepEqual(await blocks(), [
      'paragraph: Docs A',
      'paragraph: Docs B',
      'paragraph: B two',
      'paragraph: bare',
      'paragraph: text',
    ]);
  });

  it('flattens tables in HTML given to setContent the same way, and leaves its own email alone', async () => {
    await setContent('<p>Hi</p><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>');
    assert.deepEqual(await blocks(), ['paragraph: Hi', 'paragraph: a · b', 'paragraph: c · d']);
    const { SAMPLES, doc } = await import('../test-support/doc.js');
    await setContent(doc(SAMPLES.columns3!, SAMPLES.footer!));
    const first = await json();
    await setContent(await html());
    assert.deepEqual(await json(), first);
  });

  it('round-trips setContent(getHTML()) and setContent(getJSON())', async () => {
    const { fullDocument } = await import('../test-support/doc.js');
    await setContent(fullDocument({ preheader: 'Hi', backdrop: '#101010' }));
    const first = await json();
    const out = await html();
    await setContent(out);
    assert.deepEqual(await json(), first);
    await setContent(first);
    assert.deepEqual(await json(), first);
    assert.equal(await html(), out);
  });

  it('switches theme: forced and following prefers-color-scheme', async () => {
    await page.evaluate(() => (window as unknown as Win).editor.setColorScheme('dark'));
    assert.equal(await page.getAttribute('.sv-root', 'data-theme'), 'dark');
    await page.screenshot({ path: path.join(SHOTS, 'editor-dark.png') });
    await page.evaluate(() => (window as unknown as Win).editor.setColorScheme('auto'));
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(await page.getAttribute('.sv-root', 'data-theme'), 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(
      () => document.querySelector('.sv-root')!.getAttribute('data-theme') === 'dark',
    );
    await page.emulateMedia({ colorScheme: 'light' });
    await page.click('.sv-theme-btn');
    await page.getByRole('menuitemradio', { name: 'Light' }).click();
    assert.equal(await page.getAttribute('.sv-root', 'data-scheme'), 'light');
    await page.screenshot({ path: path.join(SHOTS, 'editor-light.png') });
  });

  it('changes email settings in the panel and shows them in getHTML()', async () => {
    await page.click('.sv-settings-btn');
    await page.waitForSelector('.sv-settings:not([hidden])');
    await page.fill('.sv-settings [data-field="canvas"] input[type="text"]', '#fffbeb');
    await page.press('.sv-settings [data-field="canvas"] input[type="text"]', 'Tab');
    await page.fill('.sv-settings [data-field="radius"] input', '20');
    await page.press('.sv-settings [data-field="radius"] input', 'Tab');
    await page.fill('.sv-settings [data-field="width"] input', '640');
    await page.press('.sv-settings [data-field="width"] input', 'Tab');
    await page.fill('.sv-settings [data-field="preheader"] input', 'Peek inside');
    await page.screenshot({ path: path.join(SHOTS, 'editor-settings.png') });
    const out = await html();
    assert.match(
      out,
      /max-width:640px;margin:0 auto;background-color:#fffbeb;border:1px solid #[0-9a-f]{6};border-radius:20px/,
    );
    assert.match(out, /data-sv-preheader="">Peek inside/);
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.querySelector('.sv-canvas')!).backgroundColor),
      'rgb(255, 251, 235)',
    );
  });

  it('turns editing off and on', async () => {
    await page.evaluate(() => (window as unknown as Win).editor.setEditable(false));
    assert.equal(await page.getAttribute('.sv-content', 'contenteditable'), 'false');
    await page.evaluate(() => (window as unknown as Win).editor.setEditable(true));
    assert.equal(await page.getAttribute('.sv-content', 'contenteditable'), 'true');
  });

  it('destroy() removes every node and popover it made', async () => {
    const result = await page.evaluate(() => {
      const w = window as unknown as Win;
      w.editor.destroy();
      let code = '';
      try {
        w.editor.getHTML();
      } catch (e) {
        code = (e as { code: string }).code;
      }
      return {
        host: document.getElementById('editor')!.childNodes.length,
        leftovers: document.querySelectorAll('[class^="sv-"]').length,
        code,
      };
    });
    assert.deepEqual(result, { host: 0, leftovers: 0, code: 'SEB_ERR_DESTROYED' });
  });
});

describe('the cursor around blocks without text (button, image, divider)', () => {
  // the suite above ends by destroying its editor
  before(() => page.goto(`${server.origin}/`));
  const texts = async () => ((await json()).content ?? []).map((n) => n.content?.[0]?.text ?? n.type);

  it('goes on in a paragraph below a block inserted from the slash menu: typing does not replace it', async () => {
    // regression: the inserted button stayed selected as a node and the first key replaced it
    await emptyDoc();
    await page.keyboard.type('/button');
    await page.keyboard.press('Enter');
    await page.keyboard.type('After the button');
    assert.deepEqual(await texts(), ['button', 'After the button']);

    await page.keyboard.press('Enter');
    await page.keyboard.type('/divider');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Below the line');
    assert.deepEqual(await texts(), ['button', 'After the button', 'divider', 'Below the line']);
  });

  it('Enter on a selected first block opens a paragraph after it, not above', async () => {
    // regression: ProseMirror's default put the new paragraph above a first block
    await setContent({
      type: 'doc',
      content: [{ type: 'button' }, { type: 'paragraph', content: [{ type: 'text', text: 'End' }] }],
    });
    await page.click('.sv-content .sv-button');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Second');
    assert.deepEqual(await texts(), ['button', 'Second', 'End']);
  });

  it('typing while a block is selected writes after it; the arrow keys leave the last block for a new paragraph', async () => {
    await setContent({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Intro' }] }, { type: 'button' }],
    });
    await page.click('.sv-content .sv-button');
    await page.keyboard.press('Escape');
    await page.keyboard.type('x');
    assert.deepEqual(await texts(), ['Intro', 'button', 'x'], 'the button stays');

    await setContent({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Intro' }] }, { type: 'divider' }],
    });
    await page.click('.sv-content p');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('Last words');
    assert.deepEqual(await texts(), ['Intro', 'divider', 'Last words']);
  });

  it('Tab and Shift-Tab move between columns, and Tab leaves the editor from the last one', async () => {
    // regression: Tab in a column left the editor at once, landing in a form field of the page
    const col = (text: string) => ({
      type: 'column',
      content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
    });
    await setContent({
      type: 'doc',
      content: [{ type: 'columns', attrs: { layout: '3' }, content: [col('One'), col('Two'), col('Three')] }],
    });
    await page.click('.sv-content .sv-column >> nth=0');
    const typeHere = async (text: string) => {
      await page.keyboard.type(text);
      return ((await json()).content?.[0]?.content ?? []).map((c) => c.content?.[0]?.content?.[0]?.text);
    };
    await page.keyboard.press('Tab');
    assert.deepEqual(await typeHere('>'), ['One', '>Two', 'Three'], 'Tab: the start of the next column');
    await page.keyboard.press('Tab');
    assert.deepEqual(await typeHere('>'), ['One', '>Two', '>Three']);
    await page.keyboard.press('Shift+Tab');
    assert.deepEqual(await typeHere('<'), ['One', '<>Two', '>Three'], 'Shift-Tab: the previous one');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const inEditor = () => page.evaluate(() => !!document.activeElement?.closest('.sv-content'));
    assert.equal(await inEditor(), false, 'from the last column, focus moves on out of the editor');
  });
});
