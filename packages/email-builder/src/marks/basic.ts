import { toggleMark } from 'prosemirror-commands';
import { defineMark } from './define.js';

// The span rules below are `consuming: false`, like the style marks' (see marks/style.ts): one
// pasted span may be bold, italic, coloured and sized at once, and every rule must see it.

/**
 * Bold. `<strong>` everywhere; pasted `font-weight` of 600 or more counts, and a weight of 400
 * or less inside bold text ends it. Google Docs wraps a whole paste in
 * `<b style="font-weight:normal" id="docs-internal-guid-…">`, which is not bold, and writes
 * each run's real weight on its span.
 */
export const bold = defineMark({
  name: 'bold',
  attrs: {},
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
  render: () => ['<strong>', '</strong>'],
});

/** Italic. */
export const italic = defineMark({
  name: 'italic',
  attrs: {},
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
  render: () => ['<em>', '</em>'],
});

/** Underline. */
export const underline = defineMark({
  name: 'underline',
  attrs: {},
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
  render: () => ['<u>', '</u>'],
});

/** Strikethrough. */
export const strike = defineMark({
  name: 'strike',
  attrs: {},
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
  render: () => ['<s>', '</s>'],
});
