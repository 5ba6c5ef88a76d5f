import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bold,
  col,
  doc,
  docWith,
  fullDocument,
  h,
  li,
  link,
  node,
  ol,
  p,
  SAMPLES,
  t,
  ul,
} from '../../test-support/doc.js';
import type { ServiceEditorError } from '../errors.js';
import { cleanDocument } from '../model/validate.js';
import { renderEmail, renderText } from '../render/email.js';
import { columnWidths } from './columns/index.js';
import { BLOCKS } from './registry.js';

const body = (html: string) => html.slice(html.indexOf('class="sv-pad"'));

describe('email renderer', () => {
  it('renders a full document with lang and dir on <html> and on the body wrapper', () => {
    const html = renderEmail(docWith({ lang: 'ar', dir: 'rtl' }, p(t('مرحبا'))));
    assert.match(html, /^<!DOCTYPE html><html lang="ar" dir="rtl"/);
    assert.match(
      html,
      /<div role="article" aria-roledescription="email" aria-label="مرحبا" lang="ar" dir="rtl"/,
    );
  });

  it('keeps a 600 px container that Outlook for Windows holds with a ghost table', () => {
    const html = renderEmail(doc(p(t('x'))));
    assert.match(html, /<!--\[if mso\]><table role="presentation" width="600" align="center"/);
    assert.match(html, /max-width:600px;margin:0 auto/);
  });

  it('marks every layout table as presentation', () => {
    const html = renderEmail(fullDocument());
    const tables = html.replace(/<!--[\s\S]*?-->/g, '').match(/<table[^>]*>/g) ?? [];
    assert.ok(tables.length > 20);
    for (const table of tables) assert.match(table, /role="presentation"/);
  });

  it('escapes every text and attribute', () => {
    const html = renderEmail(
      doc(
        h(1, t('<script>alert(1)</script>')),
        node('button', { text: '"><img src=x onerror=alert(1)>', href: 'https://a.test/?q="x"' }),
      ),
    );
    assert.ok(!html.includes('<script>alert'));
    assert.ok(!html.includes('<img src=x'));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(html.includes('href="https://a.test/?q=&quot;x&quot;"'));
  });

  it('keeps line breaks, quotes and nested lists (the original product dropped them)', () => {
    const html = body(
      renderEmail(
        doc(
          p(t('a'), node('hardBreak'), t('b')),
          node('blockquote', undefined, p(t('q'))),
          ul(li(p(t('1')), ol(li(p(t('1.1')))))),
        ),
      ),
    );
    assert.match(html, />a<br>b</);
    assert.match(html, /<blockquote[^>]*>.*q<\/p><\/blockquote>/);
    assert.match(
      html,
      /<ul[^>]*><li[^>]*><p[^>]*>1<\/p><ol[^>]*><li[^>]*><p[^>]*>1\.1<\/p><\/li><\/ol><\/li><\/ul>/,
    );
  });

  it('ends a quote’s bar with its text: the last block in a quote has no bottom margin', () => {
    // the bar used to run 16 px past the text: the last paragraph kept its margin:0 0 16px
    const quote = (...content: ReturnType<typeof p>[]) =>
      /<blockquote[^>]*>(.*?)<\/blockquote>/.exec(
        body(renderEmail(doc(node('blockquote', undefined, ...content)))),
      )![1]!;
    const margins = (html: string) =>
      [...html.matchAll(/<(\w+)[^>]* style="margin:([^;]*);/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(margins(quote(p(t('One')), p(t('Two')))), ['p 0 0 16px', 'p 0']);
    assert.deepEqual(margins(quote(p(t('Said')), h(3, t('Someone')))), ['p 0 0 16px', 'h3 0']);
    assert.deepEqual(
      margins(quote(p(t('Steps')), ul(li(p(t('a'))), li(p(t('b')), ul(li(p(t('c'))), li(p(t('d')))))))),
      [
        'p 0 0 16px',
        'ul 0',
        'li 0 0 4px',
        'p 0',
        'li 0',
        'p 0',
        'ul 4px 0 0',
        'li 0 0 4px',
        'p 0',
        'li 0',
        'p 0',
      ],
    );
    // outside a quote, blocks keep their space
    assert.match(renderEmail(doc(p(t('x')))), /<p class="sv-t" style="margin:0 0 16px;/);
    assert.match(
      renderEmail(doc(ul(li(p(t('x')))))),
      /<ul style="margin:0 0 16px;.*<li class="sv-t" style="margin:0 0 4px;/,
    );
  });

  it('keeps an empty paragraph as a blank line', () => {
    assert.match(body(renderEmail(doc(p(t('a')), p(), p(t('b'))))), /<p[^>]*>&nbsp;<\/p>/);
  });

  it('drops unsafe link schemes at render time whatever the JSON says', () => {
    const html = renderEmail(
      doc(
        p(t('x', link('javascript:alert(1)'))),
        node('button', { href: 'javascript:alert(1)' }),
        node('image', { src: 'javascript:alert(1)', alt: 'a' }),
      ),
    );
    assert.ok(!/javascript:/i.test(html));
  });

  it('renders buttons as a link plus a VML rounded rectangle for Outlook', () => {
    const html = renderEmail(doc(SAMPLES.button!));
    assert.match(
      html,
      /<!--\[if mso\]><v:roundrect [^>]*href="https:\/\/example.com\/read"[^>]*fillcolor="#4f46e5"/,
    );
    assert.match(
      html,
      /<!--\[if !mso\]><!--><a href="https:\/\/example.com\/read"[^>]*border-radius:12px[^>]*>Read more<\/a><!--<!\[endif\]-->/,
    );
  });

  it('gives every image an alt, a pixel width for Outlook and a fluid max-width', () => {
    const html = renderEmail(doc(node('image', { src: 'https://e.test/a.png', width: 50 }), SAMPLES.logo!));
    const imgs = html.match(/<img [^>]*>/g) ?? [];
    assert.equal(imgs.length, 2);
    for (const img of imgs) assert.match(img, / alt="[^"]*" width="\d+"[^>]*max-width:\d+px/);
    assert.match(imgs[0]!, /width="268"/, 'half of the 536 px content width');
  });

  it('hides the dark-mode image from clients without prefers-color-scheme and from Outlook', () => {
    const html = renderEmail(doc(SAMPLES.image!));
    assert.match(
      html,
      /<div class="sv-dark" style="display:none;overflow:hidden;max-height:0;mso-hide:all"><img src="https:\/\/example.com\/hero-dark.png"/,
    );
    assert.match(
      html,
      /@media \(prefers-color-scheme:dark\)\{[^}]*\}[^@]*\.sv-dark\{display:block!important/,
    );
  });

  it('splits column widths by layout, the rounding left to the last column', () => {
    assert.deepEqual(columnWidths('2', 2, 536), [268, 268]);
    assert.deepEqual(columnWidths('1-2', 2, 536), [178, 358]);
    assert.deepEqual(columnWidths('3', 3, 536), [178, 178, 180]);
    assert.deepEqual(
      columnWidths('2', 3, 300),
      [100, 100, 100],
      'a layout that does not fit the count falls back to equal',
    );
  });

  it('renders stacking columns as hybrid inline-blocks with an MSO ghost row', () => {
    const html = renderEmail(doc(SAMPLES.columns12!));
    assert.match(
      html,
      /<!--\[if mso\]><table role="presentation" width="536" align="left"[^>]*><tr><td width="178" valign="top"><!\[endif\]-->/,
    );
    assert.match(html, /class="sv-col" style="display:inline-block;width:100%;max-width:178px/);
    assert.match(html, /<!--\[if mso\]><\/td><td width="358" valign="top"><!\[endif\]-->/);
    assert.match(
      html,
      // stacked from where the two no longer fit: 536 px of columns, 2 × 8 + 2 + 2 × 20 px around them on a phone
      /@media only screen and \(max-width:593px\)\{\.sv-col\{display:block!important;max-width:100%!important/,
    );
    assert.match(html, /<img [^>]*width="170"/, 'the image fills its column less the gap');
  });

  it('writes settings from the document into the HTML', () => {
    const html = renderEmail(
      docWith(
        {
          backdrop: '#112233',
          canvas: '#fafafa',
          border: '#abcdef',
          radius: 16,
          padding: 12,
          width: 640,
          darkCanvas: '#000000',
          preheader: 'Peek',
        },
        p(t('x')),
      ),
    );
    assert.match(html, /<body class="sv-bg" style="margin:0;padding:0;background-color:#112233">/);
    assert.match(
      html,
      /max-width:640px;margin:0 auto;background-color:#fafafa;border:1px solid #abcdef;border-radius:16px/,
    );
    assert.match(html, /class="sv-pad" dir="ltr" style="padding:12px/);
    assert.match(html, /\.sv-card\{background-color:#000000!important/);
    assert.match(html, /data-sv-preheader="">Peek/);
  });

  it('fails loudly on unknown nodes and marks', () => {
    assert.throws(
      () => renderEmail(doc(node('video', { src: 'x' }))),
      (e: ServiceEditorError) => e.code === 'SEB_ERR_UNKNOWN_NODE',
    );
    assert.throws(
      () => renderEmail(doc(p(t('x', { type: 'blink' })))),
      (e: ServiceEditorError) => e.code === 'SEB_ERR_UNKNOWN_MARK',
    );
    assert.throws(
      () => cleanDocument(doc(node('video'))),
      (e: ServiceEditorError) => e.code === 'SEB_ERR_UNKNOWN_NODE' && /"video"/.test(e.message),
    );
  });

  it('stays far under Gmail’s 102 KB clip for a long newsletter', () => {
    const big = doc(...Array.from({ length: 4 }, () => fullDocument().content!).flat());
    assert.ok(big.content!.length > 80);
    const html = renderEmail(big);
    assert.ok(html.length < 102 * 1024, `${html.length} bytes`);
  });

  it('renders every registered block (no block without a renderer case)', () => {
    const html = renderEmail(fullDocument());
    for (const block of BLOCKS) {
      if (
        [
          'text',
          'hardBreak',
          'listItem',
          'column',
          'paragraph',
          'heading',
          'bulletList',
          'orderedList',
          'blockquote',
          'variable',
        ].includes(block.name)
      )
        continue;
      assert.ok(html.includes(`data-block="${block.name}"`), block.name);
    }
    // variables render as their tag, which is what renderTemplate and ESPs fill
    assert.ok(html.includes('Hi {{first_name|there &amp; &quot;friends&quot;}}!'));
  });
});

describe('plain-text alternative', () => {
  it('writes paragraphs, lists, links and buttons readably', () => {
    const text = renderText(
      doc(
        h(1, t('Title')),
        p(t('Go '), t('here', link('https://a.test')), t(' now', bold())),
        ul(li(p(t('one')), ol(li(p(t('deep')))))),
        node('button', { text: 'Buy', href: 'https://b.test' }),
        node('divider'),
        node('image', { src: 'https://e.test/a.png', alt: 'Cat' }),
      ),
    );
    assert.equal(
      text,
      'Title\n\nGo here (https://a.test) now\n\n- one\n  1. deep\n\nBuy: https://b.test\n\n----------\n\n[Cat]\n',
    );
  });

  it('writes columns one after the other', () => {
    assert.equal(
      renderText(doc(node('columns', undefined, col(undefined, p(t('L'))), col(undefined, p(t('R')))))),
      'L\n\nR\n',
    );
  });
});
