import type { InputRule } from 'prosemirror-inputrules';
import type { DOMOutputSpec, NodeSpec, NodeType, Node as PMNode, TagParseRule } from 'prosemirror-model';
import type { Command } from 'prosemirror-state';
import type { EditorView, NodeView } from 'prosemirror-view';
import type { Brand } from '../branding/check.js';
import { type AttrTable, type AttrValues, changedAttrs, readAttrsMarker } from '../model/attrs.js';
import type { DocSettings } from '../model/doc.js';
import type { JSONNode } from '../model/types.js';
import { PROBLEM_HINTS, type ProblemCode } from '../problems.js';
import { escapeHtml } from '../render/escape.js';

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

/** The editor facilities a slash command or node view may use (kept small so blocks stay portable). */
export interface EditorHost {
  view: EditorView;
  /** Opens the system file picker, uploads the chosen image and calls back with its URL. */
  pickAndUpload(onDone: (url: string) => void, onState?: (state: UploadState) => void): void;
  /**
   * The attributes a block of this type takes from the editor's branding (logo images, social
   * networks, button colour, footer and signature details); `{}` without branding.
   */
  branded(type: string): Record<string, unknown>;
  /** The merge variables the host offers; the first is what the "Variable" command inserts. */
  variables: readonly { name: string; fallback?: string }[];
}

/** Progress of one upload, as shown inline. */
export type UploadState =
  | { phase: 'uploading'; loaded: number; total: number }
  | { phase: 'done'; url: string }
  | { phase: 'error'; message: string };

/** One entry of the slash menu. */
export interface SlashItem {
  id: string;
  title: string;
  description: string;
  /** Words that also find it when typed after "/". */
  keywords: readonly string[];
  /** Inline SVG markup (trusted, from the package). */
  icon: string;
  /**
   * The heading it is listed under: `Text`, `Media`, `Layout`, `Brand`, `Variables` or a host's
   * own; `More` when absent.
   */
  group?: string;
  /** Replaces the typed "/query" (the `from`–`to` range) with the block. */
  run(host: EditorHost, from: number, to: number): void;
}

/**
 * One block of the editor, everything about it in one place: its attributes (single source of
 * defaults and checks, typed for its renderers), its ProseMirror node spec, its email and
 * plain-text renderers, its slash commands, keys and input rules, what it takes from the brand,
 * and optionally its settings form and editing view. The built-in blocks are written with
 * exactly this; hosts add their own through the `blocks` option (see docs/custom-blocks.md).
 */
export interface BlockDefinition<T extends AttrTable = AttrTable> {
  /** The node name, stored in the JSON (`type`) and in the HTML marker (`data-block`). */
  name: string;
  attrs: T;
  /** The ProseMirror spec; its `attrs` come from {@link BlockDefinition.attrs}. */
  spec: NodeSpec;
  /** Email HTML for this node; `attrs` are already checked against the table. */
  render(node: JSONNode, attrs: AttrValues<T>, ctx: RenderContext): string;
  /** The plain-text alternative for this node. */
  text(node: JSONNode, attrs: AttrValues<T>, ctx: TextContext): string;
  slash?: readonly SlashItem[];
  /** Keyboard shortcuts (ProseMirror key names, `Mod-Alt-1`) that act on this block. */
  keys?(type: NodeType): Record<string, Command>;
  /** Typing shortcuts (`# ` for a heading) that make this block. */
  inputRules?(type: NodeType): readonly InputRule[];
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
  /** Shows the settings form for this block's attributes when it is selected. */
  inspect?: boolean;
  /** The form also lists the settings of each child (a row of columns lists each column's). */
  inspectChildren?: boolean;
  /** Applies a settings-form change when it needs more than new attributes (column layouts). */
  update?(view: EditorView, pos: number, key: string, value: unknown): boolean;
  /** An editing view, for blocks that need more than `toDOM` (upload states). */
  view?(node: PMNode, view: EditorView, getPos: () => number | undefined, host: EditorHost): NodeView;
}

/**
 * Identity with a type: gives a block literal its checks, and its renderers typed attributes.
 *
 * @example
 * export const note = defineBlock({ name: 'note', attrs: { tone: a.choice('info', ['info', 'warn']) }, … });
 */
export function defineBlock<T extends AttrTable>(block: BlockDefinition<T>): BlockDefinition {
  return block as unknown as BlockDefinition;
}

/**
 * The round-trip marker: `data-block` names the block and `data-attrs` holds the attributes that
 * differ from their defaults, so `setContent(getHTML())` and copy/paste inside the editor give
 * the same node back. Email clients ignore data attributes.
 */
export function domMarker(name: string, table: AttrTable, attrs: Attrs): Record<string, string> {
  const changed = changedAttrs(table, attrs);
  return changed ? { 'data-block': name, 'data-attrs': JSON.stringify(changed) } : { 'data-block': name };
}

/** {@link domMarker} as an HTML attribute string for the email renderer. */
export function htmlMarker(name: string, table: AttrTable, attrs: Attrs): string {
  const changed = changedAttrs(table, attrs);
  const data = changed ? ` data-attrs="${escapeHtml(JSON.stringify(changed))}"` : '';
  return ` data-block="${name}"${data}`;
}

/** The parse rule that reads a {@link domMarker} back, checking every attribute again. */
export function markerRule(name: string, table: AttrTable, extra: Partial<TagParseRule> = {}): TagParseRule {
  return {
    tag: `[data-block="${name}"]`,
    priority: 80,
    getAttrs: (dom) => readAttrsMarker(table, (dom as HTMLElement).getAttribute('data-attrs')),
    ...extra,
  };
}

/** Reads `text-align` from a pasted element's style. */
export function alignFrom(dom: HTMLElement): string {
  const align = dom.style.textAlign;
  return align === 'center' || align === 'right' ? align : 'left';
}

/** The editor's prompts for a block's problems: one muted line each, never part of the email. */
export function problemHints(codes: readonly ProblemCode[]): DOMOutputSpec[] {
  return codes.map((code) => ['p', { class: 'sv-hint', 'data-problem': code }, PROBLEM_HINTS[code]]);
}
