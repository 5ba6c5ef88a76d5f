import { TEMPLATE_ACCENT, TEMPLATE_TINT, tint } from '../branding/accent.js';
import { type Brand, type BrandSettings, checkBranding } from '../branding/check.js';
import type { AttrTable } from '../model/attrs.js';
import type { JSONMark, JSONNode } from '../model/types.js';
import type { ColorRole } from '../nodes/rendering.js';
import { readable } from '../primitives/contrast.js';
import { type BlockOptions, type RenderSet, renderSet } from '../registry/render-set.js';

export { TEMPLATE_ACCENT, TEMPLATE_TINT, tint };

type Attrs = Record<string, unknown>;

const defined = (o: Attrs): Attrs =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/**
 * The attributes a block of `type` takes from the brand (its definition's `brand`): values the
 * brand does not give are absent; `{}` for blocks that take nothing.
 */
export function brandAttrs(set: RenderSet, type: string, brand: Brand): Attrs {
  return defined(set.byName.get(type)?.brand?.(brand) ?? {});
}

/** Which colours stand for the brand before the change, and what they become. */
interface ColorMap {
  bg: Map<string, string>;
  text: Map<string, string>;
  /** What text on the brand's tint becomes (a badge's label). */
  onTint: string;
}

function colorMap(next: Brand, previous: Brand | null): ColorMap | null {
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
    onTint: readable(to, tint(to)),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What a brand change may touch on one block or mark, from its definition. */
export interface Brandable {
  attrs: AttrTable;
  brand?(brand: Brand): Attrs;
  rebrand?(current: Attrs, given: Attrs, before: Attrs | null): Attrs;
  colors?: Readonly<Record<string, ColorRole | undefined>>;
}

/**
 * The attributes of one block or mark after a brand change, or `null` when nothing changes.
 * Without `previous` (a template being loaded) every value the brand gives wins, and the
 * template's accent colour becomes the brand colour. With `previous` (a live `setBranding`), a
 * value follows the new brand only where it still holds the previous brand's value or the
 * block's default: people's own edits stay. A block with `rebrand` decides for itself.
 */
export function rebrandAttrs(
  def: Brandable | undefined,
  attrs: Attrs,
  next: Brand,
  previous: Brand | null,
): Attrs | null {
  if (!def) return null;
  const out: Attrs = { ...attrs };
  let changed = false;
  const set = (key: string, value: unknown) => {
    if (!same(out[key], value)) {
      out[key] = value;
      changed = true;
    }
  };
  const current = (key: string) => attrs[key] ?? def.attrs[key]?.default;
  const given = defined(def.brand?.(next) ?? {});
  const before = previous ? defined(def.brand?.(previous) ?? {}) : null;
  if (def.rebrand) {
    const currentAll = Object.fromEntries(Object.keys(def.attrs).map((k) => [k, current(k)]));
    for (const [key, value] of Object.entries(def.rebrand(currentAll, given, before))) set(key, value);
  } else {
    for (const [key, value] of Object.entries(given)) {
      const untouched =
        !before ||
        same(current(key), def.attrs[key]?.default) ||
        (key in before && same(current(key), before[key]));
      if (untouched) set(key, value);
    }
  }
  const map = colorMap(next, previous);
  for (const [key, role] of Object.entries(map ? (def.colors ?? {}) : {})) {
    const value = String(current(key) ?? '').toLowerCase();
    let mapped: string | undefined;
    if (role === 'bg') mapped = map!.bg.get(value);
    else if (map!.text.has(value)) mapped = role === 'text' ? map!.text.get(value) : map!.onTint;
    if (mapped) set(key, mapped);
  }
  return changed ? out : null;
}

/**
 * Applies branding to a document (a template being loaded): logo, social links, button colours,
 * footer, signature, and the template's accent colour everywhere it stands for the brand. Pure:
 * returns a new document. Bad branding values are ignored as {@link checkBranding} reports them.
 * `options.blocks` are the custom blocks the document may hold (they brand themselves likewise).
 *
 * @example
 * editor.setContent(applyBranding(template.document, { brandColor: '#e11d48' }));
 */
export function applyBranding(
  doc: JSONNode,
  branding: BrandSettings | Brand | null | undefined,
  previous?: BrandSettings | Brand | null,
  options: BlockOptions = {},
): JSONNode {
  const set = renderSet(options.blocks);
  const next = checkBranding(branding).brand;
  const prev = previous === undefined ? null : checkBranding(previous).brand;
  const marks = (list: JSONMark[] | undefined) =>
    list?.map((m) => {
      const attrs = rebrandAttrs(
        set.marksByName.get(m.type) as Brandable | undefined,
        m.attrs ?? {},
        next,
        prev,
      );
      return attrs ? { ...m, attrs } : m;
    });
  const walk = (node: JSONNode): JSONNode => {
    const attrs = rebrandAttrs(
      set.byName.get(node.type) as Brandable | undefined,
      node.attrs ?? {},
      next,
      prev,
    );
    const out: JSONNode = { ...node };
    if (attrs) out.attrs = attrs;
    if (node.marks) out.marks = marks(node.marks);
    if (node.content) out.content = node.content.map(walk);
    return out;
  };
  return walk(doc);
}
