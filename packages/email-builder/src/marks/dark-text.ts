import type { Mark, Node as PMNode } from 'prosemirror-model';
import { type EditorState, Plugin, PluginKey } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';
import { changedBlocks } from '../model/changed-blocks.js';
import { type DocSettings, docSettings } from '../model/doc.js';
import { isHexColor } from '../primitives/color.js';
import { darkSurface, darkTextColor, highlightTextColor } from '../primitives/dark-color.js';
import { TEXT } from '../primitives/styles.js';
import { explicitColor } from './ink.js';

const key = new PluginKey<DecorationSet>('darkText');

/**
 * The colour text with these marks shows in dark mode on `surface`, or '' when it keeps the
 * theme's text colour: on a highlight, a colour that reads on it; else an explicit colour's
 * counterpart, when it differs.
 */
function darkColor(marks: readonly Mark[], surface: string): string {
  const color = explicitColor(marks.map((m) => ({ type: m.type.name, attrs: m.attrs })));
  const highlight = marks.find((m) => m.type.name === 'highlight')?.attrs.color;
  if (isHexColor(highlight)) return highlightTextColor(color || TEXT, highlight);
  const dark = color && darkTextColor(color, surface);
  return dark !== color ? dark : '';
}

/** Decorations for the text inside `node` (whose content starts at `start`), on `surface`. */
function collect(node: PMNode, start: number, surface: string, s: DocSettings, out: Decoration[]): void {
  node.forEach((child, offset) => {
    const pos = start + offset;
    if (child.isText) {
      const dark = darkColor(child.marks, surface);
      if (dark)
        out.push(
          Decoration.inline(pos, pos + child.nodeSize, {
            class: 'sv-dark-text',
            style: `--sv-dark-text:${dark}`,
          }),
        );
    } else if (child.childCount > 0) {
      const panel = child.type.name === 'column' && Boolean(child.attrs.backgroundColor);
      collect(child, pos + 1, panel ? darkSurface(s, true) : surface, s, out);
    }
  });
}

/** Decorations for the top-level blocks of `doc` that overlap `from`–`to`. */
function decorations(doc: PMNode, from: number, to: number): Decoration[] {
  const s = docSettings(doc.attrs);
  const out: Decoration[] = [];
  // only the blocks in the range are visited (and the loop stops at `to`)
  doc.nodesBetween(from, to, (block, offset) => {
    collect(block, offset + 1, darkSurface(s, false), s, out);
    return false;
  });
  return out;
}

const darkColorsChanged = (a: EditorState, b: EditorState) =>
  a.doc.attrs.darkCanvas !== b.doc.attrs.darkCanvas || a.doc.attrs.darkBorder !== b.doc.attrs.darkBorder;

/**
 * The editor's view of explicit text colours in its dark colour scheme: text whose email HTML
 * carries a colour inline (a text colour mark, a link) gets `class="sv-dark-text"` and
 * `--sv-dark-text`, the colour's dark-mode counterpart on the surface it sits on (the email's
 * dark background or a darkened panel's), and the dark theme's stylesheet shows that colour.
 * Highlighted text gets a colour that reads on its highlight ({@link highlightTextColor}),
 * which keeps its light background. So the author sees what Apple Mail and other
 * `prefers-color-scheme: dark` clients will show ({@link darkTextColor}); light mode, and the
 * document, keep the author's colour.
 *
 * Decorations rather than the mark's `toDOM`: the counterpart depends on the document's dark
 * colours and on whether the text sits on a panel, which a mark cannot see. Only the top-level
 * blocks a transaction touched are looked at again, unless the dark colours changed.
 */
export function darkTextPlugin(): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key,
    state: {
      init: (_config, state) =>
        DecorationSet.create(state.doc, decorations(state.doc, 0, state.doc.content.size)),
      apply(tr, set, before, after) {
        if (!tr.docChanged) return set;
        if (darkColorsChanged(before, after))
          return DecorationSet.create(tr.doc, decorations(tr.doc, 0, tr.doc.content.size));
        const range = changedBlocks(tr);
        const mapped = set.map(tr.mapping, tr.doc);
        if (!range) return mapped;
        const [from, to] = range;
        return mapped.remove(mapped.find(from, to)).add(tr.doc, decorations(tr.doc, from, to));
      },
    },
    props: { decorations: (state) => key.getState(state) },
  });
}
