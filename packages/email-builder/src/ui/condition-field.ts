import { t } from '../i18n/translate.js';
import { CONDITION_OPS, type Condition, type ConditionOp, isCondition } from '../model/condition.js';
import { formatCondition } from '../variables/condition-syntax.js';
import type { ScopedVariable } from '../variables/scope.js';
import type { VariableType } from '../variables/shape.js';
import { h, uid } from './dom.js';
import { suggest } from './fields.js';

/** The operators as the settings form words them. */
const OP_LABELS: Record<ConditionOp, string> = {
  exists: 'has a value',
  empty: 'is empty',
  eq: 'is',
  ne: 'is not',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
};
const NUMERIC = new Set<ConditionOp>(['gt', 'gte', 'lt', 'lte']);

/** What a variable holds, as the settings word it. */
const TYPE_LABELS: Record<VariableType, string> = {
  text: 'Text',
  number: 'Number',
  boolean: 'True or false',
  object: 'Object',
  array: 'List',
};

/** How a variable's suggestion reads: what it holds, after its label if it has one ("Price · Number"). */
export function typeLabel(where: Element, v: Pick<ScopedVariable, 'type' | 'label'>): string {
  const type = t(where, TYPE_LABELS[v.type]);
  return v.label ? `${t(where, v.label)} · ${type}` : type;
}

/**
 * The value a test compares with, as the variable holds it: a number for a number (`"12.5"` is
 * 12.5, since like compares with like), `true`/`false` for a boolean, else the text typed.
 */
function typedValue(text: string, type: VariableType | undefined, numeric: boolean): unknown {
  if (numeric || (type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))))
    return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/**
 * The "Show if" part of a block's settings (see `block-settings.ts`): a variable, a test and a
 * value, giving the block's `showIf` (`null`: always shown). A condition combining several tests
 * (`all` / `any`, set through the JSON) is shown as written, and can be removed. Only a usable
 * condition is ever set: a half-filled form leaves the block as it was. `where` is the settings
 * popover it goes into, whose language it speaks; `scope` the variables the block may read,
 * which the variable's field offers with what each holds, and whose type the value takes.
 */
export function conditionField(
  value: unknown,
  onChange: (showIf: Condition | null) => void,
  where: Element,
  scope: readonly ScopedVariable[] = [],
): HTMLElement {
  const wrap = h('fieldset', { class: 'sv-fieldset sv-if-field' }, h('legend', {}, 'Show if'));
  const current = isCondition(value) ? value : null;
  if (current && !('var' in current)) {
    const remove = h('button', { type: 'button', class: 'sv-btn' }, 'Remove condition');
    remove.addEventListener('click', () => onChange(null));
    wrap.append(
      h(
        'p',
        { class: 'sv-if-text' },
        t(where, 'Shown when {condition}', { condition: formatCondition(current) }),
      ),
      remove,
    );
    return wrap;
  }
  const ids = { name: uid('sv-if-var'), op: uid('sv-if-op'), value: uid('sv-if-value') };
  const name = h('input', {
    id: ids.name,
    class: 'sv-input',
    type: 'text',
    maxlength: 64,
    placeholder: 'plan',
  });
  const op = h('select', { id: ids.op, class: 'sv-input' });
  for (const o of CONDITION_OPS) op.append(h('option', { value: o }, OP_LABELS[o]));
  const input = h('input', { id: ids.value, class: 'sv-input', type: 'text', maxlength: 200 });
  name.value = current?.var ?? '';
  op.value = current?.op ?? 'exists';
  input.value = current && 'value' in current && current.value !== undefined ? String(current.value) : '';
  // each control its own data-field: the settings keep the focus in the one being typed in
  const valueWrap = h(
    'div',
    { class: 'sv-field', 'data-field': 'showIf.value' },
    h('label', { for: ids.value, class: 'sv-label' }, 'Value'),
    input,
  );
  const sync = () => {
    const o = op.value as ConditionOp;
    valueWrap.hidden = o === 'exists' || o === 'empty';
    if (name.value.trim() === '') return onChange(null);
    const test: Record<string, unknown> = { var: name.value.trim(), op: o };
    const type = scope.find((v) => v.path === test.var)?.type;
    if (!valueWrap.hidden) test.value = typedValue(input.value, type, NUMERIC.has(o));
    if (NUMERIC.has(o) && input.value.trim() === '') return;
    if (isCondition(test)) onChange(test as Condition);
  };
  for (const el of [name, op, input]) el.addEventListener(el === op ? 'change' : 'input', sync);
  valueWrap.hidden = op.value === 'exists' || op.value === 'empty';
  wrap.append(
    h(
      'div',
      { class: 'sv-field', 'data-field': 'showIf.var' },
      h('label', { for: ids.name, class: 'sv-label' }, 'Variable (empty: always shown)'),
      name,
      suggest(
        name,
        scope.map((v) => ({ value: v.path, label: typeLabel(where, v) })),
      ),
    ),
    h(
      'div',
      { class: 'sv-field', 'data-field': 'showIf.op' },
      h('label', { for: ids.op, class: 'sv-label' }, 'Test'),
      op,
    ),
    valueWrap,
  );
  return wrap;
}
