/**
 * The editor package as a user installs it: the packed tarball in a scratch project outside the
 * workspace. publint (strict) and arethetypeswrong find no problem (the stylesheet entry aside:
 * it has no types to find); every entry point loads with `require` and with `import` in Node;
 * an error from one build is `instanceof` the other's class (the dual-package hazard); the
 * README's TypeScript compiles; its doc links resolve inside the package.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PACKAGE_DIR } from '../test-support/server.js';
import {
  workspaceBin as bin,
  compileInEverySetup,
  installPacked,
  readmeTypeScript,
  runOrFail as run,
  type ScratchInstall,
} from '../test-support/tarball.js';

let packed: ScratchInstall;
const installed = () => path.join(packed.project, 'node_modules/@service/email-builder');

before(() => {
  packed = installPacked(PACKAGE_DIR);
});

after(() => packed.remove());

describe('the packed @service/email-builder', () => {
  it('passes publint --strict and arethetypeswrong', () => {
    run(bin('publint'), ['--strict', installed()], packed.project);
    run(bin('attw'), [packed.tarball, '--exclude-entrypoints', 'dist/service.css'], packed.project);
  });

  it('loads every entry point with require and with import in Node', () => {
    const node = (source: string, type: 'commonjs' | 'module') =>
      run(process.execPath, [`--input-type=${type}`, '-e', source], packed.project).trim();
    for (const entry of ['@service/email-builder', '@service/email-builder/templates']) {
      const required = node(`console.log(Object.keys(require('${entry}')).length)`, 'commonjs');
      const imported = node(`console.log(Object.keys(await import('${entry}')).length)`, 'module');
      assert.ok(Number(required) > 0, `${entry} by require`);
      assert.equal(imported, required, `${entry}: the same exports by import and by require`);
    }
  });

  it('knows its errors across its ESM and CommonJS builds', () => {
    const out = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module';
         const esm = await import('@service/email-builder');
         const cjs = createRequire(process.cwd() + '/')('@service/email-builder');
         let error;
         try { new cjs.ServiceEditor({ elementId: 'x' }); } catch (e) { error = e; }
         console.log(error instanceof esm.ServiceEditorError, error instanceof cjs.ServiceEditorError, new Error('x') instanceof esm.ServiceEditorError);`,
      ],
      packed.project,
    );
    assert.equal(out.trim(), 'true true false');
  });

  it('lets a bundler take only what an import reaches', async () => {
    // renderTemplate alone, without the editor (it once pulled it, 32 KB): 3 KB for merge tags,
    // 4 KB since it also evaluates conditions and repeats (issue 38: 3.7 KB measured)
    const { build } = await import('esbuild');
    const { gzipSync } = await import('node:zlib');
    const size = async (names: string) => {
      const out = await build({
        stdin: { contents: `export { ${names} } from '@service/email-builder';`, resolveDir: packed.project },
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        logLevel: 'silent',
      });
      return gzipSync(out.outputFiles[0]!.contents).length;
    };
    const template = await size('renderTemplate');
    assert.ok(template <= 4 * 1024, `renderTemplate: ${template} bytes gzipped`);
    // the renderers read blocks through their renderings: no ProseMirror, menus or icons (43 KB);
    // 15 KB before conditions, repeats and the export to other engines (issue 38: 17.3 KB)
    const renderers = await size('renderEmail, renderText');
    assert.ok(renderers <= 18 * 1024, `renderEmail and renderText: ${renderers} bytes gzipped`);
    const preview = await size('MailPreview');
    assert.ok(
      preview < (await size('ServiceEditor')) / 4,
      `MailPreview: ${preview} bytes, without the editor`,
    );
  });

  it('compiles the README’s TypeScript under strict, bundler and node16, ESM and CommonJS', () => {
    // browser code, so with the DOM; the one js block imports a host's own module and is left out
    const blocks = readmeTypeScript(path.join(PACKAGE_DIR, 'README.md'));
    assert.ok(blocks.length >= 7, `README blocks found: ${blocks.length}`);
    compileInEverySetup(packed.project, blocks, { lib: ['es2023', 'dom', 'dom.iterable'], types: [] });
  });

  it('ships the docs its README links to', () => {
    const readme = readFileSync(path.join(installed(), 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)\s]+)\)/g)].map((m) => m[1]!);
    assert.ok(links.length >= 2, `relative links: ${links}`);
    for (const link of links)
      assert.ok(existsSync(path.join(installed(), link)), `${link} is in the package`);
    assert.equal(
      existsSync(path.join(installed(), 'dist/iife.d.ts')),
      false,
      'no types for the script-tag build',
    );
    assert.equal(existsSync(path.join(installed(), 'LICENSE')), true);
  });
});
