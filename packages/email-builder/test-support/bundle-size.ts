/**
 * What a host's bundler ships of a package: the gzip size of the first load (JS + CSS) and of
 * the chunks fetched on demand. `npm run bench` prints it beside @maily-to/core's; the budget
 * test holds ours to the README's figure.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

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
  lazy: LazyChunk[];
}

/**
 * Bundles `js` (an entry module's text, resolved from the package folder) and `cssFile` as a
 * host app would (minified, ESM, code split at dynamic imports) and measures the first load:
 * the entry chunk and every chunk it imports statically, plus the CSS.
 */
export async function bundleSize(name: string, js: string, cssFile?: string): Promise<BundleSize> {
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
  const gz = (text: string) => gzipSync(text, { level: 9 }).length;
  let jsMin = 0;
  let jsGz = 0;
  const lazy: LazyChunk[] = [];
  for (const [file, text] of files) {
    if (initial.has(file)) {
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
  return { name, min: jsMin + cssText.length, gz: jsGz + gz(cssText), lazy };
}

/** The target for {@link firstLoad}'s gzip size (issue 38): 110 KB, not met since issue 38. */
export const FIRST_LOAD_BUDGET = 110 * 1024;

/**
 * What the first load may not grow past while the target is not met: the 113.8 KB measured
 * after issue 38's conditions and repeats and the moves that followed, rounded up. The budget
 * test holds it, so the next kilobyte added to the first load is seen the day it is added.
 */
export const FIRST_LOAD_CEILING = 114 * 1024;

/**
 * Our first load as a host ships it: the built package's two classes and its stylesheet
 * (`dist/`, so run the build first).
 */
export function firstLoad(): Promise<BundleSize> {
  return bundleSize(
    '@service/email-builder',
    `import { ServiceEditor, MailPreview } from './dist/index.js'; window.E = [ServiceEditor, MailPreview];`,
    path.join(pkg, 'dist/service.css'),
  );
}

/** `n` bytes as KB with one decimal, as the README and the bench write them. */
export const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
