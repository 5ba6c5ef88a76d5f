import { cleanAttrs } from '../model/attrs.js';
import type { JSONNode } from '../model/types.js';
import { type ContentProblem, PROBLEMS } from '../problems.js';
import { type BlockOptions, renderSet } from '../registry/render-set.js';

/**
 * What a document lacks that its readers or the law expect (a footer without a postal address,
 * a button without a link), block by block in document order. Pure: runs in Node too. Blocks
 * say what they need through their `problems` hook; node types it does not know are skipped
 * (rendering reports those).
 *
 * @example
 * findProblems(editor.getJSON()) // [{ code: 'SEB_PROBLEM_NO_ADDRESS', block: 'footer', path: [7], … }]
 */
export function findProblems(doc: JSONNode, options: BlockOptions = {}): ContentProblem[] {
  const set = renderSet(options.blocks);
  const out: ContentProblem[] = [];
  const walk = (node: JSONNode, path: number[]) => {
    const def = set.byName.get(node.type);
    for (const code of def?.problems?.(cleanAttrs(def.attrs, node.attrs)) ?? [])
      out.push({ code, message: PROBLEMS[code], block: node.type, path });
    node.content?.forEach((child, i) => {
      walk(child, [...path, i]);
    });
  };
  doc?.content?.forEach((child, i) => {
    walk(child, [i]);
  });
  return out;
}
