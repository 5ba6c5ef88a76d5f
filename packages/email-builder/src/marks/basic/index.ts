import { toggleMark } from 'prosemirror-commands';
import { defineMark } from '../define.js';
import { boldRendering, italicRendering, strikeRendering, underlineRendering } from './render.js';

// The span rules below are `consuming: false`, like the style marks' (see marks/style/index.ts): one
// pasted span may be bold, italic, coloured and sized at once, and every rule must see it.

/**
 * Bold in the editor: pasted `font-weight` of 600 or more counts, and a weight of 400
 * or less inside bold text ends it. Google Docs wraps a whole paste in
 * `<b style="font-weight:normal" id="docs-internal-guid-…">`, which is not bold, and writes
 * each run's real weight on its span.
 */
export const bold = defineMark({
  ...boldRendering,
  keys: (type) => ({ 'Mod-b': toggleMark(type) }),
  spec: {
    parseDOM: [
      { tag: 'strong' },
      { tag: 'b', getAttrs: (dom) => (dom as HTMLElement).style.fontWeight !== 'normal' && null },
      {
        tag: 'span',
        consuming: false,
        getAttrs: (dom) => /^(bold(er)?|[6-9]\d\d)$/.test((dom as HTMLElement).style.fontWeight) && null,
      },
      {
        style: 'font-weight',
        getAttrs: (value) => /^(normal|lighter|[1-4]\d\d)$/.test(value) && null,
        clearMark: (mark) => mark.type.name === 'bold',
      },
    ],
    toDOM: () => ['strong', 0],
  },
});

/** Italic in the editor. */
export const italic = defineMark({
  ...italicRendering,
  keys: (type) => ({ 'Mod-i': toggleMark(type) }),
  spec: {
    parseDOM: [
      { tag: 'em' },
      { tag: 'i' },
      {
        tag: 'span',
        consuming: false,
        getAttrs: (dom) => (dom as HTMLElement).style.fontStyle === 'italic' && null,
      },
    ],
    toDOM: () => ['em', 0],
  },
});

/** Underline in the editor. */
export const underline = defineMark({
  ...underlineRendering,
  keys: (type) => ({ 'Mod-u': toggleMark(type) }),
  spec: {
    parseDOM: [
      { tag: 'u' },
      {
        tag: 'span',
        consuming: false,
        getAttrs: (dom) => (dom as HTMLElement).style.textDecoration.includes('underline') && null,
      },
    ],
    toDOM: () => ['u', 0],
  },
});

/** Strikethrough in the editor. */
export const strike = defineMark({
  ...strikeRendering,
  keys: (type) => ({ 'Mod-Shift-s': toggleMark(type), 'Mod-Shift-x': toggleMark(type) }),
  spec: {
    parseDOM: [
      { tag: 's' },
      { tag: 'del' },
      { tag: 'strike' },
      {
        tag: 'span',
        consuming: false,
        getAttrs: (dom) => (dom as HTMLElement).style.textDecoration.includes('line-through') && null,
      },
    ],
    toDOM: () => ['s', 0],
  },
});
