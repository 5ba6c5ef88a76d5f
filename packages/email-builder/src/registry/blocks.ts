import { badge } from '../nodes/badge/index.js';
import { blockquote } from '../nodes/blockquote/index.js';
import { button } from '../nodes/button/index.js';
import { column, columns } from '../nodes/columns/index.js';
import type { BlockDefinition } from '../nodes/define.js';
import { divider } from '../nodes/divider/index.js';
import { footer } from '../nodes/footer/index.js';
import { heading } from '../nodes/heading/index.js';
import { image } from '../nodes/image/index.js';
import { hardBreak, text } from '../nodes/inline/index.js';
import { bulletList, listItem, orderedList } from '../nodes/lists/index.js';
import { logo } from '../nodes/logo/index.js';
import { paragraph } from '../nodes/paragraph/index.js';
import { repeat } from '../nodes/repeat/index.js';
import { signature } from '../nodes/signature/index.js';
import { socialLinks } from '../nodes/social/index.js';
import { spacer } from '../nodes/spacer/index.js';
import { variable } from '../nodes/variable/index.js';

/**
 * Every built-in node of the editor, one line each, each built from its rendering in
 * `render-registry.ts`. The order is the schema's (the first block is the default) and the slash
 * menu's. `block-set.ts` adds a host's custom blocks after them.
 */
export const BLOCKS: readonly BlockDefinition[] = [
  paragraph,
  heading,
  bulletList,
  orderedList,
  listItem,
  blockquote,
  button,
  image,
  logo,
  divider,
  spacer,
  columns,
  column,
  repeat,
  socialLinks,
  footer,
  signature,
  badge,
  variable,
  hardBreak,
  text,
];
