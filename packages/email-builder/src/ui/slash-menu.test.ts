import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EditorState, TextSelection } from 'prosemirror-state';
import { BUILT_IN } from '../registry/block-set.js';
import { filterItems, findTrigger } from './slash-menu.js';
import { groupItems } from './slash-popup.js';

const schema = BUILT_IN.schema();
const ITEMS = BUILT_IN.blocks.flatMap((b) => b.slash ?? []);

/** The state of a paragraph holding `text` with the cursor at its end. */
function typed(text: string): EditorState {
  const doc = schema.node('doc', null, [schema.node('paragraph', null, text ? schema.text(text) : [])]);
  const state = EditorState.create({ doc });
  return state.apply(state.tr.setSelection(TextSelection.atEnd(state.doc)));
}
const query = (text: string) => findTrigger(typed(text))?.query ?? null;
const titles = (q: string) => filterItems(ITEMS, q).map((item) => item.title);

describe('the "/" trigger', () => {
  it('takes a query with spaces, as titles have them', () => {
    assert.equal(query('/heading 2'), 'heading 2');
    assert.equal(query('Intro /social links'), 'social links');
    assert.equal(query('/xyz '), 'xyz ');
    assert.equal(query('/'), '');
  });

  it('spans from the slash to the cursor, for the chosen item to replace', () => {
    assert.deepEqual(findTrigger(typed('Hi /columns 3')), { from: 4, to: 14, query: 'columns 3' });
  });

  it('is no trigger in ordinary writing', () => {
    assert.equal(query('and/or'), null, 'a slash inside a word');
    assert.equal(query('a / b'), null, 'a space right after the slash');
    assert.equal(query('a / '), null);
    assert.equal(query(`/${'a'.repeat(25)}`), null, 'longer than 24 characters');
    assert.equal(query(`/${'a'.repeat(24)}`), 'a'.repeat(24));
  });
});

describe('slash menu filtering', () => {
  it('finds an item by the words of its title', () => {
    assert.equal(titles('heading 2')[0], 'Heading 2');
    assert.equal(titles('heading 2').length, 1);
    assert.deepEqual(titles('social links'), ['Social links']);
    assert.equal(titles('columns 3')[0], 'Columns 3 equal');
    assert.equal(titles('Columns  3 ')[0], 'Columns 3 equal', 'spacing and case do not matter');
  });

  it('matches the words in any order, against title words and keywords', () => {
    assert.equal(titles('2 columns')[0], 'Columns 2 equal');
    assert.deepEqual(titles('h2'), ['Heading 2']);
    assert.deepEqual(titles('medium title'), ['Heading 2']);
  });

  it('finds nothing when one word matches nothing', () => {
    assert.deepEqual(titles('heading 9'), []);
    assert.deepEqual(titles('button today'), []);
  });

  it('ranks single words as before: title start, title word, keyword', () => {
    assert.deepEqual(titles('cta'), ['Button']);
    // title words (lists, links), then keywords (Button's "link", Divider's "line")
    assert.deepEqual(titles('li'), ['Bulleted list', 'Numbered list', 'Social links', 'Button', 'Divider']);
    assert.deepEqual(titles('s').slice(0, 4), ['Spacer', 'Section', 'Social links', 'Signature']);
  });
});

describe('slash menu groups', () => {
  const grouped = (q: string) =>
    groupItems(filterItems(ITEMS, q), q !== '').map((g) => [g.group, g.items.map((i) => i.title)]);

  it('lists every built-in item under one of the five headings, in their order', () => {
    assert.deepEqual(
      grouped('').map(([group]) => group),
      ['Text', 'Media', 'Layout', 'Brand', 'Variables'],
    );
    assert.equal(grouped('').flatMap(([, titles]) => titles).length, ITEMS.length);
  });

  it('orders the groups by their best match once a query is typed', () => {
    assert.deepEqual(grouped('li'), [
      ['Text', ['Bulleted list', 'Numbered list']],
      ['Brand', ['Social links']],
      ['Media', ['Button']],
      ['Layout', ['Divider']],
    ]);
  });

  it('puts an item without a group under More, after the known groups', () => {
    const card = { ...ITEMS[0]!, id: 'card', title: 'Product card', group: undefined };
    assert.deepEqual(
      groupItems([card, ITEMS[0]!], false).map((g) => g.group),
      ['Text', 'More'],
    );
  });
});
