import { a } from '../../model/attrs.js';
import { escapeHtml } from '../../primitives/escape.js';
import { formatVariable, isVariableName } from '../../primitives/merge-tags.js';
import { type Attrs, defineRendering } from '../rendering.js';

const ATTRS = {
  name: a.text('first_name', 'Variable name (letters, digits, _)', 64),
  fallback: a.text('', 'Fallback when there is no value', 200),
};

/** The tag a variable renders as, or `''` when its name is not usable (never a broken tag). */
function tag(attrs: Attrs): string {
  return isVariableName(attrs.name) ? formatVariable(attrs.name, attrs.fallback) : '';
}

/**
 * A merge variable: `{{name}}` or `{{name|fallback}}` in `getHTML()` and `getText()` (fallback
 * escaped like any text), filled by `renderTemplate`. It can carry marks, so a bold variable
 * renders bold.
 */
export const variableRendering = defineRendering({
  name: 'variable',
  attrs: ATTRS,
  inline: true,
  render: (_node, attrs) => escapeHtml(tag(attrs)),
  text: (_node, attrs) => tag(attrs),
});
