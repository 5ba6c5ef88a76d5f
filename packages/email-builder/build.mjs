// Builds dist/: ESM (split into lazy chunks) and CJS (dependencies left to the host's bundler), a self-contained
// script-tag build (global `ServiceEmailBuilder`), the minified stylesheet and the types (ESM,
// and again for CommonJS under dist/cjs/).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const pkg = require('./package.json');
const external = Object.keys(pkg.dependencies ?? {});
const entry = path.join(here, 'src/index.ts');
const templatesEntry = path.join(here, 'src/templates/index.ts');
const dist = path.join(here, 'dist');

rmSync(dist, { recursive: true, force: true });
// Class fields as assignments in the constructor, as TypeScript wrote them before ES2022's
// define semantics: es2020 has no class fields, and lowering them the define way wraps every
// field in a `__publicField(this, "name", value)` call, with that helper repeated in every
// module a host bundles (818 bytes gzip of the first load, issue 38). No class here relies on define
// semantics (none redeclares a field over an accessor of a base class).
const tsconfigRaw = { compilerOptions: { useDefineForClassFields: false } };
const common = {
  entryPoints: [entry],
  bundle: true,
  target: 'es2020',
  tsconfigRaw,
  logLevel: 'warning',
  legalComments: 'none',
};
/** Every module of the package: the ESM build keeps them apart (see below). */
const modules = readdirSync(path.join(here, 'src'), { recursive: true })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'iife.ts')
  .map((file) => path.join(here, 'src', file));
/**
 * Modules a lazy chunk loads that `index.ts` also exports, each built into the one lazy module
 * that uses it, by the module's file and the file that takes it in. esbuild, as a host's
 * bundler, assigns a module to the chunks of every entry that reaches it, and `index.ts` reaches
 * what it re-exports, used or not: imported from a lazy chunk, `renderTemplate` would stay in the
 * first load in a chunk of its own (+766 bytes gzip instead of -1.5 KB, issue 38). Inlined, the
 * dialog's copy is fetched with the dialog; a host that also calls `renderTemplate` in the
 * browser gets the function twice, once in each.
 */
const inlined = new Map([['variables/render-template.ts', 'preview/preview-dialog.ts']]);
const hosts = new Set(inlined.values());
/** Keeps every import of a lazy module external (as the per-module build does) but its inlined ones. */
const inlineOnly = (into) => ({
  name: 'inline-only',
  setup(build) {
    build.onResolve({ filter: /^/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const file = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      if (inlined.get(path.relative(path.join(here, 'src'), file)) === into) return { path: file };
      if (!args.path.startsWith('.')) return { path: args.path, external: true };
      // relative to the output file, which sits where its source does
      const from = path.dirname(path.join(here, 'src', into));
      let to = path.relative(from, path.resolve(args.resolveDir, args.path));
      if (!to.startsWith('.')) to = `./${to}`;
      return { path: to, external: true };
    });
  },
});
await Promise.all([
  // ESM, one file per module, as the sources are: a host's bundler then takes only the modules an
  // import reaches (renderTemplate alone is a few hundred bytes, not the editor), and what the
  // editor loads on demand (the template picker, the stores, the starter gallery) stays behind
  // its dynamic import().
  esbuild.build({
    entryPoints: modules.filter((file) => !hosts.has(path.relative(path.join(here, 'src'), file))),
    bundle: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    tsconfigRaw,
    outdir: dist,
    outbase: path.join(here, 'src'),
    logLevel: 'warning',
    legalComments: 'none',
  }),
  ...[...hosts].map((into) =>
    esbuild.build({
      entryPoints: [path.join(here, 'src', into)],
      bundle: true,
      plugins: [inlineOnly(into)],
      format: 'esm',
      platform: 'neutral',
      target: 'es2020',
      tsconfigRaw,
      outfile: path.join(dist, into.replace(/\.ts$/, '.js')),
      logLevel: 'warning',
      legalComments: 'none',
    }),
  ),
  ...[
    [entry, 'index.cjs'],
    [templatesEntry, 'templates.cjs'],
  ].map(([from, to]) =>
    esbuild.build({
      ...common,
      entryPoints: [from],
      format: 'cjs',
      platform: 'node',
      external,
      outfile: path.join(dist, to),
    }),
  ),
  esbuild.build({
    ...common,
    format: 'iife',
    platform: 'browser',
    entryPoints: [path.join(here, 'src/iife.ts')],
    globalName: 'ServiceEmailBuilder',
    minify: true,
    outfile: path.join(dist, 'service.iife.js'),
  }),
  esbuild.build({
    entryPoints: [path.join(here, 'src/styles/service.css')],
    bundle: true,
    minify: true,
    logLevel: 'warning',
    outfile: path.join(dist, 'service.css'),
  }),
]);
const tsc = require.resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.build.json')], { stdio: 'inherit' });

// The same types again under dist/cjs/, where a package.json says "commonjs": TypeScript reads
// them as CommonJS for `require` (the ESM build's types would "masquerade as ESM" there).
const cjsTypes = path.join(dist, 'cjs');
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const from = path.join(entry.parentPath, entry.name);
  const to = path.join(cjsTypes, path.relative(dist, from));
  mkdirSync(path.dirname(to), { recursive: true });
  cpSync(from, to);
}
writeFileSync(path.join(cjsTypes, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
