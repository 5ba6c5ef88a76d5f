import type { MarkSpec } from 'prosemirror-model';
import type { AttrTable } from '../model/attrs.js';
import type { Attrs, RenderContext } from '../nodes/define.js';

/**
 * One inline mark: attributes, ProseMirror spec, and the email HTML that wraps marked text.
 * Marks render in registry order, outermost first.
 */
export interface MarkDefinition {
  name: string;
  attrs: AttrTable;
  spec: MarkSpec;
  /**
   * The opening and closing tags around marked text, or null when the attrs make it a no-op.
   * `ctx` gives an explicit text colour its dark-mode class ({@link RenderContext.darkTextAttr}).
   */
  render(attrs: Attrs, ctx: RenderContext): [string, string] | null;
  /** Plain-text suffix after the marked run (links add their URL). */
  textSuffix?(attrs: Attrs, text: string): string;
}

/** Identity with a type. */
export function defineMark(mark: MarkDefinition): MarkDefinition {
  return mark;
}
