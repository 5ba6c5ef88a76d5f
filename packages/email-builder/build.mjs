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
await Promise.all([
  // ESM, one file per module, as the sources are: a host's bundler then takes only the modules an
  // import reaches (renderTemplate alone is a few hundred bytes, not the editor), and what the
  // editor loads on demand (the template picker, the stores, the starter gallery) stays behind
  // its dynamic import().
  esbuild.build({
    entryPoints: modules,
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
