// The image block: its email HTML and plain text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, node, SAMPLES } from '../../../test-support/doc.js';
import { renderEmail } from '../../render/email.js';

describe('image', () => {
  it('gives every image an alt, a pixel width for Outlook and a fluid max-width', () => {
    const html = renderEmail(doc(node('image', { src: 'https://e.test/a.png', width: 50 }), SAMPLES.logo!));
    const imgs = html.match(/<img [^>]*>/g) ?? [];
    assert.equal(imgs.length, 2);
    for (const img of imgs) assert.match(img, / alt="[^"]*" width="\d+"[^>]*max-width:\d+px/);
    assert.match(imgs[0]!, /width="268"/, 'half of the 536 px content width');
  });

  it('hides the dark-mode image from clients without prefers-color-scheme and from Outlook', () => {
    const html = renderEmail(doc(SAMPLES.image!));
    assert.match(
      html,
      /<div class="sv-dark" style="display:none;overflow:hidden;max-height:0;mso-hide:all"><img src="https:\/\/example.com\/hero-dark.png"/,
    );
    assert.match(
      html,
      /@media \(prefers-color-scheme:dark\)\{[^}]*\}[^@]*\.sv-dark\{display:block!important/,
    );
  });
});
