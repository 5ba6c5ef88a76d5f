import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeHtml } from './escape.js';
import { normalizeUserUrl, safeImageUrl, safeLinkUrl } from './url.js';

describe('URL checks', () => {
  it('keeps http, https, mailto and tel links', () => {
    for (const url of ['https://a.test/x?y=1', 'http://a.test', 'mailto:a@b.test', 'tel:+15550100'])
      assert.equal(safeLinkUrl(url), url);
  });
  it('drops every other scheme, obfuscated or not', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>',
      'vbscript:x',
      'file:///etc/passwd',
      '//evil.test',
      '/relative',
      'https://',
      'mailto:',
      'https://a.test/\u0000',
    ]) {
      assert.equal(safeLinkUrl(url), '', url);
    }
  });
  it('accepts raster data images but never SVG or HTML', () => {
    assert.equal(safeImageUrl('data:image/png;base64,iVBORw0KGgo='), 'data:image/png;base64,iVBORw0KGgo=');
    assert.equal(safeImageUrl('data:image/svg+xml;base64,PHN2Zz4='), '');
    assert.equal(safeImageUrl('data:text/html;base64,PHNjcmlwdD4='), '');
    assert.equal(safeImageUrl('mailto:a@b.test'), '');
  });
  it('turns what people type into links', () => {
    assert.equal(normalizeUserUrl('example.com/x'), 'https://example.com/x');
    assert.equal(normalizeUserUrl('ada@example.com'), 'mailto:ada@example.com');
    assert.equal(normalizeUserUrl('+1 (555) 010-0100'), 'tel:+15550100100');
    assert.equal(normalizeUserUrl('javascript:alert(1)'), '');
  });
  it('escapes the five HTML-significant characters', () => {
    assert.equal(
      escapeHtml(`<a href="x" title='y'>&</a>`),
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
