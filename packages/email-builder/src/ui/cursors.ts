import { type EditorState, Plugin, type PluginView } from 'prosemirror-state';
import type { DecorationSource, EditorView } from 'prosemirror-view';
import { whenUiLoads } from './lazy-ui.js';

/**
 * The drop cursor (the line where a dragged block or image will land) and the gap cursor (the
 * caret between two blocks that hold no text, such as two images), standing in the first load
 * for `prosemirror-dropcursor` and `prosemirror-gapcursor`, which load with the editing UI: at
 * the first focus, pointer or drag over the editor, before any of them is needed (a key
 * pressed in the few ms it takes moves as ProseMirror moves without a gap cursor). A plugin
 * cannot be added to a live editor without every plugin's view being made anew, so this one
 * is there from the start and forwards to theirs once loaded; both keep no plugin state.
 */
export function cursors(): Plugin {
  let loaded: Plugin[] = [];
  let views: PluginView[] = [];
  const load = (view: EditorView) =>
    whenUiLoads((ui) => {
      if (view.isDestroyed || loaded.length) return;
      loaded = ui.cursorPlugins();
      views = loaded.flatMap((p) => p.spec.view?.(view) ?? []);
    });
  /** The first of the loaded plugins' `name` props that answers. */
  const first = <T>(call: (props: Plugin['props']) => T | null | undefined | false): T | false => {
    for (const p of loaded) {
      const answer = call(p.props);
      if (answer) return answer;
    }
    return false;
  };
  return new Plugin({
    view: (view) => {
      const wake = () => load(view);
      for (const type of ['focus', 'pointerover', 'dragenter'] as const)
        view.dom.addEventListener(type, wake);
      return {
        update: (v, prev) => {
          for (const pv of views) pv.update?.(v, prev);
        },
        destroy: () => {
          for (const type of ['focus', 'pointerover', 'dragenter'] as const)
            view.dom.removeEventListener(type, wake);
          for (const pv of views) pv.destroy?.();
          views = [];
        },
      };
    },
    props: {
      decorations(state: EditorState): DecorationSource | null {
        return first((props) => props.decorations?.call(this, state)) || null;
      },
      createSelectionBetween(view, $anchor, $head) {
        return first((props) => props.createSelectionBetween?.call(this, view, $anchor, $head)) || null;
      },
      handleClick(view, pos, event) {
        return first((props) => props.handleClick?.call(this, view, pos, event));
      },
      handleKeyDown(view, event) {
        return first((props) => props.handleKeyDown?.call(this, view, event));
      },
      handleDOMEvents: {
        beforeinput(view, event) {
          return first((props) => props.handleDOMEvents?.beforeinput?.call(this, view, event));
        },
      },
    },
  });
}
