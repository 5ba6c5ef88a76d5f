import type { MarkRendering } from '../rendering.js';

/** Bold: `<strong>` everywhere. */
export const boldRendering: MarkRendering = {
  name: 'bold',
  attrs: {},
  render: () => ['<strong>', '</strong>'],
};

/** Italic. */
export const italicRendering: MarkRendering = { name: 'italic', attrs: {}, render: () => ['<em>', '</em>'] };

/** Underline. */
export const underlineRendering: MarkRendering = {
  name: 'underline',
  attrs: {},
  render: () => ['<u>', '</u>'],
};

/** Strikethrough. */
export const strikeRendering: MarkRendering = { name: 'strike', attrs: {}, render: () => ['<s>', '</s>'] };
