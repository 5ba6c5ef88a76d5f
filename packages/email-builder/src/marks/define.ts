import type { MarkSpec, MarkType } from 'prosemirror-model';
import type { Command } from 'prosemirror-state';
import type { MarkRendering } from './rendering.js';

/** One inline mark of the editor: its {@link MarkRendering}, ProseMirror spec and shortcuts. */
export interface MarkDefinition extends MarkRendering {
  spec: MarkSpec;
  /** Keyboard shortcuts that toggle or apply this mark (`Mod-b`). */
  keys?(type: MarkType): Record<string, Command>;
}

/** Identity with a type. */
export function defineMark(mark: MarkDefinition): MarkDefinition {
  return mark;
}
