import { ICONS, svg } from './chrome.js';

/**
 * The icons of the built-in blocks in the slash menu, which a slash item names (`icon:
 * 'h1'`) rather than carries, so that they load with the menu at the first "/" and not in the
 * first load.
 */
const BLOCK_ICONS: Record<string, string> = {
  image: ICONS.image,
  text: svg('<path d="M4 7V4h16v3M9 20h6M12 4v16"/>'),
  h1: svg('<path d="M4 12h8M4 18V6M12 18V6M17 12l3-2v8"/>'),
  h2: svg('<path d="M4 12h8M4 18V6M12 18V6M21 18h-4c0-4 4-3 4-6 0-1.5-2-2.5-4-1"/>'),
  h3: svg(
    '<path d="M4 12h8M4 18V6M12 18V6M17.5 10.5c1.7-1 3.5 0 3.5 1.5a2 2 0 0 1-2 2M17 17.5c2 1.5 4 .3 4-1.5a2 2 0 0 0-2-2"/>',
  ),
  bullet: svg('<path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01"/>'),
  ordered: svg('<path d="M10 6h11M10 12h11M10 18h11M4 6h1v4M4 10h2M6 18H4c0-1 2-2 2-3s-1-1.5-2-1"/>'),
  quote: svg(
    '<path d="M3 21c3 0 7-1 7-8V5c0-1.25-.76-2.02-2-2H4c-1.25 0-2 .75-2 1.97V11c0 1.25.75 2 2 2 1 0 1 0 1 1v1c0 1-1 2-2 2s-1 .01-1 1.03V20c0 1 0 1 1 1z"/><path d="M15 21c3 0 7-1 7-8V5c0-1.25-.76-2.02-2-2h-4c-1.25 0-2 .75-2 1.97V11c0 1.25.75 2 2 2h.75c0 2.25.25 4-2.75 4v3c0 1 0 1 1 1z"/>',
  ),
  button: svg('<rect x="3" y="8" width="18" height="8" rx="3"/><path d="M8 12h8"/>'),
  logo: svg('<path d="M12 2 2 7l10 5 10-5-10-5zM2 17l10 5 10-5M2 12l10 5 10-5"/>'),
  divider: svg('<path d="M3 12h18"/>'),
  spacer: svg('<path d="M12 3v18M8 7l4-4 4 4M8 17l4 4 4-4"/>'),
  columns: svg('<rect x="3" y="3" width="18" height="18" rx="2"/><path d="M12 3v18"/>'),
  columns3: svg('<rect x="3" y="3" width="18" height="18" rx="2"/><path d="M9 3v18M15 3v18"/>'),
  social: svg(
    '<circle cx="18" cy="5" r="3"/><circle cx="6" cy="12" r="3"/><circle cx="18" cy="19" r="3"/><path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4"/>',
  ),
  footer: svg('<rect x="3" y="3" width="18" height="18" rx="2"/><path d="M3 15h18"/>'),
  signature: svg('<path d="M3 17c3-3 4-9 6-9s0 8 2 8 2-4 4-4 1 3 3 3 2-1 3-1M3 21h18"/>'),
  badge: svg('<path d="M12 2 3 7v.5L12 22l9-14.5V7z"/>'),
  variable: svg(
    '<path d="M8 3H7a2 2 0 0 0-2 2v5a2 2 0 0 1-2 2 2 2 0 0 1 2 2v5a2 2 0 0 0 2 2h1M16 21h1a2 2 0 0 0 2-2v-5a2 2 0 0 1 2-2 2 2 0 0 1-2-2V5a2 2 0 0 0-2-2h-1"/>',
  ),
};

/** An item's icon: a built-in block icon by name, else the item's own SVG markup. */
export function slashIcon(icon: string): string {
  return Object.hasOwn(BLOCK_ICONS, icon) ? BLOCK_ICONS[icon]! : icon;
}
