// The condition badges follow the document through edits while only the top-level blocks a
// change touched are scanned again (issue 38, keystroke on 1,000 blocks): after every edit the
// badges are exactly those a scan of the whole document gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { history, undo } from 'prosemirror-history';
import { Node as PMNode } from 'prosemirror-model';
import { EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import type { DecorationSet } from 'prosemirror-view';
import { col, doc, node, p, t } from '../../test-support/doc.js';
import { BUILT_IN } from '../registry/block-set.js';
import { conditionBadges } from './condition-badge.js';

const schema = BUILT_IN.schema();
const trial = { var: 'plan', op: 'eq', value: 'trial' };
const vip = { var: 'vip', op: 'exists' };
const ifP = (showIf: object, text: string) => node('paragraph', { showIf }, t(text));

/** The badges of `state` as `from-to label`, in document order. */
function shown(state: EditorState): string[] {
  const set = state.plugins[0]!.getState(state) as DecorationSet;
  return set
    .find()
    .map((d) => `${d.from}-${d.to} ${d.spec.label}`)
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
}

/** The badges a fresh scan of `state`'s document gives. */
const scanned = (state: EditorState) =>
  shown(EditorState.create({ doc: state.doc, plugins: [conditionBadges()] }));

/** Applies each edit in turn, checking the badges against a fresh scan after each. */
function follow(start: EditorState, ...edits: [string, (s: EditorState) => Transaction][]): EditorState {
  let state = start;
  for (const [what, edit] of edits) {
    state = state.apply(edit(state));
    assert.deepEqual(shown(state), scanned(state), what);
  }
  return state;
}

const start = () =>
  EditorState.create({
    doc: PMNode.fromJSON(
      schema,
      doc(
        p(t('first')),
        ifP(trial, 'trial only'),
        p(t('between')),
        ifP(vip, 'vip only'),
        node('columns', undefined, col({ showIf: trial }, p(t('L'))), col(undefined, p(t('R')))),
        p(t('last')),
      ),
    ),
    plugins: [conditionBadges(), history()],
  });

/** The position just inside the end of the `n`th top-level block. */
const endOf = (state: EditorState, n: number) => {
  let pos = 0;
  for (let i = 0; i < n; i++) pos += state.doc.child(i).nodeSize;
  return pos + state.doc.child(n).nodeSize - 1;
};
const startOf = (state: EditorState, n: number) => endOf(state, n) - state.doc.child(n).nodeSize + 2;

describe('condition badges', () => {
  it('badge every block and column with a condition', () => {
    const labels = shown(start()).map((b) => b.replace(/^\S+ /, ''));
    assert.deepEqual(labels, ['if plan == "trial"', 'if vip', 'if plan == "trial"']);
  });

  it('stay right through typing, in a badged block and beside one', () => {
    follow(
      start(),
      ['typing in a badged block', (s) => s.tr.insertText('x', endOf(s, 1))],
      ['typing in the block after one', (s) => s.tr.insertText('y', startOf(s, 2))],
      ['typing in the block before one', (s) => s.tr.insertText('z', endOf(s, 2))],
      ['typing in a badged column', (s) => s.tr.insertText('w', startOf(s, 4) + 2)],
      ['typing in the first block', (s) => s.tr.insertText('v', 1)],
    );
  });

  it('follow a condition set, changed and removed from the settings (an attribute step)', () => {
    const state = follow(
      start(),
      ['set on a plain block', (s) => s.tr.setNodeAttribute(startOf(s, 2) - 1, 'showIf', vip)],
      ['changed', (s) => s.tr.setNodeAttribute(startOf(s, 1) - 1, 'showIf', vip)],
      ['removed', (s) => s.tr.setNodeAttribute(startOf(s, 3) - 1, 'showIf', null)],
      ['set on a column', (s) => s.tr.setNodeAttribute(endOf(s, 4) - 5, 'showIf', vip)],
    );
    assert.equal(shown(state).length, 4);
    assert.match(shown(state)[0]!, / if vip$/);
  });

  it('follow blocks split, joined, deleted, replaced and undone', () => {
    follow(
      start(),
      ['a badged block split', (s) => s.tr.split(startOf(s, 1) + 2)],
      ['joined to the block before', (s) => s.tr.join(startOf(s, 1) - 1)],
      ['a badged block deleted', (s) => s.tr.delete(startOf(s, 3) - 1, endOf(s, 3) + 1)],
      [
        'everything replaced',
        (s) =>
          s.tr.replaceWith(
            0,
            s.doc.content.size,
            PMNode.fromJSON(schema, doc(ifP(vip, 'new'), p(t('x')))).content,
          ),
      ],
      [
        'undone',
        (s) => {
          let tr: Transaction | undefined;
          undo(s, (t) => {
            tr = t;
          });
          return tr!;
        },
      ],
      ['a selection change only', (s) => s.tr.setSelection(TextSelection.create(s.doc, 1))],
    );
  });
});
