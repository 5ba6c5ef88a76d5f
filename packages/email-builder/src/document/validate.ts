import { ServiceEditorError } from '../errors.js';
import { cleanAttrs } from '../model/attrs.js';
import { conditionProblem } from '../model/condition.js';
import { DOC_ATTRS } from '../model/doc.js';
import type { JSONMark, JSONNode } from '../model/types.js';
import { isInline } from '../nodes/rendering.js';
import { MARK_RENDERINGS_BY_NAME } from '../registry/mark-renderings.js';
import { type BlockOptions, type RenderSet, renderSet } from '../registry/render-set.js';

function cleanMark(mark: JSONMark, path: string): JSONMark {
  if (!mark || typeof mark !== 'object')
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', { reason: `a mark at ${path} is not an object` });
  const def = MARK_RENDERINGS_BY_NAME.get(mark.type);
  if (!def) throw new ServiceEditorError('SEB_ERR_UNKNOWN_MARK', { type: String(mark.type) });
  const attrs = cleanAttrs(def.attrs, mark.attrs);
  return Object.keys(attrs).length ? { type: mark.type, attrs } : { type: mark.type };
}

/**
 * Checks a stored document's JSON before it is loaded or rendered: every node and mark type must
 * exist (an unknown one throws `SEB_ERR_UNKNOWN_NODE` / `SEB_ERR_UNKNOWN_MARK`, never silently
 * disappears), and every attribute is checked against its block's table (unsafe URLs emptied).
 * Returns the cleaned copy; content rules are checked by the schema afterwards.
 */
export function cleanDocument(doc: unknown, options: BlockOptions = {}): JSONNode {
  if (!doc || typeof doc !== 'object' || (doc as JSONNode).type !== 'doc') {
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', { reason: 'expected an object with type "doc"' });
  }
  const root = doc as JSONNode;
  return {
    type: 'doc',
    attrs: cleanAttrs(DOC_ATTRS, root.attrs),
    content: cleanChildren(renderSet(options.blocks), root.content, 'doc', 0),
  };
}

/** How deep repeats may nest: a repeat inside a repeat, no further (an order's lines and their options). */
export const MAX_REPEAT_DEPTH = 2;

function cleanChildren(set: RenderSet, content: unknown, path: string, repeats: number): JSONNode[] {
  if (content === undefined) return [];
  if (!Array.isArray(content))
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', { reason: `${path}.content is not an array` });
  return content.map((child, i) => cleanNode(set, child, `${path}.content[${i}]`, repeats));
}

function cleanNode(set: RenderSet, node: unknown, path: string, repeats: number): JSONNode {
  if (!node || typeof node !== 'object')
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', { reason: `${path} is not an object` });
  const n = node as JSONNode;
  const def = set.byName.get(n.type);
  if (!def || n.type === 'doc')
    throw new ServiceEditorError('SEB_ERR_UNKNOWN_NODE', { type: String(n.type) });
  const out: JSONNode = { type: n.type };
  if (Object.keys(def.attrs).length) out.attrs = cleanAttrs(def.attrs, n.attrs);
  const showIf = n.attrs && typeof n.attrs === 'object' ? n.attrs.showIf : undefined;
  if (showIf !== undefined && showIf !== null) {
    const where = `${path} (${n.type})`;
    if (isInline(def))
      throw new ServiceEditorError('SEB_ERR_BAD_CONDITION', {
        block: where,
        reason: 'conditions go on blocks, not on text',
      });
    const problem = conditionProblem(showIf);
    if (problem) throw new ServiceEditorError('SEB_ERR_BAD_CONDITION', { block: where, reason: problem });
    out.attrs = { ...out.attrs, showIf: structuredClone(showIf) };
  }
  const depth = n.type === 'repeat' ? repeats + 1 : repeats;
  if (depth > MAX_REPEAT_DEPTH)
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', {
      reason: `${path}: repeats nest one level deep (a repeat in a repeat), no further`,
    });
  if (n.type === 'text') {
    if (typeof n.text !== 'string' || n.text === '')
      throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', { reason: `${path} has no text` });
    out.text = n.text;
  } else if (n.content !== undefined) {
    out.content = cleanChildren(set, n.content, path, depth);
  }
  if (n.marks !== undefined) {
    if (!Array.isArray(n.marks))
      throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', { reason: `${path}.marks is not an array` });
    out.marks = n.marks.map((m, i) => cleanMark(m, `${path}.marks[${i}]`));
  }
  return out;
}
