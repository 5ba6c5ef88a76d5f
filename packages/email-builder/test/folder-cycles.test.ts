// The package's folders are floors: a folder may import the floors below it, never one above
// (issue 38; docs/style.md, "Imports only point down"). Bottom up: errors and problems, the email
// primitives (`primitives/`), the model, branding, the template language (`variables/`), the
// blocks (`nodes/`) and marks, the registry, the document renderer (`render/`) and the
// document-wide checks (`document/`), the editor's input, views and UI, and the facade. This
// walks every import of `src/` as TypeScript reads it (static, type-only, re-exports, dynamic
// `import()` and `import('…')` types) and fails naming the folders of any cycle, with one
// import that makes each step. A file at the root of `src/` counts as a floor of its own. Test
// files are left out: a test may reach any floor to exercise its module.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { PACKAGE_DIR } from '../test-support/server.js';

const SRC = path.join(PACKAGE_DIR, 'src');

/** Every module specifier a source file imports, re-exports or loads with `import()`. */
export function importsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push(node.argument.literal.text);
    else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    )
      found.push(node.moduleReference.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The floor a file of `src/` belongs to: its top folder, or the file itself at the root. */
function floorOf(relative: string): string {
  const [first, ...rest] = relative.split('/');
  return rest.length ? `${first}/` : (first as string);
}

/** One import from a file of one floor into another floor. */
interface Edge {
  from: string;
  to: string;
  /** one file-level example: `render/email.ts -> nodes/rendering.ts` */
  example: string;
}

/** The floor-to-floor imports of `src/`, one example import each. */
function floorEdges(): Map<string, Map<string, Edge>> {
  const edges = new Map<string, Map<string, Edge>>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  for (const file of files) {
    const from = floorOf(file);
    for (const spec of importsOf(file, readFileSync(path.join(SRC, file), 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target.startsWith('..')) continue;
      const to = floorOf(target.replace(/\.js$/, '.ts'));
      if (to === from) continue;
      const out = edges.get(from) ?? new Map<string, Edge>();
      edges.set(from, out);
      if (!out.has(to)) out.set(to, { from, to, example: `${file} -> ${target.replace(/\.js$/, '.ts')}` });
    }
  }
  return edges;
}

/**
 * The cycles among floors: one per strongly connected group of floors (Tarjan), each written as
 * a closed path through the group with the import that makes each step.
 */
export function floorCycles(edges: Map<string, Map<string, Edge>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v);
  return groups.map((group) => {
    // the shortest way back to the group's first floor, inside the group (breadth first)
    const members = new Set(group);
    const start = group.sort()[0]!;
    const cameFrom = new Map<string, Edge>();
    const queue = [start];
    let closing: Edge | undefined;
    while (queue.length && !closing) {
      const v = queue.shift()!;
      for (const [w, edge] of edges.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          closing = edge;
          break;
        }
        if (!cameFrom.has(w)) {
          cameFrom.set(w, edge);
          queue.push(w);
        }
      }
    }
    const steps: Edge[] = [closing!];
    while (steps[0]!.from !== start) steps.unshift(cameFrom.get(steps[0]!.from)!);
    const route = [start, ...steps.map((s) => s.to)].join(' -> ');
    const how = steps.map((s) => `    ${s.example}`).join('\n');
    return `${route} (the folders ${group.join(', ')} import each other)\n${how}`;
  });
}

describe('the folders of src/', () => {
  it('import each other in no cycle', () => {
    const cycles = floorCycles(floorEdges());
    assert.deepEqual(cycles, [], `folder cycles in src/:\n${cycles.join('\n')}`);
  });

  it('are walked through every kind of import TypeScript has', () => {
    // the walk itself, so that a cycle made by one kind of import cannot go unseen
    const text = [
      "import { a } from './a/x.js';",
      "import type { B } from './b/x.js';",
      "export { c } from './c/x.js';",
      "export * from './d/x.js';",
      "const e = () => import('./e/x.js');",
      "let f: import('./f/x.js').F;",
      "import './g/x.js';",
    ].join('\n');
    assert.deepEqual(importsOf('x.ts', text), [
      './a/x.js',
      './b/x.js',
      './c/x.js',
      './d/x.js',
      './e/x.js',
      './f/x.js',
      './g/x.js',
    ]);
    const edge = (from: string, to: string): [string, Edge] => [
      to,
      { from, to, example: `${from}x -> ${to}x` },
    ];
    const cycles = floorCycles(
      new Map([
        ['a/', new Map([edge('a/', 'b/')])],
        ['b/', new Map([edge('b/', 'c/')])],
        ['c/', new Map([edge('c/', 'a/'), edge('c/', 'd/')])],
      ]),
    );
    assert.equal(cycles.length, 1);
    assert.match(cycles[0]!, /^a\/ -> b\/ -> c\/ -> a\//);
  });
});
