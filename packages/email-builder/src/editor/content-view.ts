import type { DOMParser as PMDOMParser } from 'prosemirror-model';
import { Slice } from 'prosemirror-model';
import type { EditorState, Transaction } from 'prosemirror-state';
import { EditorView, type NodeViewConstructor } from 'prosemirror-view';
import { docSettings } from '../model/doc.js';
import type { EditorHost } from '../nodes/define.js';
import { chipVariables } from '../nodes/variable/index.js';
import type { BlockSet } from '../registry/block-set.js';
import type { EditorUploads } from '../upload/editor-uploads.js';

/** What the editable email is made with. */
export interface ContentViewParts {
  state: EditorState;
  set: BlockSet;
  /** parses pasted HTML (see `input/html-parser.ts`) */
  parser: PMDOMParser;
  uploads: EditorUploads;
  /** the editor as the blocks' views see it */
  host(): EditorHost;
  editable(): boolean;
  dispatch(tr: Transaction): void;
}

/**
 * The editable email: ProseMirror's view in `place`, with the blocks' own views, the
 * document's language and direction, and what a paste or a drop brings in (images upload,
 * scripts and styles never arrive, merge tags typed as text become variable chips).
 */
export function contentView(place: HTMLElement, parts: ContentViewParts): EditorView {
  const { set, uploads } = parts;
  const schema = parts.state.schema;
  const nodeViews: Record<string, NodeViewConstructor> = {};
  for (const block of set.blocks) {
    const make = block.view;
    if (make) nodeViews[block.name] = (node, view, getPos) => make(node, view, getPos, parts.host());
  }
  return new EditorView(place, {
    state: parts.state,
    nodeViews,
    editable: () => parts.editable(),
    // the document's language and direction, as the email's content cell has them: a
    // right-to-left document is edited right to left, and spell-checked in its language
    attributes: (state) => {
      const { lang, dir } = docSettings(state.doc.attrs);
      return {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Email content',
        class: 'sv-content',
        spellcheck: 'true',
        lang,
        dir,
      };
    },
    dispatchTransaction: (tr) => parts.dispatch(tr),
    handlePaste: (_view, event) => uploads.paste(event),
    clipboardParser: parts.parser,
    handleDrop: (view, event, _slice, moved) => !moved && uploads.drop(view, event),
    transformPastedHTML: (html) =>
      html.replace(/<(script|style|iframe|object|embed|template)[\s\S]*?<\/\1\s*>/gi, ''),
    transformPasted: (slice) => {
      const content = chipVariables(slice.content, schema);
      return content === slice.content ? slice : new Slice(content, slice.openStart, slice.openEnd);
    },
  });
}
