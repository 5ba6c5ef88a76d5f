// renderTemplate: the merge-variable syntax filled from data, escaped for its context.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatVariable, isVariableName } from '../primitives/merge-tags.js';
import { renderEmail, renderText } from '../render/email.js';
import { renderTemplate } from './render-template.js';

const doc = (...content: object[]) => ({ type: 'doc', content }) as never;
const v = (name: string, fallback = '') => ({ type: 'variable', attrs: { name, fallback } });
const t = (text: string) => ({ type: 'text', text });

describe('the variable syntax', () => {
  it('writes {{name}} and {{name|fallback}}, with fallbacks kept inside the syntax', () => {
    assert.equal(formatVariable('first_name'), '{{first_name}}');
    assert.equal(formatVariable('first_name', ' friend '), '{{first_name|friend}}');
    assert.equal(formatVariable('x', 'a}}b{{c\nd'), '{{x|abcd}}');
  });
  it('accepts names of letters, digits and _, dotted paths; nothing else', () => {
    for (const ok of ['first_name', '_x', 'order.total', 'a1.b_2']) assert.ok(isVariableName(ok), ok);
    for (const bad of ['', '1st', 'first name', 'a..b', 'a.', 'x-y', '__proto__.'.repeat(9), 'a'.repeat(65)])
      assert.ok(!isVariableName(bad), bad);
  });
});

describe('renderTemplate', () => {
  it('fills text, with or without spaces inside the braces', () => {
    const r = renderTemplate('Hi {{ first_name }}, order {{order.id}}!', {
      first_name: 'Ada',
      order: { id: 7 },
    });
    assert.equal(r.output, 'Hi Ada, order 7!');
    assert.deepEqual(r.used, ['first_name', 'order.id']);
    assert.deepEqual([r.missing, r.defaulted, r.unsafe], [[], [], []]);
  });

  it('uses the fallback when there is no value, and reports missing names', () => {
    const r = renderTemplate('Hi {{first_name|there}} {{last_name}}.', {});
    assert.equal(r.output, 'Hi there .');
    assert.deepEqual(r.defaulted, ['first_name']);
    assert.deepEqual(r.missing, ['last_name']);
    assert.equal(renderTemplate('{{a}}', { a: null }).missing[0], 'a');
    assert.equal(renderTemplate('{{a}}', { a: { b: 1 } }).missing[0], 'a', 'objects are not values');
  });

  it('escapes values in HTML so data can never add markup', () => {
    const html = '<!DOCTYPE html><p title="{{t}}">{{name}}</p>';
    const r = renderTemplate(html, { name: '<img src=x onerror=alert(1)>', t: '" onmouseover="x' });
    assert.equal(
      r.output,
      '<!DOCTYPE html><p title="&quot; onmouseover=&quot;x">&lt;img src=x onerror=alert(1)&gt;</p>',
    );
  });

  it('leaves text untouched in text mode', () => {
    assert.equal(renderTemplate('Hi {{n}}', { n: '<b>&' }).output, 'Hi <b>&');
    assert.equal(renderTemplate('<p>{{n}}</p>', { n: '<b>' }, { format: 'text' }).output, '<p><b></p>');
  });

  it('URL-encodes values inside links and checks values that are a whole link', () => {
    const html =
      '<p><a href="https://x.test/?u={{id}}&amp;n=1">a</a><a href="{{url}}">b</a><img src="{{img}}" alt=""></p>';
    const safe = renderTemplate(html, {
      id: 'a b&c',
      url: 'https://ok.test/p?q=1&r=2',
      img: 'https://cdn.test/a.png',
    });
    assert.equal(
      safe.output,
      '<p><a href="https://x.test/?u=a%20b%26c&amp;n=1">a</a><a href="https://ok.test/p?q=1&amp;r=2">b</a><img src="https://cdn.test/a.png" alt=""></p>',
    );
    const hostile = renderTemplate(html, {
      id: '"><script>',
      url: 'javascript:alert(1)',
      img: 'data:image/svg+xml;base64,x',
    });
    assert.ok(
      !hostile.output.includes('javascript:') &&
        !hostile.output.includes('<script') &&
        !hostile.output.includes('svg'),
    );
    assert.deepEqual(hostile.unsafe, ['url', 'img']);
  });

  it('reads own properties only: no prototype values', () => {
    const r = renderTemplate('{{constructor}}{{__proto__}}{{toString}}{{a.constructor.name}}', { a: {} });
    assert.equal(r.output, '');
    assert.equal(r.missing.length, 4);
  });

  it('fills the editor’s own output: getHTML() with its VML buttons, and getText()', () => {
    const document = doc(
      { type: 'heading', attrs: { level: 1 }, content: [t('Hi '), v('first_name', 'friend & co')] },
      { type: 'paragraph', content: [t('Total: '), v('order.total')] },
      { type: 'button', attrs: { text: 'Reset', href: '{{reset_url}}' } },
    );
    const html = renderEmail(document);
    assert.match(html, /Hi \{\{first_name\|friend &amp; co\}\}/);
    const filled = renderTemplate(html, { order: { total: '$5 <b>' }, reset_url: 'https://x.test/r?t=1' });
    assert.match(filled.output, />Hi friend &amp; co<\/h1>/);
    assert.match(filled.output, />Total: \$5 &lt;b&gt;<\/p>/);
    assert.match(
      filled.output,
      /<v:roundrect[^>]*href="https:\/\/x\.test\/r\?t=1"/,
      'Outlook’s VML button too',
    );
    assert.match(filled.output, /<a href="https:\/\/x\.test\/r\?t=1"/);
    assert.match(filled.output, /data-attrs="[^"]*\{\{reset_url\}\}/, 'markers keep the template');
    assert.deepEqual(filled.defaulted, ['first_name']);
    const text = renderTemplate(
      renderText(document),
      { first_name: 'Ada', order: { total: '$5' } },
      { format: 'text' },
    );
    assert.match(text.output, /^Hi Ada\n\nTotal: \$5\n\nReset: \n$/);
    assert.deepEqual(text.missing, ['reset_url']);
  });

  it('detects HTML by a leading tag or doctype', () => {
    assert.equal(renderTemplate('<p>{{a}}</p>', { a: '<' }).output, '<p>&lt;</p>');
    assert.equal(renderTemplate('a < b: {{a}}', { a: '<' }).output, 'a < b: <');
  });
});
