// The email's dark mode for text with an explicit colour: what renderEmail() adds to its
// `prefers-color-scheme: dark` block, and that the light rendering stays what it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { col, doc, docWith, link, node, p, t } from '../../test-support/doc.js';
import type { JSONMark, JSONNode } from '../model/types.js';
import { darkTextColor } from './dark-color.js';
import { renderEmail } from './email.js';

const color = (c: string): JSONMark => ({ type: 'textColor', attrs: { color: c } });
const MUTED = '#52525b'; // the starter templates' secondary text
const TINT = '#eef2ff'; // their tinted panels

/** The rules of the head's dark-mode block. */
function darkRules(html: string): string[] {
  const block = /@media \(prefers-color-scheme:dark\)\{(.*?\})\}/.exec(html)?.[1] ?? '';
  return block.match(/[^{}]+\{[^}]*\}/g) ?? [];
}
const textColourRules = (html: string) => darkRules(html).filter((r) => r.startsWith('.sv-tc'));

/** Muted text on a tinted panel (twice) and on the email's own background, as the welcome template has. */
const mutedDoc = (muted = MUTED): JSONNode =>
  doc(
    p(t('On the email background', color(muted))),
    node(
      'columns',
      { layout: '2' },
      col({ backgroundColor: TINT, padding: 16 }, p(t('Step one', color(muted)))),
      col({ backgroundColor: TINT, padding: 16 }, p(t('Step two', color(muted)))),
    ),
  );

describe('dark mode for explicit text colours in the email', () => {
  it('lightens muted text to 4.5:1 on its dark surface: the panel and the email background', () => {
    const html = renderEmail(mutedDoc());
    // #52525b is 1.35:1 on the darkened panel (#3f3f46) and 1.92:1 on the dark email (#27272a)
    assert.deepEqual(textColourRules(html), [
      '.sv-tc0{color:#8d8d98!important}',
      '.sv-tc1{color:#aaaab2!important}',
    ]);
    assert.match(html, /<span class="sv-tc0" style="color:#52525b">On the email background</);
    assert.match(html, /<span class="sv-tc1" style="color:#52525b">Step one</);
    assert.match(html, /<span class="sv-tc1" style="color:#52525b">Step two</);
  });

  it('writes one rule per dark colour, however often it is used', () => {
    const many = doc(...Array.from({ length: 20 }, (_, i) => p(t(`Line ${i}`, color(MUTED)))));
    const html = renderEmail(many);
    assert.equal(textColourRules(html).length, 1);
    assert.equal(html.match(/class="sv-tc0"/g)?.length, 20);
  });

  it('leaves colours that already read on the dark surface alone: no class, no rule', () => {
    const html = renderEmail(mutedDoc('#ffffff'));
    assert.deepEqual(textColourRules(html), []);
    assert.ok(!html.includes('sv-tc'));
    assert.match(html, /<span style="color:#ffffff">Step one</);
  });

  it('adds nothing to a document without explicit colours', () => {
    const html = renderEmail(
      doc(p(t('Plain text')), node('columns', { layout: '1' }, col({ backgroundColor: TINT }, p(t('x'))))),
    );
    assert.ok(!html.includes('sv-tc'));
  });

  it('keeps the light rendering: the author’s colour inline, only a class and a dark rule added', () => {
    // The same document with a colour that needs no dark counterpart renders as it always did
    // (`<span style="color:…">`); swapping in the muted colour may add nothing but the class
    // attributes and the dark-mode rules.
    const passing = renderEmail(mutedDoc('#fafafa'));
    const muted = renderEmail(mutedDoc(MUTED));
    const strip = (html: string) =>
      html.replace(/ class="sv-tc\d+"/g, '').replace(/\.sv-tc\d+\{[^}]*\}/g, '');
    assert.equal(strip(muted), passing.replaceAll('#fafafa', MUTED));
  });

  it('gives links their dark-mode colour too: inline links and the footer’s', () => {
    const html = renderEmail(
      doc(
        p(t('Read the ', link('https://example.com/docs')), t('guide', link('https://example.com/docs'))),
        node('footer', { email: 'hello@acme.test', unsubscribeUrl: 'https://acme.test/unsub' }),
      ),
    );
    // #2563eb is 2.9:1 on the dark email background
    assert.deepEqual(textColourRules(html), ['.sv-tc0{color:#5c8af0!important}']);
    assert.match(
      html,
      /<a href="https:\/\/example.com\/docs" target="_blank" class="sv-tc0" style="color:#2563eb;/,
    );
    assert.match(html, /<a href="mailto:hello@acme.test" class="sv-tc0" style="color:#2563eb;/);
    assert.match(
      html,
      /<a href="https:\/\/acme.test\/unsub" target="_blank" class="sv-tc0" style="color:#2563eb;/,
    );
  });

  it('maps against the document’s own dark colours', () => {
    const html = renderEmail(
      docWith({ darkCanvas: '#000000', darkBorder: '#1e293b' }, ...mutedDoc().content!),
    );
    assert.deepEqual(textColourRules(html), [
      `.sv-tc0{color:${darkTextColor(MUTED, '#000000')}!important}`,
      `.sv-tc1{color:${darkTextColor(MUTED, '#1e293b')}!important}`,
    ]);
    assert.ok(darkRules(html).includes('.sv-colbg{background-color:#1e293b!important}'));
  });
});
