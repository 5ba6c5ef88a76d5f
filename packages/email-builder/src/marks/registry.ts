import { bold, italic, strike, underline } from './basic.js';
import type { MarkDefinition } from './define.js';
import { link } from './link.js';
import { fontSize, highlight, textColor } from './style.js';

/** Every mark, outermost first (links wrap styled text). One line per mark. */
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

/** The marks by name. */
export const MARKS_BY_NAME: ReadonlyMap<string, MarkDefinition> = new Map(MARKS.map((m) => [m.name, m]));
