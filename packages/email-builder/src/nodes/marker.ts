import type { TagParseRule } from 'prosemirror-model';
import { type AttrTable, changedAttrs, readAttrsMarker } from '../model/attrs.js';
import { escapeHtml } from '../primitives/escape.js';
import type { Attrs } from './rendering.js';

// The round-trip marker: `data-block` names the block and `data-attrs` holds the attributes that
// differ from their defaults, so `setContent(getHTML())` and copy/paste inside the editor give
// the same node back. Email clients ignore data attributes.

/** The marker's attributes, for a block's editing view (`toDOM`). */
export function domMarker(name: string, table: AttrTable, attrs: Attrs): Record<string, string> {
  const changed = changedAttrs(table, attrs);
  return changed ? { 'data-block': name, 'data-attrs': JSON.stringify(changed) } : { 'data-block': name };
}

/** {@link domMarker} as an HTML attribute string for the email renderer. */
export function htmlMarker(name: string, table: AttrTable, attrs: Attrs): string {
  const changed = changedAttrs(table, attrs);
  const data = changed ? ` data-attrs="${escapeHtml(JSON.stringify(changed))}"` : '';
  return ` data-block="${name}"${data}`;
}

/** The parse rule that reads a {@link domMarker} back, checking every attribute again. */
export function markerRule(name: string, table: AttrTable, extra: Partial<TagParseRule> = {}): TagParseRule {
  return {
    tag: `[data-block="${name}"]`,
    priority: 80,
    getAttrs: (dom) => readAttrsMarker(table, (dom as HTMLElement).getAttribute('data-attrs')),
    ...extra,
  };
}
