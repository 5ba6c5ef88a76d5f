// The blockquote block: its email HTML and plain text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, h, li, node, p, t, ul } from '../../../test-support/doc.js';
import { renderEmail } from '../../render/email.js';

const body = (html: string) => html.slice(html.indexOf('class="sv-pad"'));

describe('blockquote', () => {
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
});
