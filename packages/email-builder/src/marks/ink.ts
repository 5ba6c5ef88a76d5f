import { isHexColor } from '../primitives/color.js';
import { LINK } from '../primitives/styles.js';

/** A mark by name and attributes: a JSON mark, or a ProseMirror mark mapped to `type.name`. */
export interface NamedMark {
  type: string;
  attrs?: Record<string, unknown> | null;
}

/**
 * The colour the email writes inline on text with these marks: its text colour (whose span
 * sits inside a link's `<a>`, so it wins), else a link's colour; `''` when the text takes its
 * block's colour.
 */
export function explicitColor(marks: Iterable<NamedMark>): string {
  let color = '';
  for (const mark of marks) {
    if (mark.type === 'textColor' && isHexColor(mark.attrs?.color)) return mark.attrs.color;
    if (mark.type === 'link') color = LINK;
  }
  return color;
}
