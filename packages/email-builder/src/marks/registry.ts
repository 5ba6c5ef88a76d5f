import { bold, italic, strike, underline } from './basic/index.js';
import type { MarkDefinition } from './define.js';
import { link } from './link/index.js';
import { fontSize, highlight, textColor } from './style/index.js';

/**
 * Every mark of the editor, one line per mark, each built from its rendering in
 * `render-registry.ts` and in the same order (outermost first).
 */
export const MARKS: readonly MarkDefinition[] = [
  link,
  textColor,
  highlight,
  fontSize,
  bold,
  italic,
  underline,
  strike,
];
