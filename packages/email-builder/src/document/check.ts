import { ServiceEditorError } from '../errors.js';
import type { JSONNode } from '../model/types.js';
import type { BlockDefinition } from '../nodes/define.js';
import { blockSet } from '../registry/block-set.js';
import { cleanDocument } from './validate.js';

/**
 * Checks a stored document completely, as the editor would load it: node and mark types and
 * attributes ({@link cleanDocument}), then the schema's content rules (a list holds list items,
 * columns hold columns…). Returns the cleaned document; throws `SEB_ERR_UNKNOWN_NODE`,
 * `SEB_ERR_UNKNOWN_MARK` or `SEB_ERR_BAD_CONTENT`. Pure; runs in Node (the server checks
 * templates with it). `options.blocks` are the custom blocks as the editor takes them: the
 * schema is made of their specs, so a rendering alone throws `SEB_ERR_BLOCK`.
 */
export function checkDocument(doc: unknown, options: { blocks?: readonly BlockDefinition[] } = {}): JSONNode {
  const cleaned = cleanDocument(doc, options);
  if (!cleaned.content?.length) cleaned.content = [{ type: 'paragraph' }];
  const set = blockSet(options.blocks);
  try {
    set.schema().nodeFromJSON(cleaned).check();
  } catch (error) {
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', {
      reason: error instanceof Error ? error.message : String(error),
    });
  }
  return cleaned;
}
