import type { AttrTable } from '../model/attrs.js';
import type { Attrs, ColorRole, RenderContext } from '../nodes/rendering.js';

/** What a mark's email renderer knows of the text it wraps. */
export interface MarkedText {
  /**
   * The text's colour in light mode: its text colour, else a link's, else the body text colour
   * (marks that set a colour render outside the ones that might need it, so it holds for the
   * whole run the mark wraps).
   */
  ink: string;
}

/**
 * The half of an inline mark that works on stored JSON alone: attributes, the email HTML that
 * wraps marked text, its plain-text suffix and its brand colours. Marks render in registry
 * order, outermost first. A `MarkDefinition` adds the editing half.
 */
export interface MarkRendering {
  name: string;
  attrs: AttrTable;
  /**
   * The opening and closing tags around marked text, or null when the attrs make it a no-op.
   * `ctx` gives an explicit text colour its dark-mode class ({@link RenderContext.darkTextAttr}).
   */
  render(attrs: Attrs, ctx: RenderContext, text: MarkedText): [string, string] | null;
  /** Plain-text suffix after the marked run (links add their URL). */
  textSuffix?(attrs: Attrs, text: string): string;
  /** Colour attributes that stand for the brand and follow a change of the brand colour. */
  colors?: Readonly<Record<string, ColorRole>>;
}
