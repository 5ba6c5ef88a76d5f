// The output for other engines, rendered by the real handlebars, liquidjs and mustache packages,
// shows the same text as renderTemplate gives for the editor's own output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Handlebars from 'handlebars';
import { Liquid } from 'liquidjs';
import Mustache from 'mustache';
import { col, doc, fullDocument, node, p, t } from '../../test-support/doc.js';
import { ServiceEditorError } from '../errors.js';
import type { Condition } from '../model/condition.js';
import type { JSONNode } from '../model/types.js';
import { renderEmail, renderText } from '../render/email.js';
import { handlebarsHelpers, type TemplateSyntax } from './export-syntax.js';
import { renderTemplate } from './render-template.js';

const v = (name: string, fallback = '') => node('variable', { name, fallback });
const iff = (showIf: Condition, ...content: JSONNode[]) =>
  node('paragraph', { showIf: showIf as never }, ...content);

const handlebars = Handlebars.create();
handlebars.registerHelper(handlebarsHelpers);
const liquid = new Liquid();
const engines: Record<TemplateSyntax, (template: string, data: object) => string> = {
  handlebars: (template, data) => handlebars.compile(template)(data),
  liquid: (template, data) => liquid.parseAndRenderSync(template, data),
  mustache: (template, data) => Mustache.render(template, data),
};

const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** What a reader sees: the card's text (no head, no Outlook-only part, no markup), spaces collapsed. */
const visible = (html: string) =>
  decode(
    html
      .slice(html.indexOf('>', html.indexOf('class="sv-pad"')) + 1)
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
const lines = (text: string) => text.replace(/\n{2,}/g, '\n').trim();

const order = doc(
  p(t('Hi '), v('first_name', 'friend & co'), t(', plan '), v('plan')),
  iff({ var: 'plan', op: 'eq', value: 'trial' }, t('Trial ends in '), v('days'), t(' days')),
  iff({ var: 'plan', op: 'ne', value: 'trial' }, t('Thanks for paying')),
  iff({ var: 'discount', op: 'gt', value: 0 }, t('Discount applied')),
  iff({ var: 'coupon', op: 'empty' }, t('No coupon')),
  iff({ var: 'coupon', op: 'exists' }, t('Coupon '), v('coupon')),
  iff(
    {
      any: [
        { var: 'vip', op: 'eq', value: true },
        {
          all: [
            { var: 'days', op: 'gte', value: 10 },
            { var: 'days', op: 'lt', value: 20 },
          ],
        },
      ],
    },
    t('Special'),
  ),
  iff(
    {
      all: [
        { var: 'first_name', op: 'exists' },
        { var: 'days', op: 'lte', value: 3 },
      ],
    },
    t('Hurry'),
  ),
  node(
    'repeat',
    { each: 'items', empty: 'No items', max: 3 },
    p(v('item.name'), t(' × '), v('item.qty', '1'), t(' for '), v('first_name', 'you')),
    iff({ var: 'item.price', op: 'gt', value: 10 }, t('Pricey')),
    node('button', { text: 'View', href: 'https://shop.test/p?id={{item.id}}' }),
    node('repeat', { each: 'item.options', empty: 'no options' }, p(t('+ '), v('item.label'))),
  ),
  node(
    'columns',
    { layout: '2' },
    col({ showIf: { var: 'vip', op: 'exists' } }, p(t('VIP'))),
    col(undefined, p(t('All'))),
  ),
  p(t('Bye')),
);

const DATA: Record<string, unknown>[] = [
  {},
  { first_name: 'Ada <3', plan: 'trial', days: 2, coupon: 'SAVE', discount: 5 },
  {
    first_name: 'Bo',
    plan: 'pro',
    days: 12,
    vip: true,
    discount: 0,
    coupon: '',
    items: [
      { name: 'Tea "green"', qty: 2, price: 12, id: 'a&b', options: [{ label: 'Milk' }, { label: 'Sugar' }] },
      { name: 'Cake', price: 3, id: 7 },
      { name: 'Jam', qty: 1, options: [] },
      { name: 'Past max' },
    ],
  },
  { plan: 'pro', days: 25, items: [] },
];

describe('export to other template engines', () => {
  for (const syntax of ['handlebars', 'liquid'] as const) {
    it(`${syntax}: the same visible text as renderTemplate, for each set of data, in HTML and text`, () => {
      const html = renderEmail(order, { syntax });
      const text = renderText(order, { syntax });
      const ownHtml = renderEmail(order);
      const ownText = renderText(order);
      for (const data of DATA) {
        const expected = visible(renderTemplate(ownHtml, data).output);
        assert.equal(
          visible(engines[syntax](html, data)),
          expected,
          `${syntax} html ${JSON.stringify(data)}`,
        );
        assert.equal(
          lines(engines[syntax](text, data)),
          lines(renderTemplate(ownText, data, { format: 'text' }).output),
          `${syntax} text ${JSON.stringify(data)}`,
        );
      }
      // the test is not vacuous: the data sets show different text
      assert.equal(new Set(DATA.map((d) => visible(renderTemplate(ownHtml, d).output))).size, DATA.length);
    });
  }

  // Mustache has sections (is there a value?) and no comparisons: a document using only exists
  // and empty, and repeats, exports; anything else is refused with a clear error.
  const plain = doc(
    p(t('Hi '), v('first_name', 'friend')),
    iff({ var: 'coupon', op: 'exists' }, t('Coupon '), v('coupon')),
    iff(
      {
        all: [
          { var: 'coupon', op: 'empty' },
          { var: 'first_name', op: 'exists' },
        ],
      },
      t('No coupon for '),
      v('first_name'),
    ),
    node(
      'repeat',
      { each: 'items', empty: 'No items' },
      p(v('item.name'), t(' for '), v('first_name', 'you')),
      node('repeat', { each: 'item.tags' }, p(t('#'), v('item'))),
    ),
  );
  it('mustache: the same visible text for what it can express', () => {
    const html = renderEmail(plain, { syntax: 'mustache' });
    const text = renderText(plain, { syntax: 'mustache' });
    for (const data of [
      {},
      { first_name: 'Ada', coupon: 'X', items: [{ name: 'Tea', tags: ['hot', 'new'] }, { name: 'Jam' }] },
      { first_name: 'Bo', items: [] },
    ]) {
      assert.equal(
        visible(engines.mustache(html, data)),
        visible(renderTemplate(renderEmail(plain), data).output),
      );
      assert.equal(
        lines(engines.mustache(text, data)),
        lines(renderTemplate(renderText(plain), data, { format: 'text' }).output),
      );
    }
  });
  it('mustache: comparisons and "any" are refused with SEB_ERR_SYNTAX, naming what', () => {
    assert.throws(
      () => renderEmail(order, { syntax: 'mustache' }),
      (e: unknown) =>
        e instanceof ServiceEditorError &&
        e.code === 'SEB_ERR_SYNTAX' &&
        /Mustache cannot compare values: "plan eq"/.test(e.message),
    );
    assert.throws(
      () =>
        renderText(
          doc(
            iff(
              {
                any: [
                  { var: 'a', op: 'exists' },
                  { var: 'b', op: 'exists' },
                ],
              },
              t('x'),
            ),
          ),
          { syntax: 'mustache' },
        ),
      /Mustache has no "or"/,
    );
  });

  it('writes each engine’s tags', () => {
    const small = doc(
      p(v('name', 'you')),
      iff({ var: 'plan', op: 'eq', value: 'trial' }, t('T')),
      node('repeat', { each: 'items', max: 5 }, p(v('item.name'), v('shop'))),
    );
    assert.match(
      renderText(small, { syntax: 'handlebars' }),
      /^\{\{#if name includeZero=true\}\}\{\{\{name\}\}\}\{\{else\}\}you\{\{\/if\}\}\n\n\{\{#if \(eq plan "trial"\)\}\}\nT\n\{\{\/if\}\}\n\n\{\{#each \(limit items 5\) as \|item\|\}\}\n\{\{\{item\.name\}\}\}\{\{\{@root\.shop\}\}\}\n\n\{\{\/each\}\}\n$/,
    );
    assert.match(
      renderText(small, { syntax: 'liquid' }),
      /\{% if plan == "trial" %\}\nT\n\{% endif %\}\n\n\{% for item in items limit: 5 %\}\n\{\{ item\.name \}\}\{\{ shop \}\}/,
    );
    assert.match(renderEmail(small, { syntax: 'liquid' }), /\{\{ item\.name \| escape \}\}/);
    assert.match(
      renderText(doc(node('repeat', { each: 'items' }, p(v('item.name')))), { syntax: 'mustache' }),
      /\{\{#items\}\}\n\{\{\{name\}\}\}\n\n\{\{\/items\}\}/,
    );
  });

  it('leaves the round-trip markers’ tags inert: no engine fills them, a browser reads them back', () => {
    const html = renderEmail(doc(node('button', { text: 'Go', href: '{{url}}' })), { syntax: 'handlebars' });
    assert.match(html, /data-attrs="[^"]*&#123;&#123;url&#125;&#125;/);
    assert.match(engines.handlebars(html, { url: 'https://x.test/' }), /<a href="https:\/\/x\.test\/"/);
  });

  it('without syntax, the output is the editor’s own; an unknown syntax is refused', () => {
    const full = fullDocument();
    assert.equal(renderEmail(full, { syntax: undefined }), renderEmail(full));
    assert.throws(
      () => renderEmail(full, { syntax: 'jinja' as never }),
      /SEB_ERR_SYNTAX: .*must be one of handlebars, liquid, mustache/,
    );
  });

  it('the full sample document exports to Handlebars and Liquid and renders there', () => {
    const full = fullDocument();
    const data = { first_name: 'Ada', plan: 'trial <"pro">', days: 3, items: [{ name: 'Tea' }], vip: 1 };
    for (const syntax of ['handlebars', 'liquid'] as const)
      assert.equal(
        visible(engines[syntax](renderEmail(full, { syntax }), data)),
        visible(renderTemplate(renderEmail(full), data).output),
        syntax,
      );
  });
});
