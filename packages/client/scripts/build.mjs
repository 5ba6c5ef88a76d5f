#!/usr/bin/env node
// Builds dist/: the ESM modules and their types (tsc), one CommonJS bundle for `require`
// (esbuild, with openapi-fetch inside it: openapi-fetch's own CommonJS build has no
// `__esModule` mark, so a bundle that required it would see its whole exports object as the
// default import and crash on the first call, issue 40), and the same types again under dist/cjs/, where a
// package.json says "commonjs", so TypeScript reads them as CommonJS for `require` (the types
// of an ESM build would "masquerade as ESM" there).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..');
const dist = path.join(pkgDir, 'dist');
const require = createRequire(import.meta.url);

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [path.join(here, 'generate.mjs')], { stdio: 'inherit' });
execFileSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', path.join(pkgDir, 'tsconfig.build.json')],
  {
    stdio: 'inherit',
  },
);
await esbuild.build({
  entryPoints: [path.join(pkgDir, 'src/index.ts')],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: path.join(dist, 'index.cjs'),
  logLevel: 'warning',
});

const cjsTypes = path.join(dist, 'cjs');
mkdirSync(cjsTypes, { recursive: true });
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const from = path.join(entry.parentPath, entry.name);
  if (from.startsWith(cjsTypes)) continue;
  const to = path.join(cjsTypes, path.relative(dist, from));
  mkdirSync(path.dirname(to), { recursive: true });
  cpSync(from, to);
}
writeFileSync(path.join(cjsTypes, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
