// The columns block: its email HTML and plain text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { col, doc, node, p, SAMPLES, t } from '../../../test-support/doc.js';
import { renderEmail, renderText } from '../../render/email.js';
import { columnWidths } from './render.js';

describe('columns', () => {
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

  it('writes columns one after the other', () => {
    assert.equal(
      renderText(doc(node('columns', undefined, col(undefined, p(t('L'))), col(undefined, p(t('R')))))),
      'L\n\nR\n',
    );
  });
});
