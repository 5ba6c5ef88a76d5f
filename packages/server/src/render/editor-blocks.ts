/**
 * The editor's custom blocks on the server (`EDITOR_BLOCKS`): the same module the host passes
 * to the editor's `blocks` option, so templates holding those blocks check and render here as
 * they do in the browser. Checked once at start, where a mistake stops the server with a
 * message naming the variable, rather than failing every render later.
 */
import type { BlockDefinition } from '@service/email-builder';
import { ConfigError } from '../config.js';

/** The blocks a module exports: `blocks`, or its default export. */
export function blocksOf(module: Record<string, unknown>): unknown {
  return module.blocks ?? module.default;
}

export async function loadEditorBlocks(url: string): Promise<readonly BlockDefinition[]> {
  let module: Record<string, unknown>;
  try {
    module = await import(url);
  } catch (error) {
    throw new ConfigError(`EDITOR_BLOCKS: ${url} could not be loaded: ${(error as Error).message}`);
  }
  const blocks = blocksOf(module);
  if (!Array.isArray(blocks))
    throw new ConfigError(
      'EDITOR_BLOCKS must name a module exporting `blocks`: an array of blocks made with defineBlock',
    );
  // the editor's code is loaded only here, for this check: the renders run on their own threads
  const { checkDocument } = await import('@service/email-builder');
  try {
    // Builds the block set and its schema: a bad definition throws here.
    checkDocument({ type: 'doc', content: [{ type: 'paragraph' }] }, { blocks });
  } catch (error) {
    throw new ConfigError(`EDITOR_BLOCKS: ${(error as Error).message}`);
  }
  return blocks;
}
