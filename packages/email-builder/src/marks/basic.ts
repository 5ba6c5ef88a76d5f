import { defineMark } from './define.js';

/** Bold. `<strong>` everywhere; pasted `font-weight` of 600 or more counts. */
export const bold = defineMark({
  name: 'bold',
  attrs: {},
  spec: {
    parseDOM: [
      { tag: 'strong' },
      { tag: 'b', getAttrs: (dom) => (dom as HTMLElement).style.fontWeight !== 'normal' && null },
      {
        tag: 'span',
        getAttrs: (dom) => /^(bold(er)?|[6-9]\d\d)$/.test((dom as HTMLElement).style.fontWeight) && null,
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
  spec: {
    parseDOM: [
      { tag: 'em' },
      { tag: 'i' },
      { tag: 'span', getAttrs: (dom) => (dom as HTMLElement).style.fontStyle === 'italic' && null },
    ],
    toDOM: () => ['em', 0],
  },
  render: () => ['<em>', '</em>'],
});

/** Underline. */
export const underline = defineMark({
  name: 'underline',
  attrs: {},
  spec: {
    parseDOM: [
      { tag: 'u' },
      {
        tag: 'span',
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
  spec: {
    parseDOM: [
      { tag: 's' },
      { tag: 'del' },
      { tag: 'strike' },
      {
        tag: 'span',
        getAttrs: (dom) => (dom as HTMLElement).style.textDecoration.includes('line-through') && null,
      },
    ],
    toDOM: () => ['s', 0],
  },
  render: () => ['<s>', '</s>'],
});
