// The email renderer over whole documents: the frame every email has, escaping, settings,
// errors and size; each block's own output is tested beside the block (nodes/*/).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bold, doc, docWith, fullDocument, h, li, link, node, ol, p, t, ul } from '../../test-support/doc.js';
import { cleanDocument } from '../document/validate.js';
import type { ServiceEditorError } from '../errors.js';
import { BLOCKS } from '../registry/blocks.js';
import { renderEmail, renderText } from './email.js';

const _body = (html: string) => html.slice(html.indexOf('class="sv-pad"'));

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
});
