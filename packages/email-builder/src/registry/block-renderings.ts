import { badgeRendering } from '../nodes/badge/render.js';
import { blockquoteRendering } from '../nodes/blockquote/render.js';
import { buttonRendering } from '../nodes/button/render.js';
import { columnRendering, columnsRendering } from '../nodes/columns/render.js';
import { dividerRendering } from '../nodes/divider/render.js';
import { footerRendering } from '../nodes/footer/render.js';
import { headingRendering } from '../nodes/heading/render.js';
import { imageRendering } from '../nodes/image/render.js';
import { hardBreakRendering, textRendering } from '../nodes/inline/render.js';
import { bulletListRendering, listItemRendering, orderedListRendering } from '../nodes/lists/render.js';
import { logoRendering } from '../nodes/logo/render.js';
import { paragraphRendering } from '../nodes/paragraph/render.js';
import type { BlockRendering } from '../nodes/rendering.js';
import { repeatRendering } from '../nodes/repeat/render.js';
import { signatureRendering } from '../nodes/signature/render.js';
import { socialLinksRendering } from '../nodes/social/render.js';
import { spacerRendering } from '../nodes/spacer/render.js';
import { variableRendering } from '../nodes/variable/render.js';

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
