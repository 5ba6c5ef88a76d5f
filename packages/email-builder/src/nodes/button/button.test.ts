// The button block: its email HTML and plain text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, SAMPLES } from '../../../test-support/doc.js';
import { renderEmail } from '../../render/email.js';

describe('button', () => {
  it('renders buttons as a link plus a VML rounded rectangle for Outlook', () => {
    const html = renderEmail(doc(SAMPLES.button!));
    assert.match(
      html,
      /<!--\[if mso\]><v:roundrect [^>]*href="https:\/\/example.com\/read"[^>]*fillcolor="#4f46e5"/,
    );
    assert.match(
      html,
      /<!--\[if !mso\]><!--><a href="https:\/\/example.com\/read"[^>]*border-radius:12px[^>]*>Read more<\/a><!--<!\[endif\]-->/,
    );
  });
});
