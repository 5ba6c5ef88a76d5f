import { badge } from './badge/index.js';
import { blockquote } from './blockquote/index.js';
import { button } from './button/index.js';
import { column, columns } from './columns/index.js';
import type { BlockDefinition } from './define.js';
import { divider } from './divider/index.js';
import { footer } from './footer/index.js';
import { heading } from './heading/index.js';
import { image } from './image/index.js';
import { hardBreak, text } from './inline/index.js';
import { bulletList, listItem, orderedList } from './lists/index.js';
import { logo } from './logo/index.js';
import { paragraph } from './paragraph/index.js';
import { repeat } from './repeat/index.js';
import { signature } from './signature/index.js';
import { socialLinks } from './social/index.js';
import { spacer } from './spacer/index.js';
import { variable } from './variable/index.js';

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
