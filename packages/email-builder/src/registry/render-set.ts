import { ServiceEditorError } from '../errors.js';
import type { MarkRendering } from '../marks/rendering.js';
import type { BlockRendering } from '../nodes/rendering.js';
import { BLOCK_RENDERINGS } from './block-renderings.js';
import { MARK_RENDERINGS } from './mark-renderings.js';

/**
 * The custom blocks a document may hold besides the built-in ones: the editor's `blocks` option,
 * or only their renderings (see `defineRendering`), which keep the editing code out.
 */
export interface BlockOptions {
  blocks?: readonly BlockRendering[];
}

/**
 * The blocks and marks one renderer knows: the built-in ones, plus a host's custom blocks.
 * Everything that reads stored JSON (the renderers, `cleanDocument`, branding, problems) looks
 * blocks up here, so a custom block is known everywhere at once. The editor's `BlockSet` is
 * the same with full definitions.
 */
export interface RenderSet<
  B extends BlockRendering = BlockRendering,
  M extends MarkRendering = MarkRendering,
> {
  readonly blocks: readonly B[];
  readonly byName: ReadonlyMap<string, B>;
  readonly marks: readonly M[];
  readonly marksByName: ReadonlyMap<string, M>;
}

/** A set of these blocks and marks, looked up by name. */
export function setOf<B extends BlockRendering, M extends MarkRendering>(
  blocks: readonly B[],
  marks: readonly M[],
): RenderSet<B, M> {
  return {
    blocks,
    byName: new Map(blocks.map((b) => [b.name, b])),
    marks,
    marksByName: new Map(marks.map((m) => [m.name, m])),
  };
}

const NAME = /^[a-zA-Z][a-zA-Z0-9]{0,63}$/;

/**
 * Checks a host's custom blocks before a set is made of them. Throws `SEB_ERR_BLOCK` for the
 * first without a name, renderers or attribute table, or whose name is taken; when `editing`
 * (the editor's schema is made of them), also for one without a ProseMirror spec.
 */
export function checkCustomBlocks(custom: unknown, editing: boolean): void {
  if (!Array.isArray(custom))
    throw new ServiceEditorError('SEB_ERR_BLOCK', { name: '?', reason: 'blocks must be an array' });
  const names = new Set(BLOCK_RENDERINGS.map((b) => b.name));
  for (const block of custom) {
    const name = String(block?.name);
    const fail = (reason: string) => new ServiceEditorError('SEB_ERR_BLOCK', { name, reason });
    if (!block || typeof block !== 'object') throw fail('expected an object made with defineBlock');
    if (!NAME.test(name)) throw fail('the name must be letters and digits, starting with a letter');
    if (name === 'doc' || names.has(name)) throw fail('a block of that name exists already');
    if (typeof block.render !== 'function' || typeof block.text !== 'function')
      throw fail('render and text are required');
    if (editing && (!block.spec || typeof block.spec !== 'object')) throw fail('spec is required');
    if (!block.attrs || typeof block.attrs !== 'object') throw fail('attrs is required (use {} for none)');
    names.add(name);
  }
}

const BUILT_IN = setOf(BLOCK_RENDERINGS, MARK_RENDERINGS);

const sets = new WeakMap<readonly BlockRendering[], RenderSet>();

/**
 * The set of the built-in renderings and `custom` blocks (renderings, or full definitions,
 * which are renderings too). One set per array, so passing the same array again reuses it.
 * Throws `SEB_ERR_BLOCK` for an unusable custom block (see {@link checkCustomBlocks}).
 */
export function renderSet(custom: readonly BlockRendering[] | undefined): RenderSet {
  if (!custom || custom.length === 0) return BUILT_IN;
  const known = sets.get(custom);
  if (known) return known;
  checkCustomBlocks(custom, false);
  const set = setOf([...BLOCK_RENDERINGS, ...custom], MARK_RENDERINGS);
  sets.set(custom, set);
  return set;
}
