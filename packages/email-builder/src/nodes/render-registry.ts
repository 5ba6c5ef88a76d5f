import { badgeRendering } from './badge/render.js';
import { blockquoteRendering } from './blockquote/render.js';
import { buttonRendering } from './button/render.js';
import { columnRendering, columnsRendering } from './columns/render.js';
import { dividerRendering } from './divider/render.js';
import { footerRendering } from './footer/render.js';
import { headingRendering } from './heading/render.js';
import { imageRendering } from './image/render.js';
import { hardBreakRendering, textRendering } from './inline/render.js';
import { bulletListRendering, listItemRendering, orderedListRendering } from './lists/render.js';
import { logoRendering } from './logo/render.js';
import { paragraphRendering } from './paragraph/render.js';
import type { BlockRendering } from './rendering.js';
import { repeatRendering } from './repeat/render.js';
import { signatureRendering } from './signature/render.js';
import { socialLinksRendering } from './social/render.js';
import { spacerRendering } from './spacer/render.js';
import { variableRendering } from './variable/render.js';

/**
 * The rendering of every built-in node, one line each, in the order of `registry.ts` (a test
 * keeps the two in step). The renderers, branding and problems read documents through these
 * alone, so they never load the editor's half of a block.
 */
export const BLOCK_RENDERINGS: readonly BlockRendering[] = [
  paragraphRendering,
  headingRendering,
  bulletListRendering,
  orderedListRendering,
  listItemRendering,
  blockquoteRendering,
  buttonRendering,
  imageRendering,
  logoRendering,
  dividerRendering,
  spacerRendering,
  columnsRendering,
  columnRendering,
  repeatRendering,
  socialLinksRendering,
  footerRendering,
  signatureRendering,
  badgeRendering,
  variableRendering,
  hardBreakRendering,
  textRendering,
];
