import type { JSONMark, JSONNode } from '../model/types.js';
import { BLOCKS_BY_NAME } from '../nodes/registry.js';
import type { BrandSettings } from '../options.js';
import { mix, readable, textOn } from '../render/contrast.js';
import { BRAND_NETWORKS, type Brand, checkBranding } from './check.js';

/**
 * The colour the starter templates use for "the brand", and its pale tint. When branding is
 * applied to a template, buttons, dividers, badges, accents and tinted sections in these colours
 * take the brand colour instead.
 */
export const TEMPLATE_ACCENT = '#4f46e5';
export const TEMPLATE_TINT = '#eef2ff';

/** The pale tint of a colour, for section backgrounds and badges. */
export const tint = (color: string): string => mix(color, '#ffffff', 0.88);

type Attrs = Record<string, unknown>;

const defined = (o: Attrs): Attrs =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/**
 * The attributes a block takes from the brand: the logo's light and dark images, the social
 * networks given (only those), the button's colour (with a readable label colour), the footer's
 * contact and unsubscribe details, the signature. Values the brand does not give are absent.
 */
export function brandAttrs(type: string, brand: Brand): Attrs {
  const { logo, socialMedia, brandColor, unsubscribe, contact, signature } = brand;
  switch (type) {
    case 'logo':
      return defined({ src: logo.light, darkSrc: logo.dark, alt: signature.company });
    case 'socialLinks': {
      const links = BRAND_NETWORKS.filter((n) => socialMedia[n]).map((n) => ({
        network: n,
        url: socialMedia[n]!,
      }));
      return links.length ? { links } : {};
    }
    case 'button':
      return brandColor ? { backgroundColor: brandColor, textColor: textOn(brandColor) } : {};
    case 'footer':
      return defined({
        company: signature.company,
        address: contact.address,
        email: contact.email,
        phone: contact.phone,
        unsubscribeText: unsubscribe.text,
        unsubscribeUrl: unsubscribe.link,
      });
    case 'signature':
      return defined({
        avatar: signature.avatar,
        name: signature.name,
        position: signature.position,
        company: signature.company,
      });
    default:
      return {};
  }
}

/** Which colours stand for the brand before the change, and what they become. */
interface ColourMap {
  bg: Map<string, string>;
  text: Map<string, string>;
}

/** The colour of a button nobody has styled (the button block's default). */
const BUTTON_DEFAULT = '#18181b';

function colourMap(next: Brand, previous: Brand | null): ColourMap | null {
  const to = next.brandColor;
  const from = previous?.brandColor ?? TEMPLATE_ACCENT;
  if (!to || from === to) return null;
  const fromTint = previous?.brandColor ? tint(from) : TEMPLATE_TINT;
  return {
    bg: new Map([
      [from, to],
      [fromTint, tint(to)],
    ]),
    text: new Map([
      [from, readable(to)],
      [readable(from), readable(to)],
    ]),
  };
}

/** Colour attributes by block or mark, and whether each is a background or a text colour. */
const COLOUR_ROLES: Record<string, Record<string, 'bg' | 'text'>> = {
  badge: { backgroundColor: 'bg', textColor: 'text' },
  column: { backgroundColor: 'bg' },
  divider: { color: 'bg' },
  textColor: { color: 'text' },
  highlight: { color: 'bg' },
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The attributes of one block or mark after a brand change, or `null` when nothing changes.
 * Without `previous` (a template being loaded) every value the brand gives wins, and the
 * template's accent colour becomes the brand colour. With `previous` (a live `setBranding`), a
 * value follows the new brand only where it still holds the previous brand's value or the
 * block's default: people's own edits stay.
 */
export function rebrandAttrs(type: string, attrs: Attrs, next: Brand, previous: Brand | null): Attrs | null {
  const out: Attrs = { ...attrs };
  let changed = false;
  const set = (key: string, value: unknown) => {
    if (!same(out[key], value)) {
      out[key] = value;
      changed = true;
    }
  };
  const table = BLOCKS_BY_NAME.get(type)?.attrs ?? {};
  const current = (key: string) => attrs[key] ?? table[key]?.default;
  const given = brandAttrs(type, next);
  const before = previous ? brandAttrs(type, previous) : null;
  if (type === 'button') {
    // The label colour follows the button colour, never on its own. Buttons in another colour
    // than the brand's (a deliberate secondary button) are left alone.
    const bg = String(current('backgroundColor')).toLowerCase();
    const follows = before?.backgroundColor
      ? bg === before.backgroundColor
      : bg === TEMPLATE_ACCENT || bg === BUTTON_DEFAULT;
    if (given.backgroundColor && follows) {
      set('backgroundColor', given.backgroundColor);
      set('textColor', given.textColor);
    }
  } else {
    for (const [key, value] of Object.entries(given)) {
      const untouched =
        !before ||
        same(current(key), table[key]?.default) ||
        (key in before && same(current(key), before[key]));
      if (untouched) set(key, value);
    }
  }
  const map = colourMap(next, previous);
  for (const [key, role] of Object.entries(map ? (COLOUR_ROLES[type] ?? {}) : {})) {
    const value = String(current(key) ?? '').toLowerCase();
    const mapped = map![role].get(value);
    if (!mapped) continue;
    // badge text sits on the badge's tint, not on white
    set(
      key,
      type === 'badge' && role === 'text' ? readable(next.brandColor!, tint(next.brandColor!)) : mapped,
    );
  }
  return changed ? out : null;
}

function rebrandMarks(
  marks: JSONMark[] | undefined,
  next: Brand,
  previous: Brand | null,
): JSONMark[] | undefined {
  return marks?.map((m) => {
    const attrs = rebrandAttrs(m.type, m.attrs ?? {}, next, previous);
    return attrs ? { ...m, attrs } : m;
  });
}

/**
 * Applies branding to a document (a template being loaded): logo, social links, button colours,
 * footer, signature, and the template's accent colour everywhere it stands for the brand. Pure:
 * returns a new document. Bad branding values are ignored as {@link checkBranding} reports them.
 *
 * @example
 * editor.setContent(applyBranding(template.document, { brandColor: '#e11d48' }));
 */
export function applyBranding(
  doc: JSONNode,
  branding: BrandSettings | Brand | null | undefined,
  previous?: BrandSettings | Brand | null,
): JSONNode {
  const next = checkBranding(branding).brand;
  const prev = previous === undefined ? null : checkBranding(previous).brand;
  const walk = (node: JSONNode): JSONNode => {
    const attrs = rebrandAttrs(node.type, node.attrs ?? {}, next, prev);
    const out: JSONNode = { ...node };
    if (attrs) out.attrs = attrs;
    if (node.marks) out.marks = rebrandMarks(node.marks, next, prev);
    if (node.content) out.content = node.content.map(walk);
    return out;
  };
  return walk(doc);
}
