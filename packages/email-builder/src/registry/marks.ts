import { bold, italic, strike, underline } from '../marks/basic/index.js';
import type { MarkDefinition } from '../marks/define.js';
import { link } from '../marks/link/index.js';
import { fontSize, highlight, textColor } from '../marks/style/index.js';

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
