import { ServiceEditorError } from '../errors.js';
import { explicitColor } from '../marks/ink.js';
import { cleanAttrs } from '../model/attrs.js';
import type { JSONMark, JSONNode } from '../model/types.js';
import { isInline, type RenderContext, type TextContext } from '../nodes/rendering.js';
import { escapeHtml } from '../primitives/escape.js';
import { TEXT } from '../primitives/styles.js';
import { MARK_RENDERINGS, MARK_RENDERINGS_BY_NAME } from '../registry/mark-renderings.js';
import type { RenderSet } from '../registry/render-set.js';

const RANK = new Map(MARK_RENDERINGS.map((m, i) => [m.name, i]));

function sorted(marks: readonly JSONMark[] | undefined): JSONMark[] {
  for (const m of marks ?? [])
    if (!MARK_RENDERINGS_BY_NAME.has(m.type))
      throw new ServiceEditorError('SEB_ERR_UNKNOWN_MARK', { type: String(m.type) });
  return [...(marks ?? [])].sort((x, y) => (RANK.get(x.type) ?? 0) - (RANK.get(y.type) ?? 0));
}

const key = (m: JSONMark) => `${m.type}${JSON.stringify(m.attrs ?? {})}`;

/**
 * Renders inline content to email HTML: text escaped, marks nested in registry order and kept
 * open across neighbouring text that shares them (one `<a>` for a link over bold and plain words).
 */
export function renderInline(
  set: RenderSet,
  nodes: readonly JSONNode[] | undefined,
  ctx: RenderContext,
): string {
  let out = '';
  const open: { key: string; close: string }[] = [];
  const closeTo = (depth: number) => {
    while (open.length > depth) out += open.pop()!.close;
  };
  for (const node of nodes ?? []) {
    const marks = sorted(node.marks);
    let keep = 0;
    while (keep < open.length && keep < marks.length && open[keep]!.key === key(marks[keep]!)) keep++;
    closeTo(keep);
    const text = { ink: explicitColor(marks) || TEXT };
    for (const mark of marks.slice(keep)) {
      const def = MARK_RENDERINGS_BY_NAME.get(mark.type)!;
      const tags = def.render(cleanAttrs(def.attrs, mark.attrs), ctx, text);
      out += tags?.[0] ?? '';
      open.push({ key: key(mark), close: tags?.[1] ?? '' });
    }
    if (node.type === 'text') out += escapeHtml(node.text ?? '');
    else {
      const def = set.byName.get(node.type);
      if (!def || !isInline(def))
        throw new ServiceEditorError('SEB_ERR_UNKNOWN_NODE', { type: String(node.type) });
      out += def.render(node, cleanAttrs(def.attrs, node.attrs), ctx);
    }
  }
  closeTo(0);
  return out;
}

/** Renders inline content as plain text; links are followed by their URL in parentheses. */
export function renderInlineText(
  set: RenderSet,
  nodes: readonly JSONNode[] | undefined,
  ctx: TextContext,
): string {
  let out = '';
  const list = nodes ?? [];
  for (let i = 0; i < list.length; i++) {
    const node = list[i]!;
    if (node.type === 'text') out += node.text ?? '';
    else {
      const def = set.byName.get(node.type);
      if (!def) throw new ServiceEditorError('SEB_ERR_UNKNOWN_NODE', { type: String(node.type) });
      out += def.text(node, cleanAttrs(def.attrs, node.attrs), ctx);
    }
    const link = node.marks?.find((m) => m.type === 'link');
    const next = list[i + 1]?.marks?.find((m) => m.type === 'link');
    if (link && (!next || key(next) !== key(link))) {
      // the whole run of text under one link, for the "(url)" check
      let j = i;
      let run = '';
      while (j >= 0 && list[j]!.marks?.some((m) => key(m) === key(link))) run = (list[j--]!.text ?? '') + run;
      out +=
        MARK_RENDERINGS_BY_NAME.get('link')!.textSuffix?.(
          cleanAttrs(MARK_RENDERINGS_BY_NAME.get('link')!.attrs, link.attrs),
          run,
        ) ?? '';
    }
  }
  return out;
}
