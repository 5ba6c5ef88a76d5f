// The paragraph block: its email HTML and plain text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, p, t } from '../../../test-support/doc.js';
import { renderEmail } from '../../render/email.js';

const body = (html: string) => html.slice(html.indexOf('class="sv-pad"'));

describe('paragraph', () => {
  it('keeps an empty paragraph as a blank line', () => {
    assert.match(body(renderEmail(doc(p(t('a')), p(), p(t('b'))))), /<p[^>]*>&nbsp;<\/p>/);
  });
});
