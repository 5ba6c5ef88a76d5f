// Right-to-left emails: every side the renderer writes (an indent, a rule, a gap, an alignment)
// is the physical side chosen from the document's `dir`, since Outlook for Windows and older
// webmail do not know logical properties. Regression for RTL emails whose bullets hung into the
// right padding, whose quote bar was on the far side and whose columns were aligned left.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sidedDocument } from '../../test-support/doc.js';
import { renderEmail } from './email.js';

const styles = (html: string, tag: string) =>
  [...html.matchAll(new RegExp(`<${tag}[^>]* style="([^"]*)"`, 'g'))].map((m) => m[1]!);

describe('right-to-left emails', () => {
  const rtl = renderEmail(sidedDocument('rtl'));
  const ltr = renderEmail(sidedDocument('ltr'));

  it('indents lists on the right, where the bullets hang', () => {
    for (const style of [...styles(rtl, 'ul'), ...styles(rtl, 'ol')])
      assert.match(style, /padding:0 24px 0 0;/);
    for (const style of [...styles(ltr, 'ul'), ...styles(ltr, 'ol')])
      assert.match(style, /padding:0 0 0 24px;/);
    assert.equal(styles(rtl, 'ul').length, 2, 'the nested list too');
  });

  it('draws the quote bar on the right, the text indented from it', () => {
    assert.deepEqual(styles(rtl, 'blockquote'), [
      'margin:0 0 16px;padding:2px 16px 2px 0;border-right:4px solid #d4d4d8',
    ]);
    assert.deepEqual(styles(ltr, 'blockquote'), [
      'margin:0 0 16px;padding:2px 0 2px 16px;border-left:4px solid #d4d4d8',
    ]);
  });

  it('aligns columns to the right and puts each gap between a column’s end and the next one’s start', () => {
    assert.match(
      rtl,
      /<td style="text-align:right;padding:0 0 16px"><!--\[if mso\]><table role="presentation" width="536" align="right"/,
    );
    assert.ok(!/text-align:left/.test(rtl), 'no left alignment anywhere');
    // first column (on the right): its gap on its left; second: on its right
    assert.match(rtl, /class="sv-gap sv-gapv" style="padding:0 0px 0 10px">.*الأول/);
    assert.match(rtl, /class="sv-gap" style="padding:0 10px 0 0px">.*الثاني/);
    assert.match(rtl, /<td width="268" valign="top" style="padding:0 0px 0 10px">.*أولاً/);
    assert.match(rtl, /<td width="268" valign="top" style="padding:0 10px 0 0px">.*ثانياً/);
    // left to right, as before: the first column on the left, its gap on its right
    assert.match(
      ltr,
      /<td style="text-align:left;padding:0 0 16px"><!--\[if mso\]><table role="presentation" width="536" align="left"/,
    );
    assert.match(ltr, /class="sv-gap sv-gapv" style="padding:0 10px 0 0px">.*One/);
    assert.match(ltr, /class="sv-gap" style="padding:0 0px 0 10px">.*Two/);
  });

  it('keeps a left-aligned image on the left, and the signature’s gap beside its photo', () => {
    assert.match(rtl, /<img src="https:\/\/example.com\/a.png"[^>]*style="[^"]*;margin:0 auto 0 0;/);
    assert.match(rtl, /<td width="56" valign="middle" style="padding:0 0 0 12px"><img/);
    assert.match(ltr, /<td width="56" valign="middle" style="padding:0 12px 0 0"><img/);
  });

  it('writes no side that ignores the direction: every left in the RTL email is a mirrored right', () => {
    const sides = (html: string) =>
      html.match(/(?:border|padding|margin)-(?:left|right)|text-align:(?:left|right)/g) ?? [];
    assert.deepEqual(
      sides(rtl),
      sides(ltr).map((s) => s.replace(/left|right/, (side) => (side === 'left' ? 'right' : 'left'))),
    );
  });
});
