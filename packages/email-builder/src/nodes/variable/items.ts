import type { ResolvedPos } from 'prosemirror-model';
import { t } from '../../i18n/translate.js';
import { cleanFallback, formatVariable, isVariableName } from '../../primitives/merge-tags.js';
import { type ScopedVariable, variablesInScope } from '../../variables/scope.js';
import type { VariableOption } from '../../variables/shape.js';
import { insertInline } from '../commands.js';
import type { SlashItem } from '../define.js';

/**
 * The lists of the repeats around `$pos`, outermost first (`['orders', 'item.lines']`): what
 * `item` is there (see {@link variablesInScope}).
 */
export function repeatsAround($pos: ResolvedPos): string[] {
  const lists: string[] = [];
  for (let d = 1; d <= $pos.depth; d++) {
    const node = $pos.node(d);
    if (node.type.name === 'repeat') lists.push(String(node.attrs.each));
  }
  return lists;
}

/** The menu item that inserts the variable `v` (with its fallback) in place of the typed trigger. */
function variableItem(v: Pick<ScopedVariable, 'path' | 'label' | 'fallback'>): SlashItem {
  return {
    id: `var-${v.path.replace(/\./g, '-')}`,
    group: 'Variables',
    title: v.label ?? v.path,
    description: formatVariable(v.path, v.fallback),
    keywords: [v.path],
    icon: 'variable',
    run: (host, from, to) =>
      insertInline(
        host,
        from,
        to,
        host.view.state.schema.nodes.variable!.create({ name: v.path, fallback: cleanFallback(v.fallback) }),
      ),
  };
}

/**
 * The variables that can be written at `$pos` as menu items: the host's, with the fields of its
 * objects (`customer.email`) and, inside a repeat, its item's (`item.price`, first). Loaded with
 * the editing UI: the slash menu lists them when its query finds them.
 */
export function scopedVariableItems(options: readonly VariableOption[], $pos: ResolvedPos): SlashItem[] {
  return variablesInScope(options, repeatsAround($pos))
    .filter((v) => v.writable)
    .map(variableItem);
}

/**
 * The `{{` menu at `$pos`: the variables there (see {@link scopedVariableItems}) filtered by the
 * typed name, and the typed name itself when no variable has it ("Insert {{name}}", in the
 * language of `where`, the editor's root).
 */
export function variableItems(
  options: readonly VariableOption[],
  query: string,
  $pos: ResolvedPos,
  where?: Element,
): SlashItem[] {
  const q = query.toLowerCase();
  const scope = variablesInScope(options, repeatsAround($pos)).filter((v) => v.writable);
  const found = scope.filter(
    (v) => v.path.toLowerCase().includes(q) || (v.label ?? '').toLowerCase().includes(q),
  );
  const exact = scope.some((v) => v.path === query);
  if (isVariableName(query) && !exact)
    found.push({ path: query, label: t(where, 'Insert {tag}', { tag: `{{${query}}}` }) } as ScopedVariable);
  return found.map(variableItem);
}
