#!/usr/bin/env node
// Build the pages the server serves (playground, domains dashboard) into dist/web: the
// TypeScript bundled for browsers with esbuild, HTML, CSS and images copied as they are.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.join(here, '../web');
const out = path.join(here, '../dist/web');
// esbuild only strips the types: check them first, so a page that no longer matches the
// client's types (an event the API added, a renamed field) fails the build, not the browser.
execFileSync(
  process.execPath,
  [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', path.join(web, 'tsconfig.json')],
  { stdio: 'inherit' },
);
// Rebuilt from nothing, so no file of an earlier build (a source map, a renamed chunk) is served.
rmSync(out, { recursive: true, force: true });
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
  // No source maps: everything in dist/web is served, and a map hands out the sources (715 KB)
  // to anyone. The readable sources are web/*.ts in the repository.
  sourcemap: false,
  outdir: out,
  loader: { '.css': 'css' },
  logLevel: 'warning',
  // email-builder's split build re-imports its shared chunks bare (`import "./chunk.js"`) next to
  // the named imports that already load them; its sideEffects list rightly drops those.
  logOverride: { 'ignored-bare-import': 'silent' },
});
for (const file of readdirSync(web)) {
  if (/\.(html|css|svg|png)$/.test(file)) cpSync(path.join(web, file), path.join(out, file));
}
// The editor's stylesheet, linked by the playground as it is (a CSS import in the bundle would
// be named after its entry and collide with playground.css).
cpSync(
  fileURLToPath(import.meta.resolve('@service/email-builder/dist/service.css')),
  path.join(out, 'email-builder.css'),
);
