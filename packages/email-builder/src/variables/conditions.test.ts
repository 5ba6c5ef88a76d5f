// Conditions and repeats: written by the renderers in the editor's syntax, evaluated by
// renderTemplate with the merge tags' escaping and URL rules, bounded on runaway input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { col, doc, node, p, t } from '../../test-support/doc.js';
import type { Condition } from '../model/condition.js';
import { renderEmail, renderText } from '../render/email.js';
import { formatCondition, parseCondition } from './condition-syntax.js';
import { MAX_TEMPLATE_DEPTH, MAX_TEMPLATE_ITEMS, renderTemplate } from './render-template.js';

const v = (name: string, fallback = '') => node('variable', { name, fallback });
const iff = (showIf: Condition, ...content: ReturnType<typeof t>[]) =>
  node('paragraph', { showIf: showIf as never }, ...content);
/** The visible text of an email: its card's content, tags and markup gone. */
const visible = (html: string) =>
  html
    .slice(html.indexOf('>', html.indexOf('class="sv-pad"')) + 1)
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

describe('the condition syntax', () => {
  it('writes conditions as expressions and reads them back', () => {
    const cases: [Condition, string][] = [
      [{ var: 'plan', op: 'exists' }, 'plan'],
      [{ var: 'plan', op: 'empty' }, '!plan'],
      [{ var: 'plan', op: 'eq', value: 'tri"al' }, 'plan == "tri\\"al"'],
      [{ var: 'n', op: 'gte', value: -2.5 }, 'n >= -2.5'],
      [{ var: 'vip', op: 'ne', value: false }, 'vip != false'],
      [
        {
          all: [
            { var: 'a', op: 'lt', value: 3 },
            {
              any: [
                { var: 'b', op: 'exists' },
                { var: 'c', op: 'empty' },
              ],
            },
          ],
        },
        'a < 3 && (b || !c)',
      ],
    ];
    for (const [condition, text] of cases) {
      assert.equal(formatCondition(condition), text);
      assert.deepEqual(parseCondition(text), condition, text);
    }
  });
  it('reads nothing it cannot: no half expressions, no unknown operators', () => {
    for (const bad of ['', 'a ==', 'a === 1', 'a == b', '(a', 'a && ', '!1', 'a == "x', 'a > "3"'])
      assert.equal(parseCondition(bad), null, bad);
    // the model's bounds: 4 levels, 20 tests in a list, 64-character names; no stack to exhaust
    assert.equal(parseCondition(`${'('.repeat(100_000)}a${')'.repeat(100_000)}`), null);
    assert.deepEqual(parseCondition('((a))'), { var: 'a', op: 'exists' });
    assert.equal(parseCondition(Array(21).fill('a').join(' || ')), null);
    assert.ok(parseCondition(Array(20).fill('a').join(' || ')));
    assert.equal(parseCondition('a'.repeat(65)), null);
  });
});

describe('conditions in renderTemplate', () => {
  const email = doc(
    p(t('Hello')),
    iff({ var: 'plan', op: 'eq', value: 'trial' }, t('Trial ends soon, '), v('first_name')),
    iff({ var: 'plan', op: 'ne', value: 'trial' }, t('Thanks for paying')),
    iff({ var: 'discount', op: 'gt', value: 0 }, t('Discount applied')),
    iff({ var: 'coupon', op: 'empty' }, t('No coupon')),
    iff(
      {
        any: [
          { var: 'vip', op: 'eq', value: true },
          {
            all: [
              { var: 'n', op: 'gte', value: 10 },
              { var: 'n', op: 'lt', value: 20 },
            ],
          },
        ],
      },
      t('Special'),
    ),
  );
  const html = renderEmail(email);
  const text = renderText(email);

  it('shows each block per the data, in HTML and in text', () => {
    const trial = renderTemplate(html, { plan: 'trial', first_name: '<Ada>', discount: 5, coupon: 'X' });
    assert.equal(visible(trial.output), 'Hello Trial ends soon, <Ada> Discount applied');
    assert.match(trial.output, /Trial ends soon, &lt;Ada&gt;/, 'values escaped inside conditions too');
    const paid = renderTemplate(html, { plan: 'pro', discount: '0', vip: true });
    assert.equal(visible(paid.output), 'Hello Thanks for paying No coupon Special');
    assert.equal(
      visible(renderTemplate(html, { plan: 'pro', n: 12, coupon: '' }).output),
      'Hello Thanks for paying No coupon Special',
    );
    assert.equal(
      visible(renderTemplate(html, { plan: 'pro', n: 20, coupon: [] }).output),
      'Hello Thanks for paying No coupon',
    );
    assert.equal(
      renderTemplate(text, { plan: 'trial', first_name: 'Ada', discount: 1.5 }, { format: 'text' }).output,
      'Hello\n\nTrial ends soon, Ada\n\nDiscount applied\n\nNo coupon\n',
    );
  });

  it('compares like with like: numbers (and numeric text) for gt…, exact values for eq', () => {
    const one = (showIf: Condition, data: Record<string, unknown>) =>
      renderTemplate(renderText(doc(iff(showIf, t('yes')))), data, { format: 'text' }).output.trim() ===
      'yes';
    assert.ok(one({ var: 'n', op: 'gt', value: 9 }, { n: '10' }));
    assert.ok(!one({ var: 'n', op: 'gt', value: 9 }, { n: 'ten' }));
    assert.ok(!one({ var: 'n', op: 'gt', value: 9 }, {}));
    assert.ok(one({ var: 'n', op: 'eq', value: 3 }, { n: 3 }));
    assert.ok(!one({ var: 'n', op: 'eq', value: 3 }, { n: '3' }));
    assert.ok(one({ var: 'n', op: 'exists' }, { n: 0 }), 'zero is a value');
    assert.ok(!one({ var: 'n', op: 'exists' }, { n: false }));
    assert.ok(!one({ var: 'n.x', op: 'exists' }, { n: 'str' }));
    assert.ok(!one({ var: 'constructor', op: 'exists' }, {}), 'own properties only');
  });

  it('hides a column’s content, keeping the row', () => {
    const row = renderEmail(
      doc(
        node(
          'columns',
          { layout: '2' },
          col({ showIf: { var: 'vip', op: 'exists' } }, p(t('VIP'))),
          col(undefined, p(t('All'))),
        ),
      ),
    );
    assert.equal(visible(renderTemplate(row, {}).output), 'All');
    assert.equal(visible(renderTemplate(row, { vip: 'yes' }).output), 'VIP All');
    assert.equal((renderTemplate(row, {}).output.match(/data-block="column"/g) ?? []).length, 2);
  });
});

describe('repeats in renderTemplate', () => {
  const order = doc(
    p(t('Your order')),
    node(
      'repeat',
      { each: 'items', empty: 'No items', max: 3 },
      p(v('item.name'), t(' × '), v('item.qty', '1')),
      node('button', { text: 'View', href: 'https://shop.test/p?id={{item.id}}' }),
      node(
        'repeat',
        { each: 'item.options', empty: 'no options' },
        iff({ var: 'item.extra', op: 'exists' }, t('+ '), v('item.label')),
      ),
    ),
    p(t('Bye '), v('first_name')),
  );
  const html = renderEmail(order);

  it('repeats the content per item, with item fields, links and nested repeats', () => {
    const r = renderTemplate(html, {
      first_name: 'Ada',
      items: [
        {
          name: 'Tea <green>',
          qty: 2,
          id: 'a&b',
          options: [{ label: 'Milk', extra: true }, { label: 'Sugar' }],
        },
        { name: 'Cake', id: 7 },
      ],
    });
    assert.equal(
      visible(r.output),
      'Your order Tea <green> × 2 View + Milk Cake × 1 View no options Bye Ada',
    );
    assert.match(r.output, /href="https:\/\/shop\.test\/p\?id=a%26b"/);
    assert.match(r.output, /href="https:\/\/shop\.test\/p\?id=7"/);
    assert.match(r.output, /Tea &lt;green&gt;/);
    assert.deepEqual(r.problems, []);
    assert.ok(r.defaulted.includes('item.qty'));
  });

  it('a missing list (or one that is not a list) shows the empty state, never an error', () => {
    assert.equal(visible(renderTemplate(html, { first_name: 'Ada' }).output), 'Your order No items Bye Ada');
    const notList = renderTemplate(html, { items: 'nope' });
    assert.equal(visible(notList.output), 'Your order No items Bye');
    assert.deepEqual(
      notList.problems.map((x) => [x.code, x.name]),
      [['SEB_TEMPLATE_NOT_A_LIST', 'items']],
    );
  });

  it('shows at most max items; a runaway list is bounded and named', () => {
    const many = Array.from({ length: 1_000_000 }, (_, i) => ({ name: `n${i}` }));
    const r = renderTemplate(html, { items: many });
    assert.equal((visible(r.output).match(/View/g) ?? []).length, 3);
    assert.deepEqual(
      r.problems.map((x) => [x.code, x.name]),
      [['SEB_TEMPLATE_TOO_MANY_ITEMS', 'items']],
    );
    const all = renderTemplate('{{#each a}}{{#each item}}x{{/each}}{{/each}}', {
      a: Array(1000).fill(Array(1000).fill(1)),
    });
    assert.equal(all.output.length, MAX_TEMPLATE_ITEMS - 1000);
    assert.equal(all.problems[0]!.code, 'SEB_TEMPLATE_TOO_MANY_ITEMS');
  });

  it('the text part repeats too', () => {
    const r = renderTemplate(
      renderText(order),
      { items: [{ name: 'Tea' }, { name: 'Cake', qty: 3, options: [{ label: 'x', extra: 1 }] }] },
      { format: 'text' },
    );
    assert.equal(
      r.output,
      'Your order\n\nTea × 1\n\nView: https://shop.test/p?id=\n\nno options\n\nCake × 3\n\nView: https://shop.test/p?id=\n\n+ x\n\nBye \n',
    );
  });
});

describe('runaway and broken templates', () => {
  it('bounds nesting and names it', () => {
    const deep = `${'{{#if a}}'.repeat(100_000)}x${'{{/if}}'.repeat(100_000)}`;
    const r = renderTemplate(deep, { a: 1 });
    assert.equal(r.output, '');
    assert.deepEqual(
      r.problems.map((x) => x.code),
      ['SEB_TEMPLATE_TOO_DEEP'],
    );
    const ok = `${'{{#if a}}'.repeat(MAX_TEMPLATE_DEPTH)}x${'{{/if}}'.repeat(MAX_TEMPLATE_DEPTH)}`;
    assert.equal(renderTemplate(ok, { a: 1 }).output, 'x');
  });
  it('names tags it cannot read and leaves out what an unreadable condition guards', () => {
    const r = renderTemplate('a{{#if x ===}}b{{/if}}c{{/each}}d{{#each 1x}}e{{/each}}{{#if y}}f', { y: 1 });
    assert.equal(r.output, 'acdf');
    assert.equal(r.problems.length, 4);
    assert.ok(r.problems.every((x) => x.code === 'SEB_TEMPLATE_BAD_TAG'));
  });
  it('leaves {{else}} outside a block as the merge tag it always was', () => {
    assert.equal(renderTemplate('{{else}}', { else: 'x' }).output, 'x');
  });
  it('keeps tags inside attributes as text: data can never open a block there', () => {
    const r = renderTemplate('<p title="{{#if a}}">{{n}}</p>', { a: 1, n: 'v' });
    assert.equal(r.output, '<p title="{{#if a}}">v</p>');
  });
});
