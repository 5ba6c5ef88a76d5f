// Layout rules of the email that hold on any font and any content, checked on the HTML itself
// (the browser test, test/email-layout.browser.test.ts, measures them in Chromium).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, node } from '../../test-support/doc.js';
import { NETWORKS, pillFill, pillsPerRow } from '../nodes/social/render.js';
import { contrast, MIN_CONTRAST } from '../primitives/contrast.js';
import { renderEmail } from './email.js';

const social = (...networks: string[]) =>
  node('socialLinks', {
    links: networks.map((network) => ({ network, url: `https://${network}.example/me` })),
  });

describe('email layout', () => {
  it('Outlook for Windows: the MSO font rule covers every element its markup holds text in, the VML button’s <center> too', () => {
    const html = renderEmail(doc(node('button', { text: 'Go', href: 'https://example.com' })));
    const rule = /<!--\[if mso\]>.*?<style>([^{]+)\{font-family:Arial/.exec(html)?.[1]?.split(',') ?? [];
    const msoOnly = [...html.slice(html.indexOf('<body')).matchAll(/<!--\[if mso\]>(.*?)<!\[endif\]-->/g)]
      .map((m) => m[1])
      .join('');
    const holdingText = [...msoOnly.matchAll(/<([a-z]+)\b[^>]*>[^<\s]/g)].map((m) => m[1]!);
    assert.ok(holdingText.includes('center'), 'the VML label is measured');
    assert.deepEqual(
      holdingText.filter((tag) => !rule.includes(tag)),
      [],
    );
  });

  it('white pill labels reach WCAG AA on every network’s fill (Facebook and YouTube darkened)', () => {
    for (const network of Object.keys(NETWORKS)) {
      const ratio = contrast('#ffffff', pillFill(network));
      assert.ok(ratio >= MIN_CONTRAST, `${network}: ${ratio.toFixed(2)}:1`);
    }
    assert.notEqual(pillFill('facebook'), NETWORKS.facebook!.color);
    assert.equal(pillFill('linkedin'), NETWORKS.linkedin!.color, 'a colour that passes stays as it is');
  });

  it('spreads the six networks of BrandSettings evenly over the rows they need', () => {
    // (rows are filled in turn, so seven or eight, which only hand-made blocks have, can end short)
    for (let count = 1; count <= 6; count++)
      for (let slots = 1; slots <= 6; slots++) {
        const perRow = pillsPerRow(count, slots);
        const rows = Math.ceil(count / perRow);
        assert.ok(perRow <= Math.max(1, slots), `${count} in ${slots} slots`);
        assert.equal(rows, Math.ceil(count / Math.max(1, slots)), `${count} in ${slots}: no extra row`);
        assert.ok(
          count - (rows - 1) * perRow >= perRow - 1,
          `${count} in ${slots}: the last row is not left short`,
        );
      }
    assert.equal(pillsPerRow(6, 5), 3);
  });

  it('Outlook gets the pills in the same even rows as everyone else', () => {
    const html = renderEmail(
      doc(social('facebook', 'instagram', 'twitter', 'linkedin', 'youtube', 'github')),
    );
    assert.equal(
      html.match(/<!--\[if mso\]><\/td><\/tr><tr><td><!\[endif\]-->/g)?.length,
      1,
      'two rows of three',
    );
    assert.match(html, /style="display:inline-block;max-width:312px"/);
  });

  it('gives the dark-mode edge only to pills that would vanish on the dark card', () => {
    const html = renderEmail(doc(social('github', 'twitter', 'youtube')));
    const edged = [...html.matchAll(/<a [^>]*class="sv-pe"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1]);
    assert.deepEqual(edged, ['GitHub', 'X']);
  });

  it('a grey divider takes the dark border colour in dark mode; a coloured one keeps its colour', () => {
    const grey = renderEmail(doc(node('divider')));
    const brand = renderEmail(doc(node('divider', { color: '#e11d48' })));
    assert.match(grey, /<td class="sv-hr" style="border-top:1px solid #e4e4e7/);
    assert.match(grey, /\.sv-hr,\.sv-q\{border-color:#3f3f46!important\}/);
    assert.doesNotMatch(brand, /class="sv-hr"/);
  });

  it('lets long unbroken strings break, and clips nothing', () => {
    const html = renderEmail(doc(node('paragraph')));
    assert.match(html, /class="sv-pad"[^>]*style="[^"]*word-break:break-word/);
    assert.doesNotMatch(html, /class="sv-card"[^>]*overflow:hidden/);
  });
});
