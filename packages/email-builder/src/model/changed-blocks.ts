import { AddMarkStep, AttrStep, RemoveMarkStep, type Transform } from 'prosemirror-transform';

/**
 * Where in the new document `tr` changed anything, widened to whole top-level blocks: `[from,
 * to]`, or null if nowhere. What a plugin's state derived block by block (badges, dark-mode text
 * colours) needs to look at again after a transaction; the rest of a long email only moves, so a
 * keystroke costs the block it lands in, not every block of the document.
 */
export function changedBlocks(tr: Transform): [number, number] | null {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  tr.steps.forEach((step, i) => {
    const rest = tr.mapping.slice(i + 1);
    const widen = (start: number, end: number) => {
      from = Math.min(from, rest.map(start, -1));
      to = Math.max(to, rest.map(end, 1));
    };
    tr.mapping.maps[i]!.forEach((_oldStart, _oldEnd, start, end) => {
      widen(start, end);
    });
    // Adding or removing a mark (a colour from the bubble menu) or setting a node's attribute (a
    // block's condition from its settings) moves nothing, so its step map is empty: its own
    // range is what changed.
    if (step instanceof AddMarkStep || step instanceof RemoveMarkStep) widen(step.from, step.to);
    if (step instanceof AttrStep) widen(step.pos, step.pos + 1);
  });
  if (from > to) return null;
  const [$from, $to] = [tr.doc.resolve(from), tr.doc.resolve(to)];
  return [$from.depth > 0 ? $from.before(1) : from, $to.depth > 0 ? $to.after(1) : to];
}
