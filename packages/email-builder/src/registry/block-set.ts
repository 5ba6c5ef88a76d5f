import type { Schema } from 'prosemirror-model';
import type { MarkDefinition } from '../marks/define.js';
import type { BlockDefinition } from '../nodes/define.js';
import { BLOCKS } from './blocks.js';
import { MARKS } from './marks.js';
import { checkCustomBlocks, type RenderSet, setOf } from './render-set.js';
import { createSchema } from './schema.js';

/**
 * The blocks and marks one editor knows, with their editing halves: the built-in ones, plus a
 * host's custom blocks. The schema, `checkDocument`, the keys and the menus read them here; the
 * renderers read the same blocks through a `RenderSet`, which leaves the editing code out.
 */
export interface BlockSet extends RenderSet<BlockDefinition, MarkDefinition> {
  /** The ProseMirror schema of these blocks and marks, built on first use. */
  schema(): Schema;
}

function makeSet(blocks: readonly BlockDefinition[]): BlockSet {
  let schema: Schema | undefined;
  const set: BlockSet = { ...setOf(blocks, MARKS), schema: () => (schema ??= createSchema(set)) };
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
  checkCustomBlocks(custom, true);
  const set = makeSet([...BLOCKS, ...custom]);
  sets.set(custom, set);
  return set;
}
