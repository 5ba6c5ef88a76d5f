import type { EditorView } from 'prosemirror-view';
import { type AttrSpec, cleanValue } from '../model/attrs.js';
import { DOC_ATTRS } from '../model/doc.js';
import { h } from './dom.js';
import { type FieldHost, field } from './fields.js';

type DocKey = keyof typeof DOC_ATTRS;

/**
 * Fills `el` with the email settings form (see `SettingsPanel`): with `full`, the colours of
 * the scheme shown (`dark` or light), padding, corner radius, content width and preview text;
 * else the email background colour only. Each change sets a document attribute, so it undoes.
 */
export function renderEmailSettings(
  el: HTMLElement,
  view: EditorView,
  full: boolean,
  dark: boolean,
  host: FieldHost,
): void {
  const attrs = view.state.doc.attrs as Record<DocKey, unknown>;
  const colorKeys: DocKey[] = full
    ? dark
      ? ['darkBackdrop', 'darkCanvas', 'darkBorder']
      : ['backdrop', 'canvas', 'border']
    : [dark ? 'darkCanvas' : 'canvas'];
  const keys: DocKey[] = full ? [...colorKeys, 'padding', 'radius', 'width', 'preheader'] : colorKeys;
  const set = (key: DocKey, value: unknown) => {
    view.dispatch(view.state.tr.setDocAttribute(key, cleanValue(DOC_ATTRS[key] as AttrSpec, value)));
  };
  el.replaceChildren(
    h(
      'div',
      { class: 'sv-inspector-head' },
      h('strong', {}, full ? 'Email settings' : 'Background'),
      h('span', { class: 'sv-hint' }, dark ? 'Dark mode colours' : 'Light mode colours'),
    ),
    h(
      'div',
      { class: 'sv-inspector-body' },
      ...keys.map((key) =>
        field(key, DOC_ATTRS[key] as AttrSpec, attrs[key], (v) => set(key, v), { ...host, where: el }),
      ),
    ),
  );
}
