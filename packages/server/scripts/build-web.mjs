#!/usr/bin/env node
// Build the pages the server serves (playground, domains dashboard) into dist/web: the
// TypeScript bundled for browsers with esbuild, HTML and CSS copied as they are.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.join(here, '../web');
const out = path.join(here, '../dist/web');
mkdirSync(out, { recursive: true });
const entries = readdirSync(web).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
await build({
  entryPoints: entries.map((f) => path.join(web, f)),
  bundle: true,
  format: 'esm',
  splitting: true,
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  outdir: out,
  loader: { '.css': 'css' },
  logLevel: 'warning',
});
for (const file of readdirSync(web)) {
  if (file.endsWith('.html') || file.endsWith('.css') || file.endsWith('.svg'))
    cpSync(path.join(web, file), path.join(out, file));
}
