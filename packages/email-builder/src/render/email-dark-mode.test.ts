// The email's dark mode for text with an explicit colour: what renderEmail() adds to its
// `prefers-color-scheme: dark` block, and that the light rendering stays what it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { col, doc, docWith, link, node, p, t } from '../../test-support/doc.js';
import type { JSONMark, JSONNode } from '../model/types.js';
import { luminance } from '../primitives/contrast.js';
import { darkTextColor, highlightTextColor } from '../primitives/dark-color.js';
import { renderEmail } from './email.js';

const color = (c: string): JSONMark => ({ type: 'textColor', attrs: { color: c } });
const highlight = (c: string): JSONMark => ({ type: 'highlight', attrs: { color: c } });
const MUTED = '#52525b'; // the starter templates' secondary text
const TINT = '#eef2ff'; // their tinted panels

/** The rules of the head's dark-mode block. */
function darkRules(html: string): string[] {
  const block = /@media \(prefers-color-scheme:dark\)\{(.*?\})\}/.exec(html)?.[1] ?? '';
  return block.match(/[^{}]+\{[^}]*\}/g) ?? [];
}
const textColorRules = (html: string) => darkRules(html).filter((r) => r.startsWith('.sv-tc'));

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
    assert.deepEqual(textColorRules(html), [
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
    assert.equal(textColorRules(html).length, 1);
    assert.equal(html.match(/class="sv-tc0"/g)?.length, 20);
  });

  it('leaves colours that already read on the dark surface alone: no class, no rule', () => {
    const html = renderEmail(mutedDoc('#ffffff'));
    assert.deepEqual(textColorRules(html), []);
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
    assert.deepEqual(textColorRules(html), ['.sv-tc0{color:#5c8af0!important}']);
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
    assert.deepEqual(textColorRules(html), [
      `.sv-tc0{color:${darkTextColor(MUTED, '#000000')}!important}`,
      `.sv-tc1{color:${darkTextColor(MUTED, '#1e293b')}!important}`,
    ]);
    assert.ok(darkRules(html).includes('.sv-colbg{background-color:#1e293b!important}'));
  });

  // Regression: a highlight keeps its light background in dark mode while the text turns light
  // (.sv-t, a text colour's lighter counterpart): light text on yellow, unreadable.
  it('gives highlighted text a colour that reads on its highlight: the body text colour on yellow', () => {
    const html = renderEmail(doc(p(t('Plain, '), t('noted', highlight('#fef08a')))));
    assert.match(html, /Plain, <span class="sv-tc0" style="background-color:#fef08a">noted<\/span>/);
    assert.deepEqual(textColorRules(html), ['.sv-tc0{color:#27272a!important}']);
  });

  it('keeps a highlighted text colour or link readable on the highlight, not lightened for the dark email', () => {
    const html = renderEmail(
      doc(
        p(t('red', color('#dc2626'), highlight('#fef08a')), t(' red', color('#dc2626'))),
        p(t('docs', link('https://example.com'), highlight('#bfdbfe'))),
      ),
    );
    const red = highlightTextColor('#dc2626', '#fef08a');
    const blue = highlightTextColor('#2563eb', '#bfdbfe');
    // the text colour's class lightens it on the dark email; inside the highlight, the highlight's wins
    assert.deepEqual(textColorRules(html), [
      `.sv-tc0{color:${darkTextColor('#dc2626', '#27272a')}!important}`,
      `.sv-tc1{color:${red}!important}`,
      `.sv-tc2{color:${darkTextColor('#2563eb', '#27272a')}!important}`,
      `.sv-tc3{color:${blue}!important}`,
    ]);
    assert.match(
      html,
      /<span class="sv-tc0" style="color:#dc2626"><span class="sv-tc1" style="background-color:#fef08a">red<\/span> red<\/span>/,
    );
    assert.match(
      html,
      /class="sv-tc2" style="color:#2563eb;[^"]*"><span class="sv-tc3" style="background-color:#bfdbfe">docs</,
    );
  });

  it('lightens text on a dark highlight instead', () => {
    const html = renderEmail(doc(p(t('navy', highlight('#1e3a8a')))));
    const light = highlightTextColor('#27272a', '#1e3a8a');
    assert.ok(luminance(light) > luminance('#1e3a8a'), `lighter than the highlight, got ${light}`);
    assert.deepEqual(textColorRules(html), [`.sv-tc0{color:${light}!important}`]);
  });
});
