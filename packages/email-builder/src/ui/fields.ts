import { t } from '../i18n/translate.js';
import { ICONS } from '../icons/chrome.js';
import { EDITING_ICONS } from '../icons/editing.js';
import type { AttrSpec } from '../model/attrs.js';
import { isHexColor } from '../primitives/color.js';
import { normalizeImageInput, normalizeUserUrl } from '../primitives/url.js';
import type { VariableOption } from '../variables/shape.js';
import { h, uid } from './dom.js';

/** Facilities a field may need from the editor. */
export interface FieldHost {
  pickAndUpload(
    onDone: (url: string) => void,
    onState?: (s: { phase: string; message?: string }) => void,
  ): void;
  /** Whether uploads are on; when off, upload buttons are disabled with `offReason` shown. */
  readonly uploads: boolean;
  readonly offReason: string;
  /** An element of the editor, whose language the fields speak (English without it). */
  readonly where?: Element;
  /** The `variables` option, checked: what a variable's field offers (see `variables/scope.ts`). */
  readonly variables?: readonly VariableOption[];
}

/** A value a text field offers (a `<datalist>` option): a variable's path and what it holds. */
export interface Suggestion {
  value: string;
  label: string;
}

/** A `<datalist>` of `suggestions` for `input`, or `null` without any. */
export function suggest(input: HTMLElement, suggestions: readonly Suggestion[] = []): HTMLElement | null {
  if (suggestions.length === 0) return null;
  const list = h('datalist', { id: uid('sv-list') });
  for (const s of suggestions) list.append(h('option', { value: s.value, label: s.label }));
  input.setAttribute('list', list.id);
  return list;
}

/**
 * One labelled form control for an attribute, built from its {@link AttrSpec}: the same table
 * that gives the block its defaults and checks gives it its settings form.
 */
export function field(
  key: string,
  spec: AttrSpec,
  value: unknown,
  onChange: (value: unknown) => void,
  host: FieldHost,
  suggestions?: readonly Suggestion[],
): HTMLElement {
  const id = uid(`sv-f-${key}`);
  const label = h('label', { for: id, class: 'sv-label' }, spec.label ?? key);
  const wrap = h('div', { class: 'sv-field', 'data-field': key }, label);
  switch (spec.kind) {
    case 'text': {
      const input = spec.multiline
        ? h('textarea', { id, class: 'sv-input', rows: 2, maxlength: spec.max ?? 500 })
        : h('input', { id, class: 'sv-input', type: 'text', maxlength: spec.max ?? 500 });
      input.value = String(value ?? '');
      input.addEventListener('input', () => onChange(input.value));
      wrap.append(input);
      const list = suggest(input, suggestions);
      if (list) wrap.append(list);
      break;
    }
    case 'link':
    case 'image': {
      const input = h('input', {
        id,
        class: 'sv-input',
        type: 'url',
        placeholder: spec.kind === 'link' ? 'https://' : 'https://…/image.png',
      });
      input.value = String(value ?? '');
      const error = h('p', { class: 'sv-error', role: 'alert', hidden: true });
      const commit = () => {
        const raw = input.value.trim();
        const url = spec.kind === 'link' ? normalizeUserUrl(raw) : normalizeImageInput(raw);
        error.hidden = raw === '' || url !== '';
        error.textContent =
          spec.kind === 'link'
            ? 'Use an http, https, mailto or tel link.'
            : 'Use an http or https image address.';
        if (raw === '' || url) {
          input.value = url;
          onChange(url);
        }
      };
      input.addEventListener('change', commit);
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      });
      const row = h('div', { class: 'sv-row' }, input);
      if (spec.kind === 'image' && spec.upload !== false) {
        const status = h('span', { class: 'sv-hint', 'aria-live': 'polite' });
        const button = h('button', {
          type: 'button',
          class: 'sv-btn',
          'aria-label': t(host.where, 'Upload {what}', { what: t(host.where, spec.label ?? 'image') }),
          html: ICONS.upload,
        });
        if (!host.uploads) {
          // aria-disabled, not disabled: it stays focusable, so the reason is read out
          const reason = h('p', { id: uid('sv-off'), class: 'sv-hint sv-upload-off' }, host.offReason);
          button.setAttribute('aria-disabled', 'true');
          button.setAttribute('aria-describedby', reason.id);
          wrap.append(h('div', { class: 'sv-row' }, input, button), reason, error);
          break;
        }
        button.addEventListener('click', () =>
          host.pickAndUpload(
            (url) => {
              input.value = url;
              onChange(url);
            },
            (s) => {
              status.textContent =
                s.phase === 'uploading'
                  ? 'Uploading…'
                  : s.phase === 'error'
                    ? (s.message ?? 'Upload failed')
                    : '';
            },
          ),
        );
        row.append(button);
        wrap.append(row, status, error);
      } else wrap.append(row, error);
      break;
    }
    case 'color': {
      const text = h('input', {
        id,
        class: 'sv-input sv-hex',
        type: 'text',
        // "#f4f4f5" reads left to right in a right-to-left editor too
        dir: 'ltr',
        maxlength: 7,
        spellcheck: 'false',
        placeholder: spec.optional ? 'none' : '#000000',
      });
      const picker = h('input', {
        type: 'color',
        class: 'sv-swatch',
        'aria-label': t(host.where, '{what} picker', { what: t(host.where, spec.label ?? key) }),
      });
      const sync = (v: string) => {
        text.value = v;
        picker.value = isHexColor(v) && v.length === 7 ? v : '#ffffff';
      };
      sync(String(value ?? ''));
      picker.addEventListener('input', () => {
        text.value = picker.value;
        onChange(picker.value);
      });
      text.addEventListener('change', () => {
        const v = text.value.trim().toLowerCase();
        if (isHexColor(v) || (spec.optional && v === '')) onChange(v);
        else sync(String(value ?? ''));
      });
      wrap.append(h('div', { class: 'sv-row' }, picker, text));
      break;
    }
    case 'number': {
      const input = h('input', {
        id,
        class: 'sv-input sv-num',
        type: 'number',
        min: spec.min,
        max: spec.max,
        step: spec.step ?? 1,
      });
      input.value = String(value ?? spec.default);
      input.addEventListener('change', () => onChange(Number(input.value)));
      wrap.append(
        h('div', { class: 'sv-row' }, input, spec.unit ? h('span', { class: 'sv-unit' }, spec.unit) : null),
      );
      break;
    }
    case 'choice': {
      if (spec.options.length <= 3) {
        label.removeAttribute('for');
        label.id = id;
        const group = h('div', { class: 'sv-seg', role: 'radiogroup', 'aria-labelledby': id });
        spec.options.forEach((opt, i) => {
          const b = h(
            'button',
            { type: 'button', role: 'radio', 'aria-checked': String(opt === value), class: 'sv-seg-btn' },
            spec.labels?.[i] ?? opt,
          );
          b.addEventListener('click', () => onChange(opt));
          group.append(b);
        });
        wrap.append(group);
      } else {
        const select = h('select', { id, class: 'sv-input' });
        spec.options.forEach((opt, i) => {
          select.append(h('option', { value: opt, selected: opt === value }, spec.labels?.[i] ?? opt));
        });
        select.addEventListener('change', () => onChange(select.value));
        wrap.append(select);
      }
      break;
    }
    case 'bool': {
      const input = h('input', { id, type: 'checkbox', class: 'sv-check' });
      input.checked = value === true;
      input.addEventListener('change', () => onChange(input.checked));
      wrap.className = 'sv-field sv-field-inline';
      wrap.prepend(input);
      break;
    }
    case 'list': {
      label.removeAttribute('for');
      const items = (Array.isArray(value) ? value : []) as Record<string, string>[];
      const list = h('div', { class: 'sv-list' });
      items.forEach((item, i) => {
        const row = h('div', { class: 'sv-list-row' });
        for (const [k, s] of Object.entries(spec.item)) {
          row.append(
            field(
              k,
              s,
              item[k],
              (v) => onChange(items.map((it, j) => (j === i ? { ...it, [k]: v } : it))),
              host,
            ),
          );
        }
        row.append(
          h('button', {
            type: 'button',
            class: 'sv-icon-btn',
            'aria-label': 'Remove link',
            title: 'Remove',
            html: EDITING_ICONS.trash,
            onclick: () => onChange(items.filter((_, j) => j !== i)),
          }),
        );
        list.append(row);
      });
      const first = Object.entries(spec.item).map(([k, s]) => [k, s.default]);
      list.append(
        h(
          'button',
          { type: 'button', class: 'sv-btn', onclick: () => onChange([...items, Object.fromEntries(first)]) },
          '+ Add',
        ),
      );
      wrap.append(list);
      break;
    }
  }
  return wrap;
}
