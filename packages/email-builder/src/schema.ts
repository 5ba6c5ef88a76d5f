import { type MarkSpec, type NodeSpec, Schema } from 'prosemirror-model';
import { MARKS } from './marks/registry.js';
import { pmAttrs } from './model/attrs.js';
import { DOC_ATTRS } from './model/doc.js';
import { BLOCKS } from './nodes/registry.js';

/** Builds the ProseMirror schema from the block and mark registries. */
export function createSchema(): Schema {
  const nodes: Record<string, NodeSpec> = { doc: { content: 'block+', attrs: pmAttrs(DOC_ATTRS) } };
  for (const block of BLOCKS) nodes[block.name] = { ...block.spec, attrs: pmAttrs(block.attrs) };
  const marks: Record<string, MarkSpec> = {};
  for (const mark of MARKS) marks[mark.name] = { ...mark.spec, attrs: pmAttrs(mark.attrs) };
  return new Schema({ nodes, marks });
}
