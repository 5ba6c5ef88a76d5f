// The `variables` option with shapes (issue 38): what is accepted, what fails at construction
// (naming the place and what was expected), and what the menus and the preview make of it.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ServiceEditorError } from './errors.js';
import { checkVariables } from './options.js';
import { sampleData } from './variables/sample-data.js';
import { variablesInScope } from './variables/scope.js';
import type { VariableOption } from './variables/shape.js';

const ITEMS: VariableOption = {
  name: 'items',
  type: 'array',
  of: [
    { name: 'name', label: 'Product', sample: 'Socks' },
    { name: 'price', type: 'number', sample: 12.5 },
    { name: 'options', of: [{ name: 'colour', sample: 'red' }] },
  ],
};
const CUSTOMER: VariableOption = {
  name: 'customer',
  fields: [
    { name: 'email', sample: 'ada@example.com' },
    { name: 'vip', type: 'boolean', sample: true },
    { name: 'address', fields: [{ name: 'city', sample: 'Paris' }] },
  ],
};

/** The SEB_ERR_OPTIONS message `checkVariables` throws for `list`. */
const failure = (list: unknown[]): string => {
  try {
    checkVariables(list as VariableOption[]);
  } catch (e) {
    assert.ok(e instanceof ServiceEditorError);
    assert.equal(e.code, 'SEB_ERR_OPTIONS');
    return e.message;
  }
  assert.fail(`accepted ${JSON.stringify(list)}`);
};

describe('the variables option', () => {
  const warnings: string[] = [];
  const warn = console.warn;
  beforeEach(() => {
    warnings.length = 0;
    console.warn = (m: string) => warnings.push(m);
  });
  afterEach(() => {
    console.warn = warn;
  });

  it('keeps every earlier form as it was: names, { name, label, fallback, sample }, dotted names', () => {
    const list = [
      'first_name',
      { name: 'order.total', label: 'Order total', fallback: ' $0{ ', sample: 3 },
      { name: 'lines', sample: [{ name: 'Tea' }] },
      { name: 'flag', sample: 'not a boolean, and nothing says it is one' },
    ];
    assert.deepEqual(checkVariables(list), [
      { name: 'first_name', fallback: '' },
      { name: 'order.total', label: 'Order total', fallback: '$0', sample: 3 },
      { name: 'lines', sample: [{ name: 'Tea' }], fallback: '' },
      { name: 'flag', sample: 'not a boolean, and nothing says it is one', fallback: '' },
    ]);
    assert.deepEqual(warnings, []);
  });

  it('leaves out a name that is no variable name with a warning, as before', () => {
    assert.deepEqual(checkVariables(['bad name', { name: 'ok' }]), [{ name: 'ok', fallback: '' }]);
    assert.match(warnings.join('\n'), /Invalid option variables: "bad name" is not a variable name/);
  });

  it('accepts objects and lists with their fields, types and samples', () => {
    const checked = checkVariables([ITEMS, CUSTOMER, { name: 'tags', type: 'array', sample: ['a'] }]);
    assert.deepEqual(
      checked.map((v) => v.name),
      ['items', 'customer', 'tags'],
    );
    assert.equal(checked[0]!.of, ITEMS.of);
  });

  it('fails at construction naming the place and what was expected', () => {
    const cases: [unknown, RegExp][] = [
      [
        { name: 'x', type: 'date' },
        /variables\[0\]\.type: expected one of text, number, boolean, object, array/,
      ],
      [{ name: 'x', type: 'text', fields: [] }, /variables\[0\]\.fields: expected fields .* type "object"/],
      [{ name: 'x', fields: [{ name: 'a' }], of: [] }, /variables\[0\]\.of: expected fields .* type "array"/],
      [{ name: 'x', of: 'text' }, /variables\[0\]\.of: expected fields/],
      [{ name: 'x', of: [{ name: 'a.b' }] }, /variables\[0\]\.of\[0\]\.name: expected a field name/],
      [{ name: 'x', of: [{ label: 'no name' }] }, /variables\[0\]\.of\[0\]\.name: expected a field name/],
      [{ name: 'x', of: [null] }, /variables\[0\]\.of\[0\]\.name: expected a field name/],
      [
        { name: 'x', of: [{ name: 'a', fields: [{ name: 'b', type: 'nope' }] }] },
        /variables\[0\]\.of\[0\]\.fields\[0\]\.type: expected one of/,
      ],
      [
        { name: 'x', type: 'number', sample: '12' },
        /variables\[0\]\.sample: expected a sample of type "number"/,
      ],
      [
        { name: 'x', type: 'array', sample: { a: 1 } },
        /variables\[0\]\.sample: expected a sample of type "array"/,
      ],
      [{ name: 'x', fields: [], sample: [1] }, /variables\[0\]\.sample: expected a sample of type "object"/],
      [{ name: 'x', of: [{ name: 'p', type: 'number', sample: 'x' }] }, /variables\[0\]\.of\[0\]\.sample/],
    ];
    for (const [entry, message] of cases) assert.match(failure([entry]), message, JSON.stringify(entry));
    // the index is the entry's own
    assert.match(failure(['a', { name: 'b', type: 'x' }]), /variables\[1\]\.type/);
  });

  it('bounds the nesting (a shape that refers to itself fails, never recurses for ever)', () => {
    const loop: { name: string; fields: unknown[] } = { name: 'x', fields: [] };
    loop.fields.push(loop);
    assert.match(
      failure([loop]),
      /variables\[0\](\.fields\[0\]){4}\.fields: expected fields .*4 deep at most/,
    );
  });
});

describe('the variables at a place of the email', () => {
  const paths = (repeats?: string[]) =>
    variablesInScope([ITEMS, CUSTOMER, { name: 'plan', sample: 'trial' }], repeats).map(
      (v) => `${v.path}:${v.type}${v.writable ? '' : ' (not written)'}`,
    );

  it('reaches into objects, and offers lists and objects as such, not as tags', () => {
    assert.deepEqual(paths(), [
      'items:array (not written)',
      'customer:object (not written)',
      'customer.email:text',
      'customer.vip:boolean',
      'customer.address:object (not written)',
      'customer.address.city:text',
      'plan:text',
    ]);
  });

  it('offers the item of the innermost repeat first, its nested list for a repeat inside', () => {
    assert.deepEqual(paths(['items']).slice(0, 3), [
      'item.name:text',
      'item.price:number',
      'item.options:array (not written)',
    ]);
    assert.deepEqual(paths(['items', 'item.options']).slice(0, 2), [
      'item.colour:text',
      'items:array (not written)',
    ]);
    assert.deepEqual(paths(['unknown']), paths(), 'a list nobody describes adds no item');
  });

  it('reads an undeclared object’s fields from its sample, at most 4 deep', () => {
    const sample: Record<string, unknown> = { name: 'Ada' };
    sample.self = sample;
    assert.deepEqual(
      variablesInScope([{ name: 'me', sample }]).map((v) => v.path),
      [
        'me',
        'me.name',
        'me.self',
        'me.self.name',
        'me.self.self',
        'me.self.self.name',
        'me.self.self.self',
        'me.self.self.self.name',
        'me.self.self.self.self',
      ],
    );
  });

  it('reads an undeclared list’s items from its sample, and a list of plain values as item', () => {
    const scope = variablesInScope(
      [
        { name: 'lines', sample: [{ name: 'Tea', qty: 2 }, { sku: 'T1' }] },
        { name: 'tags', type: 'array', sample: ['a', 'b'] },
      ],
      ['lines'],
    );
    assert.deepEqual(
      scope.map((v) => `${v.path}:${v.type}:${v.writable}`),
      [
        'item.name:text:true',
        'item.qty:number:true',
        'item.sku:text:true',
        'lines:array:true',
        'tags:array:false',
      ],
    );
    assert.deepEqual(
      variablesInScope([{ name: 'tags', type: 'array', sample: ['a', 'b'] }], ['tags']).map((v) => v.path),
      ['item', 'tags'],
    );
  });
});

describe('the preview’s sample data', () => {
  it('uses each sample, and makes an object’s or a list’s from its fields’ samples', () => {
    assert.deepEqual(sampleData([ITEMS, CUSTOMER, { name: 'order.total', sample: 3 }, { name: 'none' }]), {
      items: [{ name: 'Socks', price: 12.5, options: [{ colour: 'red' }] }],
      customer: { email: 'ada@example.com', vip: true, address: { city: 'Paris' } },
      order: { total: 3 },
    });
  });

  it('prefers a list’s own sample items to the one made of its fields', () => {
    const items = {
      ...ITEMS,
      sample: [
        { name: 'Tea', price: 3 },
        { name: 'Cake', price: 4 },
      ],
    };
    assert.deepEqual(sampleData([items]), { items: items.sample });
  });
});
