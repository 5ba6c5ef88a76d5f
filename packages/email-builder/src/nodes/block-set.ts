import type { Schema } from 'prosemirror-model';
import { ServiceEditorError } from '../errors.js';
import type { MarkDefinition } from '../marks/define.js';
import { MARKS } from '../marks/registry.js';
import { createSchema } from '../schema.js';
import type { BlockDefinition } from './define.js';
import { BLOCKS } from './registry.js';

/**
 * The blocks and marks one editor or one renderer knows: the built-in ones, plus a host's
 * custom blocks. Everything that reads a document (the schema, `checkDocument`, the renderers,
 * branding, problems) looks blocks up here, so a custom block is known everywhere at once.
 */
export interface BlockSet {
  readonly blocks: readonly BlockDefinition[];
  readonly byName: ReadonlyMap<string, BlockDefinition>;
  readonly marks: readonly MarkDefinition[];
  readonly marksByName: ReadonlyMap<string, MarkDefinition>;
  /** The ProseMirror schema of these blocks and marks, built on first use. */
  schema(): Schema;
}

const NAME = /^[a-zA-Z][a-zA-Z0-9]{0,63}$/;

function makeSet(blocks: readonly BlockDefinition[]): BlockSet {
  let schema: Schema | undefined;
  const set: BlockSet = {
    blocks,
    byName: new Map(blocks.map((b) => [b.name, b])),
    marks: MARKS,
    marksByName: new Map(MARKS.map((m) => [m.name, m])),
    schema: () => (schema ??= createSchema(set)),
  };
  return set;
}

/** The built-in blocks alone. */
export const BUILT_IN: BlockSet = makeSet(BLOCKS);

const sets = new WeakMap<readonly BlockDefinition[], BlockSet>();

/**
 * The set of the built-in blocks and `custom` ones (after them, in the slash menu too). One set
 * per array, so passing the same array again reuses its schema. Throws `SEB_ERR_BLOCK` for a
 * custom block without a name, renderers or spec, or whose name is taken.
 */
export function blockSet(custom: readonly BlockDefinition[] | undefined): BlockSet {
  if (!custom || custom.length === 0) return BUILT_IN;
  const known = sets.get(custom);
  if (known) return known;
  if (!Array.isArray(custom))
    throw new ServiceEditorError('SEB_ERR_BLOCK', { name: '?', reason: 'blocks must be an array' });
  const names = new Set(BLOCKS.map((b) => b.name));
  for (const block of custom) {
    const name = String((block as Partial<BlockDefinition>)?.name);
    const fail = (reason: string) => new ServiceEditorError('SEB_ERR_BLOCK', { name, reason });
    if (!block || typeof block !== 'object') throw fail('expected an object made with defineBlock');
    if (!NAME.test(name)) throw fail('the name must be letters and digits, starting with a letter');
    if (name === 'doc' || names.has(name)) throw fail('a block of that name exists already');
    if (typeof block.render !== 'function' || typeof block.text !== 'function')
      throw fail('render and text are required');
    if (!block.spec || typeof block.spec !== 'object') throw fail('spec is required');
    if (!block.attrs || typeof block.attrs !== 'object') throw fail('attrs is required (use {} for none)');
    names.add(name);
  }
  const set = makeSet([...BLOCKS, ...custom]);
  sets.set(custom, set);
  return set;
}
