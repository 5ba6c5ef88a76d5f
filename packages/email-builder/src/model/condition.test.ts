// A block's showIf: checked by the model, never a crash whatever the JSON holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doc, node, p, t } from '../../test-support/doc.js';
import { checkDocument } from '../document/check.js';
import { cleanDocument } from '../document/validate.js';
import { ServiceEditorError } from '../errors.js';
import { renderEmail } from '../render/email.js';
import { conditionProblem, isCondition } from './condition.js';

describe('conditions (showIf)', () => {
  it('accepts each operator and all / any', () => {
    for (const c of [
      { var: 'plan', op: 'exists' },
      { var: 'plan', op: 'empty' },
      { var: 'plan', op: 'eq', value: 'trial' },
      { var: 'plan', op: 'ne', value: 3 },
      { var: 'vip', op: 'eq', value: true },
      { var: 'order.total', op: 'gt', value: 10 },
      { var: 'order.total', op: 'gte', value: 0.5 },
      { var: 'n', op: 'lt', value: -1 },
      { var: 'n', op: 'lte', value: 0 },
      {
        all: [
          { var: 'a', op: 'exists' },
          {
            any: [
              { var: 'b', op: 'empty' },
              { var: 'c', op: 'eq', value: 'x' },
            ],
          },
        ],
      },
    ])
      assert.equal(conditionProblem(c), null, JSON.stringify(c));
  });

  it('names what is wrong, with its path, for anything else', () => {
    const cases: [unknown, RegExp][] = [
      [null, /expected an object/],
      ['plan', /expected an object/],
      [[], /expected an object/],
      [{ var: 'plan', op: 'is', value: 'x' }, /^op: must be one of exists, empty, eq/],
      [{ var: '1st', op: 'exists' }, /^var: expected a variable name/],
      [{ var: 'a', op: 'exists', value: 1 }, /^value: "exists" takes no value/],
      [{ var: 'a', op: 'gt', value: '10' }, /^value: "gt" compares with a number/],
      [{ var: 'a', op: 'eq', value: { x: 1 } }, /^value: "eq" compares with text/],
      [{ var: 'a', op: 'eq', value: 'a}}b' }, /without braces/],
      [{ var: 'a', op: 'eq', value: Number.NaN }, /finite/],
      [{ var: 'a', op: 'eq', value: 'x', extra: 1 }, /^extra: unknown key/],
      [{ all: [] }, /^all: expected a list of 1 to 20/],
      [
        {
          any: [
            { var: 'a', op: 'exists' },
            { var: 'b', op: 'nope' },
          ],
        },
        /^any\[1\]\.op: must be one of/,
      ],
      [{ all: [{ var: 'a', op: 'exists' }], var: 'x' }, /holds nothing else/],
      [{ all: [{ all: [{ all: [{ all: [{ all: [{ var: 'a', op: 'exists' }] }] }] }] }] }, /nest at most 4/],
    ];
    for (const [value, problem] of cases) {
      assert.match(conditionProblem(value) ?? 'null', problem, JSON.stringify(value));
      assert.equal(isCondition(value), false);
    }
  });

  it('a malformed condition is a coded error from validation and rendering, with where it is', () => {
    const bad = doc(p(t('ok')), node('paragraph', { showIf: { var: 'plan', op: 'is' } }, t('x')));
    for (const run of [() => cleanDocument(bad), () => checkDocument(bad), () => renderEmail(bad)]) {
      assert.throws(run, (e: unknown) => {
        assert.ok(e instanceof ServiceEditorError);
        assert.equal(e.code, 'SEB_ERR_BAD_CONDITION');
        assert.match(e.message, /paragraph.*op: must be one of/);
        return true;
      });
    }
    assert.throws(() => cleanDocument(bad), /doc\.content\[1\] \(paragraph\)/);
    assert.throws(
      () => cleanDocument(doc(p(node('variable', { name: 'a', showIf: { var: 'a', op: 'exists' } })))),
      /conditions go on blocks, not on text/,
    );
  });

  it('validation keeps a good condition, and a document without any is as before', () => {
    const showIf = { var: 'plan', op: 'eq', value: 'trial' };
    const cleaned = checkDocument(doc(node('paragraph', { showIf }, t('x'))));
    assert.deepEqual(cleaned.content![0]!.attrs, { textAlign: 'left', showIf });
    assert.deepEqual(checkDocument(doc(p(t('x')))).content![0]!.attrs, { textAlign: 'left' });
  });

  it('repeats nest one level deep, no further', () => {
    const rep = (...content: ReturnType<typeof p>[]) => node('repeat', { each: 'items' }, ...content);
    assert.doesNotThrow(() => checkDocument(doc(rep(rep(p(t('x')))))));
    assert.throws(() => checkDocument(doc(rep(rep(rep(p(t('x'))))))), /repeats nest one level deep/);
  });
});
