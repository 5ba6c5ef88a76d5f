import type { Brand } from '../branding/check.js';
import type { AttrTable, AttrValues } from '../model/attrs.js';
import type { DocSettings } from '../model/doc.js';
import type { JSONNode } from '../model/types.js';
import type { ProblemCode } from '../problems.js';

/**
 * Attribute values after `cleanAttrs`, when the table is not known (helpers shared by blocks);
 * a block's own renderers get {@link AttrValues} of its table.
 */
// biome-ignore lint/suspicious/noExplicitAny: values were checked against the block's AttrTable
export type Attrs = Record<string, any>;

/**
 * What a colour attribute stands for when the brand colour changes: a background in the brand
 * colour (or its tint), text in it, or text that sits on the brand's tint (a badge's label).
 */
export type ColorRole = 'bg' | 'text' | 'textOnTint';

/** What an email renderer gets besides its node: the width it may fill and ways to render children. */
export interface RenderContext {
  /** Width in CSS pixels available to this block (the container's content width, or a column's). */
  width: number;
  /** The document's settings (colours, width, padding, language). */
  settings: DocSettings;
  /**
   * Renders child blocks; `opts.width` narrows the available width (columns), `opts.listDepth`
   * nests lists, `opts.panel` says they sit on a column panel with its own background,
   * `opts.flushEnd` gives the last of them {@link RenderContext.flushEnd}.
   */
  blocks(
    nodes: readonly JSONNode[] | undefined,
    opts?: { width?: number; listDepth?: number; panel?: boolean; flushEnd?: boolean },
  ): string;
  /** Renders inline content (text with marks, breaks, badges). */
  inline(nodes: readonly JSONNode[] | undefined): string;
  /** How deep in lists the block sits (0 outside lists). */
  listDepth: number;
  /**
   * True for the last block inside a container that draws its own bottom edge (a quote's bar)
   * or is spaced as a whole (a column): the block leaves no space under itself, so the edge ends
   * with the text and the container's own spacing is all there is.
   */
  flushEnd: boolean;
  /**
   * For text given an explicit colour inline (a text colour, a link): ` class="…"` naming the
   * colour's dark-mode counterpart on the surface here (the email's, or a panel's), or `''`
   * when the colour already reads there. The head's `prefers-color-scheme: dark` block gets one
   * rule per distinct dark colour.
   */
  darkTextAttr(color: string): string;
  /**
   * For highlighted text whose light-mode colour is `ink`: ` class="…"` naming the colour it
   * takes in dark mode, which reads on the `highlight` (the highlight keeps its background there
   * while text around it turns light). One rule per distinct colour, as for `darkTextAttr`.
   */
  darkHighlightAttr(ink: string, highlight: string): string;
  /** The background this block sits on in dark mode: the email's dark canvas, or a panel's. */
  darkSurface: string;
}

/** What a plain-text renderer gets: ways to render children as text. */
export interface TextContext {
  blocks(nodes: readonly JSONNode[] | undefined, depth?: number): string;
  inline(nodes: readonly JSONNode[] | undefined): string;
  listDepth: number;
}

/**
 * The half of a block that works on stored JSON alone, with no editor: its attributes (single
 * source of defaults and checks, typed for its renderers), its email and plain-text renderers,
 * what it takes from the brand and what it lacks before sending. `renderEmail`, `renderText`,
 * `applyBranding`, `findProblems` and `cleanDocument` need nothing more, so a module holding
 * only renderings keeps the editor (ProseMirror, menus, icons) out of a server's or a
 * renderer's bundle. A `BlockDefinition` is a rendering plus the editing half.
 */
export interface BlockRendering<T extends AttrTable = AttrTable> {
  /** The node name, stored in the JSON (`type`) and in the HTML marker (`data-block`). */
  name: string;
  attrs: T;
  /**
   * True for a node that sits in text (a badge, a variable) rather than between blocks: it is
   * rendered by `ctx.inline()` and refused elsewhere, and the editor's node is inline too.
   */
  inline?: boolean;
  /** Email HTML for this node; `attrs` are already checked against the table. */
  render(node: JSONNode, attrs: AttrValues<T>, ctx: RenderContext): string;
  /** The plain-text alternative for this node. */
  text(node: JSONNode, attrs: AttrValues<T>, ctx: TextContext): string;
  /**
   * What a block of this type takes from the editor's branding when it is inserted or the
   * brand changes (a logo's images, a footer's address). Keys the brand does not give are
   * absent (or null). On a brand change each of them follows the new brand while it still holds the
   * previous brand's value or its default: people's own edits stay.
   */
  brand?(brand: Brand): { [K in keyof T]?: AttrValues<T>[K] | null };
  /**
   * For attributes that only move together (a button's colour and its label's): decides the
   * brand change itself, from the current values, what the new brand gives and what the
   * previous one gave (`null` when a template is being loaded). Returns the changes, or `{}`.
   */
  rebrand?(
    current: AttrValues<T>,
    given: Partial<AttrValues<T>>,
    before: Partial<AttrValues<T>> | null,
  ): Partial<AttrValues<T>>;
  /** Colour attributes that stand for the brand and follow a change of the brand colour. */
  colors?: { readonly [K in keyof T]?: ColorRole };
  /**
   * What this block lacks that the email needs (a footer without a postal address): reported by
   * `getProblems()` and shown on the block in the editor, never filled in with made-up text.
   */
  problems?(attrs: AttrValues<T>): ProblemCode[];
}

/**
 * Identity with a type: gives a rendering literal its checks, and its renderers typed
 * attributes. Spread the result into `defineBlock` for the editor.
 *
 * @example
 * export const noteRendering = defineRendering({ name: 'note', attrs: { tone: a.choice('info', ['info', 'warn']) }, … });
 */
export function defineRendering<T extends AttrTable>(rendering: BlockRendering<T>): BlockRendering {
  return rendering as unknown as BlockRendering;
}

/**
 * Whether a block sits in text: its rendering says so with `inline`, or a full definition in its
 * ProseMirror spec alone (`spec.inline`), which the editor has always read.
 */
export function isInline(block: BlockRendering): boolean {
  return Boolean(block.inline || (block as { spec?: { inline?: boolean } }).spec?.inline);
}
