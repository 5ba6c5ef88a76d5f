// The checkout as the test processes run it: every TypeScript file of packages/ compiled once to
// JavaScript beside a link to its source, everything else a link to the original. A test file
// then runs in a plain `node` process.
//
// Why (issue 41): under tsx, each of the ~190 test processes paid about 0.9 s of CPU for the
// loader alone (module hooks run on a thread of their own in Node 20, and a hook that does
// nothing already costs 0.45 s for the server's 700 modules), about a sixth of the run's CPU.
// esbuild compiles the whole tree in about two seconds, as tsx would have file by file.
//
// The tree keeps the checkout's layout, so `import.meta.url`-relative paths (fixtures, docs, the
// README, the build in dist/) reach the same files through the links, and `x.ts` is still there
// for the few tests that start `node --import tsx` on a source file. Stack traces point at the
// TypeScript lines of that link (inline source maps; the runner turns them on).
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';

/** Entries linked whole, never walked: installed, built or generated elsewhere. */
const LINKED_WHOLE = new Set(['node_modules', 'dist', '.git', 'test-results', 'data', '.bench']);

const isCompiled = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');

/**
 * Writes the tree for `root` at `out` (emptied first) and returns `out`. The compiler options
 * that change emitted code come from tsconfig.base.json, as tsc and tsx read them.
 */
export async function buildTestTree(root, out) {
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const { compilerOptions } = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const tsconfigRaw = {
    compilerOptions: {
      verbatimModuleSyntax: compilerOptions.verbatimModuleSyntax,
      useDefineForClassFields: compilerOptions.useDefineForClassFields,
      target: compilerOptions.target,
    },
  };
  const compiles = [];
  const walk = (from, to) => {
    mkdirSync(to, { recursive: true });
    const names = readdirSync(from, { withFileTypes: true });
    const taken = new Set(names.map((e) => e.name));
    for (const entry of names) {
      const source = path.join(from, entry.name);
      const target = path.join(to, entry.name);
      if (entry.isDirectory() && !LINKED_WHOLE.has(entry.name)) {
        walk(source, target);
        continue;
      }
      symlinkSync(source, target);
      if (!entry.isFile() || !isCompiled(entry.name)) continue;
      const js = entry.name.replace(/\.ts$/, '.js');
      // a module's `./x.js` import would find the wrong one of the two
      if (taken.has(js)) throw new Error(`${source}: a .js file of the same name is beside it`);
      compiles.push(
        transform(readFileSync(source, 'utf8'), {
          loader: 'ts',
          format: 'esm',
          target: 'node20',
          sourcemap: 'inline',
          // relative: a trace names the source link beside the compiled file, a path inside
          // the tree, so the PostgreSQL run's link (scripts/test.mjs) still tells the runs apart
          sourcefile: entry.name,
          tsconfigRaw,
        }).then(({ code }) => writeFileSync(path.join(to, js), code)),
      );
    }
  };
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.name === 'packages' || entry.name === '.git') continue;
    symlinkSync(path.join(root, entry.name), path.join(out, entry.name));
  }
  walk(path.join(root, 'packages'), path.join(out, 'packages'));
  await Promise.all(compiles);
  if (!existsSync(path.join(out, 'node_modules'))) throw new Error('the test tree has no node_modules');
  console.log(
    `${compiles.length} TypeScript files compiled for the tests in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return out;
}
