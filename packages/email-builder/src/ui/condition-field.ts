import { t } from '../i18n/translate.js';
import { CONDITION_OPS, type Condition, type ConditionOp, isCondition } from '../model/condition.js';
import { formatCondition } from '../variables/condition-syntax.js';
import { h, uid } from './dom.js';

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

/**
 * The "Show if" part of a block's settings (see `block-settings.ts`): a variable, a test and a
 * value, giving the block's `showIf` (`null`: always shown). A condition combining several tests
 * (`all` / `any`, set through the JSON) is shown as written, and can be removed. Only a usable
 * condition is ever set: a half-filled form leaves the block as it was. `where` is the settings
 * popover it goes into, whose language it speaks.
 */
export function conditionField(
  value: unknown,
  onChange: (showIf: Condition | null) => void,
  where: Element,
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
    if (!valueWrap.hidden) test.value = NUMERIC.has(o) ? Number(input.value) : input.value;
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
