import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { t } from '../i18n/translate.js';
import { EDITING_ICONS } from '../icons/editing.js';
import { cleanValue } from '../model/attrs.js';
import type { BlockDefinition } from '../nodes/define.js';
import { repeatsAround } from '../nodes/variable/items.js';
import { variablesInScope } from '../variables/scope.js';
import { conditionField, typeLabel } from './condition-field.js';
import { h, iconButton } from './dom.js';
import { type FieldHost, field, type Suggestion } from './fields.js';

/**
 * Fills `el` with the settings form of the block `node` at `pos` (see `Inspector`), generated
 * from the block's attribute table; a block with `inspectChildren` (a row of columns) also lists
 * each child's settings. Changes are ordinary transactions, so they undo; the block stays
 * selected. `close` is the head's close button.
 */
export function renderBlockSettings(
  el: HTMLElement,
  view: EditorView,
  pos: number,
  node: PMNode,
  def: BlockDefinition,
  blocks: ReadonlyMap<string, BlockDefinition>,
  host: FieldHost,
  close: () => void,
): void {
  const set = (atPos: number, target: BlockDefinition, key: string, value: unknown) => {
    const current = view.state.doc.nodeAt(atPos);
    const spec = target.attrs[key];
    if (!current || !spec) return;
    if (target.update?.(view, atPos, key, value)) return;
    const tr = view.state.tr.setNodeMarkup(atPos, undefined, {
      ...current.attrs,
      [key]: cleanValue(spec, value),
    });
    tr.setSelection(NodeSelection.create(tr.doc, pos));
    view.dispatch(tr);
  };
  // the display condition sits beside the block's attributes, not in its table (any block has one)
  const setCondition = (atPos: number, showIf: unknown) => {
    const current = view.state.doc.nodeAt(atPos);
    if (!current || JSON.stringify(current.attrs.showIf ?? null) === JSON.stringify(showIf)) return;
    const tr = view.state.tr.setNodeAttribute(atPos, 'showIf', showIf);
    tr.setSelection(NodeSelection.create(tr.doc, pos));
    view.dispatch(tr);
  };
  const title = node.type.name.replace(/([A-Z])/g, ' $1');
  const body = h('div', { class: 'sv-inspector-body' });
  // the variables the block may read (a repeat's item inside one), and the lists among them
  const scope = variablesInScope(host.variables ?? [], repeatsAround(view.state.doc.resolve(pos)));
  const lists: Suggestion[] = scope
    .filter((v) => v.type === 'array')
    .map((v) => ({ value: v.path, label: typeLabel(el, v) }));
  for (const [key, spec] of Object.entries(def.attrs))
    body.append(
      field(
        key,
        spec,
        node.attrs[key],
        (v) => set(pos, def, key, v),
        host,
        spec.kind === 'text' && spec.list ? lists : undefined,
      ),
    );
  if ('showIf' in node.attrs)
    body.append(conditionField(node.attrs.showIf, (c) => setCondition(pos, c), el, scope));
  if (def.inspectChildren) {
    node.forEach((child, offset, i) => {
      const childDef = blocks.get(child.type.name);
      if (!childDef) return;
      const name = child.type.name.replace(/([A-Z])/g, ' $1');
      // "Column 1": the block's name (a message key, as the heading's) and its place
      const legend = t(el, '{block} {n}', {
        block: t(el, `${name.charAt(0).toUpperCase()}${name.slice(1)}`),
        n: i + 1,
      });
      const group = h('fieldset', { class: 'sv-fieldset' }, h('legend', {}, legend));
      for (const [key, spec] of Object.entries(childDef.attrs))
        group.append(
          field(key, spec, child.attrs[key], (v) => set(pos + 1 + offset, childDef, key, v), host),
        );
      if ('showIf' in child.attrs)
        group.append(conditionField(child.attrs.showIf, (c) => setCondition(pos + 1 + offset, c), el, scope));
      body.append(group);
    });
  }
  el.replaceChildren(
    h(
      'div',
      { class: 'sv-inspector-head' },
      h('strong', {}, title.charAt(0).toUpperCase() + title.slice(1)),
      iconButton(EDITING_ICONS.close, 'Close settings', close),
    ),
    body,
  );
}
