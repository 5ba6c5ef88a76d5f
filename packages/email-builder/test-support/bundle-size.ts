/**
 * What a host's bundler ships of a package: the gzip size of the first load (JS + CSS) and of
 * the chunks fetched on demand, measured as a plain Vite build makes them (the budget test and
 * `npm run bench`) and as esbuild's code splitting makes them (the bench, and a ceiling).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { type Rolldown, build as viteBuild } from 'vite';

/** The package folder (its `dist/` is what is measured). */
const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One chunk a host's bundler splits off behind a dynamic `import()`. */
export interface LazyChunk {
  file: string;
  /** minified bytes */
  min: number;
  /** gzip -9 bytes */
  gz: number;
  /** the source modules in it, by base name */
  inputs: string[];
}

/** The sizes of one bundle, as {@link bundleSize} measures them. */
export interface BundleSize {
  name: string;
  /** first load, minified JS + CSS, bytes */
  min: number;
  /** first load, JS + CSS each gzip -9, bytes */
  gz: number;
  /** the source modules of the first load, by base name */
  inputs: string[];
  lazy: LazyChunk[];
}

const gz = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length;

/**
 * Bundles `js` (an entry module's text, resolved from the package folder) and `cssFile` as a
 * host app does in a plain Vite build (Vite 8: Rolldown, its minifier, Lightning CSS; the
 * defaults, code split at dynamic imports) and measures the first load: the entry chunk, every
 * chunk it imports statically and the CSS they import. Like Rollup before it and webpack, Vite
 * keeps every module the entry imports statically in the entry's chunk, and a module only a
 * lazy chunk uses in that chunk; esbuild does neither (see {@link esbuildSize}).
 */
export async function bundleSize(name: string, js: string, cssFile?: string): Promise<BundleSize> {
  const root = path.join(pkg, '.bench/vite');
  mkdirSync(root, { recursive: true });
  // a host app's own package, ESM as Vite's templates make it (an entry Rolldown took for
  // CommonJS would carry a module wrapper: 2.5 KB more)
  writeFileSync(path.join(root, 'package.json'), '{ "private": true, "type": "module" }\n');
  const entry = path.join(root, `${name.replace(/[^a-z0-9]+/gi, '-')}.js`);
  const css = cssFile ? `import ${JSON.stringify(cssFile)};\n` : '';
  // the entry sits in .bench/vite/, so './dist/…' is written from the package folder
  writeFileSync(entry, css + js.replaceAll("'./dist/", "'../../dist/"));
  const result = await viteBuild({
    root,
    configFile: false,
    envFile: false,
    logLevel: 'silent',
    build: { write: false, rolldownOptions: { input: entry } },
  });
  // one build, not watching: a RolldownOutput
  const output = (result as Rolldown.RolldownOutput).output;
  const chunks = new Map(output.flatMap((o) => (o.type === 'chunk' ? [[o.fileName, o] as const] : [])));
  const assets = new Map(
    output.flatMap((o) => (o.type === 'asset' ? [[o.fileName, o.source] as const] : [])),
  );
  const first = [...chunks.values()].find((c) => c.isEntry);
  if (!first) throw new Error(`${name}: Vite reported no entry chunk`);
  const initial = new Set<string>();
  const visit = (file: string): void => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const i of chunks.get(file)?.imports ?? []) visit(i);
  };
  visit(first.fileName);
  let min = 0;
  let gzip = 0;
  const cssFiles = new Set<string>();
  const inputs: string[] = [];
  const lazy: LazyChunk[] = [];
  for (const [file, chunk] of chunks) {
    if (initial.has(file)) {
      inputs.push(...chunk.moduleIds.map((i) => path.basename(i, path.extname(i))));
      min += chunk.code.length;
      gzip += gz(chunk.code);
      for (const c of chunk.viteMetadata?.importedCss ?? []) cssFiles.add(c);
    } else {
      const inputs = chunk.moduleIds.map((i) => path.basename(i, path.extname(i)));
      lazy.push({ file: path.basename(file), min: chunk.code.length, gz: gz(chunk.code), inputs });
    }
  }
  for (const file of cssFiles) {
    const source = assets.get(file) ?? '';
    min += source.length;
    gzip += gz(source);
  }
  return { name, min, gz: gzip, inputs, lazy };
}

/**
 * As {@link bundleSize}, but split as esbuild splits (minified, ESM, `splitting`): esbuild puts
 * each module in a chunk by the set of entries (the host's and each dynamic `import()`) that
 * reach it, so the first load comes in ten files compressed apart, and a module that `index.ts`
 * re-exports reaches the host's entry even unused, so a lazy chunk that imports it moves it into
 * the first load.
 */
export async function esbuildSize(name: string, js: string, cssFile?: string): Promise<BundleSize> {
  // Split like a host's bundler (Vite, webpack, esbuild) does: code behind a dynamic import()
  // becomes chunks fetched on use. The first load is the entry and its static imports.
  const out = await esbuild.build({
    stdin: { contents: js, resolveDir: pkg, loader: 'jsx' },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    outdir: path.join(pkg, '.bench/bundle'),
    metafile: true,
    // metafile paths are relative to this; outputFiles' are absolute (made relative to pkg below)
    absWorkingDir: pkg,
    platform: 'browser',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    loader: { '.css': 'empty' },
  });
  const files = new Map(out.outputFiles.map((f) => [path.relative(pkg, f.path), f.text]));
  const outputs = out.metafile.outputs;
  // the host's entry (esbuild marks the chunks behind a dynamic import() as entry points too)
  const entry = Object.keys(outputs).find((k) => outputs[k]?.entryPoint === '<stdin>');
  if (entry === undefined) throw new Error(`${name}: esbuild reported no entry chunk`);
  const initial = new Set<string>();
  const visit = (file: string): void => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const i of outputs[file]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(entry);
  let jsMin = 0;
  let jsGz = 0;
  const initialInputs: string[] = [];
  const lazy: LazyChunk[] = [];
  for (const [file, text] of files) {
    if (initial.has(file)) {
      initialInputs.push(
        ...Object.keys(outputs[file]?.inputs ?? {}).map((i) => path.basename(i, path.extname(i))),
      );
      jsMin += text.length;
      jsGz += gz(text);
    } else {
      const inputs = Object.keys(outputs[file]?.inputs ?? {}).map((i) => path.basename(i, path.extname(i)));
      lazy.push({ file: path.basename(file), min: text.length, gz: gz(text), inputs });
    }
  }
  let cssText = '';
  if (cssFile) {
    const css = await esbuild.build({
      entryPoints: [cssFile],
      bundle: true,
      minify: true,
      write: false,
      logLevel: 'silent',
      loader: { '.woff2': 'empty', '.woff': 'empty' },
    });
    cssText = css.outputFiles[0]?.text ?? '';
  }
  return { name, min: jsMin + cssText.length, gz: jsGz + gz(cssText), inputs: initialInputs, lazy };
}

/**
 * The budget of {@link firstLoad}'s gzip size (issue 38): 110 KB. The budget test fails one byte
 * over it.
 */
export const FIRST_LOAD_BUDGET = 110 * 1024;

/**
 * What the first load as esbuild splits it ({@link firstLoadEsbuild}) may not grow past: the
 * 112.3 KB measured when the budget was met in Vite (issue 38), rounded up.
 */
export const ESBUILD_FIRST_LOAD_CEILING = 113 * 1024;

/** The entry of a host that shows the editor and the preview. */
const HOST = `import { ServiceEditor, MailPreview } from './dist/index.js'; window.E = [ServiceEditor, MailPreview];`;

/**
 * Our first load as a host ships it from a plain Vite build: the built package's two classes and
 * its stylesheet (`dist/`, so run the build first).
 */
export function firstLoad(): Promise<BundleSize> {
  return bundleSize('@service/email-builder', HOST, path.join(pkg, 'dist/service.css'));
}

/** The same first load as esbuild's code splitting ships it (see {@link esbuildSize}). */
export function firstLoadEsbuild(): Promise<BundleSize> {
  return esbuildSize('@service/email-builder', HOST, path.join(pkg, 'dist/service.css'));
}

/** `n` bytes as KB with one decimal, as the README and the bench write them. */
export const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
