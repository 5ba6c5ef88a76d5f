// The lists block: its email HTML and plain text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, li, node, ol, p, t, ul } from '../../../test-support/doc.js';
import { renderEmail } from '../../render/email.js';

const body = (html: string) => html.slice(html.indexOf('class="sv-pad"'));

describe('lists', () => {
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
});
