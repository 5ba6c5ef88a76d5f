import type { DOMOutputSpec, NodeSpec, Node as PMNode, TagParseRule } from 'prosemirror-model';
import type { EditorView, NodeView } from 'prosemirror-view';
import { type AttrTable, changedAttrs, readAttrsMarker } from '../model/attrs.js';
import type { DocSettings } from '../model/doc.js';
import type { JSONNode } from '../model/types.js';
import { PROBLEM_HINTS, type ProblemCode } from '../problems.js';
import { escapeHtml } from '../render/escape.js';

/** Attribute values after {@link cleanAttrs}: every key of the block's table, checked. */
// biome-ignore lint/suspicious/noExplicitAny: values were checked against the block's AttrTable
export type Attrs = Record<string, any>;

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
  /** Replaces the typed "/query" (the `from`–`to` range) with the block. */
  run(host: EditorHost, from: number, to: number): void;
}

/**
 * One block of the editor: its attributes (single source of defaults and checks), its
 * ProseMirror node spec, its email and plain-text renderers, its slash commands and optional view.
 * Adding a block means one folder with one of these and one line in `registry.ts`.
 */
export interface BlockDefinition {
  name: string;
  attrs: AttrTable;
  /** The ProseMirror spec; its `attrs` come from {@link BlockDefinition.attrs}. */
  spec: NodeSpec;
  /** Email HTML for this node; `attrs` are already checked against the table. */
  render(node: JSONNode, attrs: Attrs, ctx: RenderContext): string;
  /** The plain-text alternative for this node. */
  text(node: JSONNode, attrs: Attrs, ctx: TextContext): string;
  slash?: readonly SlashItem[];
  /**
   * What this block lacks that the email needs (a footer without a postal address): reported by
   * `getProblems()` and shown on the block in the editor, never filled in with made-up text.
   */
  problems?(attrs: Attrs): ProblemCode[];
  /** Shows the settings form for this block's attributes when it is selected. */
  inspect?: boolean;
  /** Applies a settings-form change when it needs more than new attributes (column layouts). */
  update?(view: EditorView, pos: number, key: string, value: unknown): boolean;
  /** An editing view, for blocks that need more than `toDOM` (upload states). */
  view?: (node: PMNode, view: EditorView, getPos: () => number | undefined, host: EditorHost) => NodeView;
}

/** Identity with a type: gives a block literal its checks. */
export function defineBlock(block: BlockDefinition): BlockDefinition {
  return block;
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
