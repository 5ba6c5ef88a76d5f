// Outside checkers on the renderer's output: html-validate (rules tuned for email) and the
// caniemail data (via @jsx-email/doiuse-email) for Gmail, Outlook and Apple Mail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderEmail } from '../src/render/email.js';
import { unsupported, validate } from '../test-support/checkers.js';
import { col, doc, docWith, fullDocument, node, p, SAMPLES, sidedDocument, t } from '../test-support/doc.js';

const cases: [string, ReturnType<typeof doc>][] = [
  ...Object.entries(SAMPLES).map(([name, block]): [string, ReturnType<typeof doc>] => [name, doc(block)]),
  ['full document', fullDocument()],
  ['right-to-left document', docWith({ lang: 'he', dir: 'rtl', preheader: 'תצוגה' }, p(t('שלום')))],
  ['right-to-left lists, quote, columns, image and signature', sidedDocument('rtl')],
  [
    'muted text on a tinted panel (dark-mode text colour classes)',
    doc(
      p(t('Muted', { type: 'textColor', attrs: { color: '#52525b' } })),
      node(
        'columns',
        { layout: '1' },
        col(
          { backgroundColor: '#eef2ff' },
          p(t('On a panel', { type: 'textColor', attrs: { color: '#52525b' } })),
        ),
      ),
    ),
  ],
  [
    'highlighted text (dark-mode colour classes)',
    doc(
      p(
        t(
          'Noted',
          { type: 'textColor', attrs: { color: '#dc2626' } },
          { type: 'highlight', attrs: { color: '#fef08a' } },
        ),
      ),
    ),
  ],
  [
    'settings changed',
    docWith({ backdrop: '#000000', canvas: '#111111', padding: 0, radius: 0, width: 720 }, p(t('x'))),
  ],
];

describe('html-validate, tuned for email', () => {
  for (const [name, document] of cases) {
    it(`finds no error in ${name}`, async () => {
      assert.deepEqual(await validate(renderEmail(document)), []);
    });
  }
  it('is a real check: it catches broken markup', async () => {
    const problems = await validate(
      '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><p id="a"><div id="a"></p></body></html>',
    );
    assert.ok(problems.length > 0);
  });
});

describe('caniemail (Gmail, Outlook, Apple Mail)', () => {
  for (const [name, document] of cases) {
    it(`leaves no unsupported feature without a fallback in ${name}`, () => {
      assert.deepEqual(unsupported(renderEmail(document)), []);
    });
  }
  it('is a real check: it catches a feature with no fallback', () => {
    assert.ok(
      unsupported('<html><body><div style="display:grid;position:absolute"></div></body></html>').length > 0,
    );
  });
});
