import {
  boldRendering,
  italicRendering,
  strikeRendering,
  underlineRendering,
} from '../marks/basic/render.js';
import { linkRendering } from '../marks/link/render.js';
import type { MarkRendering } from '../marks/rendering.js';
import { fontSizeRendering, highlightRendering, textColorRendering } from '../marks/style/render.js';

/**
 * The rendering of every mark, outermost first (links wrap styled text): marks render in this
 * order. One line per mark; `registry.ts` lists the editor's marks in the same order.
 */
export const MARK_RENDERINGS: readonly MarkRendering[] = [
  linkRendering,
  textColorRendering,
  highlightRendering,
  fontSizeRendering,
  boldRendering,
  italicRendering,
  underlineRendering,
  strikeRendering,
];

/** The mark renderings by name. */
export const MARK_RENDERINGS_BY_NAME: ReadonlyMap<string, MarkRendering> = new Map(
  MARK_RENDERINGS.map((m) => [m.name, m]),
);
