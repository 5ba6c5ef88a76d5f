import { chainCommands } from 'prosemirror-commands';
import { type InputRule, inputRules } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import type { Schema } from 'prosemirror-model';
import type { Command, Plugin } from 'prosemirror-state';
import type { BlockSet } from '../registry/block-set.js';

/**
 * The keys and input rules the blocks and marks of a set declare, as two plugins (keys first,
 * so a block's Enter runs before the base keymap's). Two definitions binding one key are both
 * tried, in registry order: the first that applies wins, as ProseMirror's `chainCommands` does.
 */
export function blockInput(set: BlockSet, schema: Schema): Plugin[] {
  const bindings = new Map<string, Command[]>();
  const bind = (keys: Record<string, Command> | undefined) => {
    for (const [key, command] of Object.entries(keys ?? {}))
      bindings.set(key, [...(bindings.get(key) ?? []), command]);
  };
  const rules: InputRule[] = [];
  for (const block of set.blocks) {
    const type = schema.nodes[block.name]!;
    bind(block.keys?.(type));
    rules.push(...(block.inputRules?.(type) ?? []));
  }
  for (const mark of set.marks) bind(mark.keys?.(schema.marks[mark.name]!));
  const keys = Object.fromEntries(
    [...bindings].map(([key, commands]) => [
      key,
      commands.length === 1 ? commands[0]! : chainCommands(...commands),
    ]),
  );
  return [keymap(keys), inputRules({ rules })];
}
