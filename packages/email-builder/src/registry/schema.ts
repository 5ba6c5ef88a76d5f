import { type MarkSpec, type NodeSpec, Schema } from 'prosemirror-model';
import { pmAttrs } from '../model/attrs.js';
import { DOC_ATTRS } from '../model/doc.js';
import { isInline } from '../nodes/rendering.js';
import type { BlockSet } from './block-set.js';

/** Builds the ProseMirror schema of a set of blocks and marks (use `BlockSet.schema()`, which caches it). */
export function createSchema(set: Pick<BlockSet, 'blocks' | 'marks'>): Schema {
  const nodes: Record<string, NodeSpec> = { doc: { content: 'block+', attrs: pmAttrs(DOC_ATTRS) } };
  for (const block of set.blocks) {
    const spec: NodeSpec = { ...block.spec, attrs: pmAttrs(block.attrs) };
    // a rendering that sits in text makes an inline node, as its spec need not repeat
    if (isInline(block)) spec.inline = true;
    // any block may carry a display condition (model/condition.ts), kept through editing
    else if (block.name !== 'text') spec.attrs = { ...spec.attrs, showIf: { default: null } };
    nodes[block.name] = spec;
  }
  const marks: Record<string, MarkSpec> = {};
  for (const mark of set.marks) marks[mark.name] = { ...mark.spec, attrs: pmAttrs(mark.attrs) };
  return new Schema({ nodes, marks });
}
