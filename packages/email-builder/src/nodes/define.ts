import type { InputRule } from 'prosemirror-inputrules';
import type { DOMOutputSpec, NodeSpec, NodeType, Node as PMNode } from 'prosemirror-model';
import type { Command } from 'prosemirror-state';
import type { EditorView, NodeView } from 'prosemirror-view';
import type { AttrTable } from '../model/attrs.js';
import { PROBLEM_HINTS, type ProblemCode } from '../problems.js';
import type { VariableOption } from '../variables/shape.js';
import type { BlockRendering } from './rendering.js';

/** The editor facilities a slash command or node view may use (kept small so blocks stay portable). */
export interface EditorHost {
  view: EditorView;
  /** Opens the system file picker, uploads the chosen image and calls back with its URL. */
  pickAndUpload(onDone: (url: string) => void, onState?: (state: UploadState) => void): void;
  /**
   * Whether uploads are on (the editor has an `upload` or `imageServiceUrl` option). When off,
   * upload controls show {@link UPLOADS_OFF} and are `aria-disabled`, rather than open a file
   * picker whose upload can only fail.
   */
  readonly uploads: boolean;
  /**
   * The attributes a block of this type takes from the editor's branding (logo images, social
   * networks, button colour, footer and signature details); `{}` without branding.
   */
  branded(type: string): Record<string, unknown>;
  /**
   * The merge variables the host offers (`variables` option); the first that is not an object
   * or a list is what the "Variable" command inserts.
   */
  variables: readonly VariableOption[];
}

/** Why an upload control is disabled, shown beside it: what the author and the host can do. */
export const UPLOADS_OFF =
  'Uploads are off: this editor has no upload service (its host turns them on with the upload or imageServiceUrl option). Paste an image URL instead.';

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
  /**
   * Inline SVG markup (trusted, from the package or the host), or the name of a built-in
   * block's icon (`text`, `h1`, `image`, `button`…: see `icons/blocks.ts`), which loads with
   * the menu rather than in the first load.
   */
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
 * One block of the editor, everything about it in one place: its {@link BlockRendering}
 * (attributes, email and plain-text renderers, branding, problems) and its editing half: its
 * ProseMirror node spec, its slash commands, keys and input rules, and optionally its settings
 * form and editing view. The built-in blocks are written with exactly this, each from a
 * rendering in its own module; hosts add their own through the `blocks` option (see
 * docs/custom-blocks.md).
 */
export interface BlockDefinition<T extends AttrTable = AttrTable> extends BlockRendering<T> {
  /**
   * The ProseMirror spec; its `attrs` come from {@link BlockDefinition.attrs}, and it is inline
   * when {@link BlockRendering.inline} says so.
   */
  spec: NodeSpec;
  slash?: readonly SlashItem[];
  /** Keyboard shortcuts (ProseMirror key names, `Mod-Alt-1`) that act on this block. */
  keys?(type: NodeType): Record<string, Command>;
  /** Typing shortcuts (`# ` for a heading) that make this block. */
  inputRules?(type: NodeType): readonly InputRule[];
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

/** Reads `text-align` from a pasted element's style. */
export function alignFrom(dom: HTMLElement): string {
  const align = dom.style.textAlign;
  return align === 'center' || align === 'right' ? align : 'left';
}

/** The editor's prompts for a block's problems: one muted line each, never part of the email. */
export function problemHints(codes: readonly ProblemCode[]): DOMOutputSpec[] {
  return codes.map((code) => ['p', { class: 'sv-hint', 'data-problem': code }, PROBLEM_HINTS[code]]);
}
