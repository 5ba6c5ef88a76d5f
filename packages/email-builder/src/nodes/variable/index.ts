import { InputRule } from 'prosemirror-inputrules';
import { Fragment, type Node as PMNode, type Schema } from 'prosemirror-model';
import { cleanFallback, isVariableName, VARIABLE_NAME, VARIABLE_TAG } from '../../primitives/merge-tags.js';
import { declaredType, type VariableOption } from '../../variables/shape.js';
import { insertInline } from '../commands.js';
import { defineBlock } from '../define.js';
import { domMarker, markerRule } from '../marker.js';
import { variableRendering } from './render.js';

export type { VariableOption } from '../../variables/shape.js';

/** Offered when the host lists none. */
export const DEFAULT_VARIABLES: readonly VariableOption[] = [
  { name: 'first_name', label: 'First name', fallback: 'there' },
  { name: 'last_name', label: 'Last name' },
  { name: 'email', label: 'Email address' },
  { name: 'company', label: 'Company' },
];

/** A variable in the editor: an inline chip; typing `{{name}}` in full makes one. */
export const variable = defineBlock({
  ...variableRendering,
  inspect: true,
  // "{{name}}" or "{{name|fallback}}" typed in full becomes a chip
  inputRules: (type) => [
    new InputRule(
      new RegExp(`\\{\\{\\s*(${VARIABLE_NAME.source.slice(1, -1)})\\s*(?:\\|([^{}]*?))?\\s*\\}\\}$`),
      (state, match, start, end) =>
        match[1]!.length > 64
          ? null
          : state.tr.replaceWith(
              start,
              end,
              type.create(
                { name: match[1], fallback: cleanFallback(match[2]) },
                null,
                state.storedMarks ?? state.doc.resolve(start).marks(),
              ),
            ),
    ),
  ],
  spec: {
    group: 'inline',
    atom: true,
    parseDOM: [markerRule('variable', variableRendering.attrs)],
    toDOM: (node) => [
      'span',
      {
        ...domMarker('variable', variableRendering.attrs, node.attrs),
        class: isVariableName(node.attrs.name) ? 'sv-variable' : 'sv-variable sv-variable-bad',
        title: node.attrs.fallback ? `Fallback: ${node.attrs.fallback}` : 'No fallback',
      },
      `{{${node.attrs.name}}}`,
    ],
  },
  slash: [
    {
      id: 'variable',
      group: 'Variables',
      title: 'Variable',
      description: 'A merge field such as {{first_name}}',
      keywords: ['variable', 'merge', 'field', 'personalize', 'placeholder', 'name'],
      icon: 'variable',
      run: (host, from, to) =>
        insertInline(
          host,
          from,
          to,
          // the first that is a value: not an object or a list (their fields are the values)
          host.view.state.schema.nodes.variable!.create(
            host.variables.find((v) => !/^[oa]/.test(declaredType(v) ?? '')) ?? null,
          ),
          true,
        ),
    },
  ],
});

export const VARIABLE_TRIGGER = /\{\{\s*([A-Za-z0-9_.]{0,64})$/;

/**
 * Turns `{{name}}` / `{{name|fallback}}` written as text (pasted, or in HTML given to
 * `setContent`) into variable chips, keeping the text's marks.
 */
export function chipVariables(fragment: Fragment, schema: Schema): Fragment {
  let changed = false;
  const nodes: PMNode[] = [];
  fragment.forEach((child) => {
    if (child.isText) {
      const text = child.text!;
      let last = 0;
      for (const m of text.matchAll(VARIABLE_TAG)) {
        changed = true;
        if (m.index > last) nodes.push(schema.text(text.slice(last, m.index), child.marks));
        nodes.push(
          schema.nodes.variable!.create({ name: m[1], fallback: cleanFallback(m[2]) }, null, child.marks),
        );
        last = m.index + m[0].length;
      }
      if (last === 0) nodes.push(child);
      else if (last < text.length) nodes.push(schema.text(text.slice(last), child.marks));
      return;
    }
    const content = chipVariables(child.content, schema);
    if (content !== child.content) {
      changed = true;
      nodes.push(child.copy(content));
    } else nodes.push(child);
  });
  return changed ? Fragment.from(nodes) : fragment;
}
