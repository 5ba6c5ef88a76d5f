// What an email lacks, reported instead of made up: findProblems() and the blocks' own checks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, node, p, t } from '../../test-support/doc.js';
import { PROBLEMS } from '../problems.js';
import { renderEmail, renderText } from '../render/email.js';
import { applyBranding } from './branding.js';
import { findProblems } from './problems.js';

describe('content problems', () => {
  it('a footer and signature the brand gives nothing for carry no made-up data, and say what is missing', () => {
    const bare = doc(p(t('Hello')), node('signature'), node('footer'), node('button'));
    const html = renderEmail(bare);
    const text = renderText(bare);
    for (const out of [html, text])
      assert.doesNotMatch(out, /Main Street|City, Country|Your Company|Your Name/);
    assert.deepEqual(
      findProblems(bare).map(({ code, block, path }) => [code, block, path]),
      [
        ['SEB_PROBLEM_NO_SENDER_NAME', 'signature', [1]],
        ['SEB_PROBLEM_NO_ADDRESS', 'footer', [2]],
        ['SEB_PROBLEM_NO_UNSUBSCRIBE', 'footer', [2]],
        ['SEB_PROBLEM_NO_LINK', 'button', [3]],
      ],
    );
    assert.equal(findProblems(bare)[1]!.message, PROBLEMS.SEB_PROBLEM_NO_ADDRESS);
  });

  it('blocks the email leaves out (no social address, no picture) are listed, not dropped silently', () => {
    const empty = doc(
      node('socialLinks', { links: [{ network: 'x', url: 'javascript:alert(1)' }] }),
      node('image'),
      node('logo', { src: 'https://cdn.example/logo.png' }),
    );
    assert.doesNotMatch(renderEmail(empty), /x\.com|<img[^>]*src="javascript/);
    assert.deepEqual(
      findProblems(empty).map(({ code, block }) => [code, block]),
      [
        ['SEB_PROBLEM_NO_SOCIAL_LINKS', 'socialLinks'],
        ['SEB_PROBLEM_NO_IMAGE', 'image'],
      ],
    );
  });

  it('a brand with `address: null` leaves the address out and reported; the rest of the brand fills in', () => {
    const branded = applyBranding(doc(node('footer')), {
      contact: { email: 'hi@acme.example', phone: null, address: null },
      unsubscribe: { text: 'Unsubscribe', link: 'https://acme.example/u' },
      signature: { company: 'Acme', name: null, avatar: null, position: null },
    });
    const html = renderEmail(branded);
    assert.match(html, /<strong>Acme<\/strong>/);
    assert.match(html, /hi@acme\.example/);
    assert.deepEqual(
      findProblems(branded).map((x) => x.code),
      ['SEB_PROBLEM_NO_ADDRESS'],
    );
  });

  it('finds problems inside columns too, and none in a complete email', () => {
    const nested = doc(
      node('columns', { layout: '2' }, node('column', {}, node('button')), node('column', {}, p())),
    );
    assert.deepEqual(findProblems(nested)[0]!.path, [0, 0, 0]);
    const complete = doc(
      node('signature', { name: 'Ada' }),
      node('button', { href: 'https://acme.example' }),
      node('footer', { address: '1 Road, Town', unsubscribeUrl: 'https://acme.example/u' }),
    );
    assert.deepEqual(findProblems(complete), []);
  });
});
