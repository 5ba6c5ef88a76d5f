// Builds dist/: ESM and CJS (dependencies left to the host's bundler), a self-contained
// script-tag build (global `ServiceEmailBuilder`), the minified stylesheet and the types.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const pkg = require('./package.json');
const external = Object.keys(pkg.dependencies ?? {});
const entry = path.join(here, 'src/index.ts');
const dist = path.join(here, 'dist');

rmSync(dist, { recursive: true, force: true });
const common = {
  entryPoints: [entry],
  bundle: true,
  target: 'es2020',
  logLevel: 'warning',
  legalComments: 'none',
};
await Promise.all([
  esbuild.build({
    ...common,
    format: 'esm',
    platform: 'neutral',
    external,
    outfile: path.join(dist, 'index.js'),
  }),
  esbuild.build({
    ...common,
    format: 'cjs',
    platform: 'node',
    external,
    outfile: path.join(dist, 'index.cjs'),
  }),
  esbuild.build({
    ...common,
    format: 'iife',
    platform: 'browser',
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
