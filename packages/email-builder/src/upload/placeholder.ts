import { Plugin, PluginKey } from 'prosemirror-state';
import { Decoration, DecorationSet, type EditorView } from 'prosemirror-view';

type Meta = { add: { id: string; pos: number; dom: HTMLElement } } | { remove: string };

const key = new PluginKey<DecorationSet>('uploadPlaceholders');

/**
 * Inline placeholders for images being uploaded after a paste or drop: a widget that follows its
 * position through edits, shows progress, then is replaced by the image or by an error message.
 * Nothing enters the document until the upload has a URL, so a failure loses nothing.
 */
export function placeholderPlugin(): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key,
    state: {
      init: () => DecorationSet.empty,
      apply(tr, set) {
        let next = set.map(tr.mapping, tr.doc);
        const meta = tr.getMeta(key) as Meta | undefined;
        if (meta && 'add' in meta) {
          const widget = Decoration.widget(meta.add.pos, meta.add.dom, { id: meta.add.id, side: -1 });
          next = next.add(tr.doc, [widget]);
        } else if (meta && 'remove' in meta) {
          next = next.remove(next.find(undefined, undefined, (spec) => spec.id === meta.remove));
        }
        return next;
      },
    },
    props: { decorations: (state) => key.getState(state) },
  });
}

/** Adds a placeholder widget. */
export function addPlaceholder(view: EditorView, id: string, pos: number, dom: HTMLElement): void {
  view.dispatch(view.state.tr.setMeta(key, { add: { id, pos, dom } }));
}

/** Where a placeholder now is, or null if its spot was deleted. */
export function findPlaceholder(view: EditorView, id: string): number | null {
  const found = key.getState(view.state)?.find(undefined, undefined, (spec) => spec.id === id);
  return found?.[0]?.from ?? null;
}

/** Removes a placeholder. */
export function removePlaceholder(view: EditorView, id: string): void {
  view.dispatch(view.state.tr.setMeta(key, { remove: id }));
}
