// The package as hosts use it: importing in Node is harmless, constructing outside a browser
// throws a clear error, and the error catalogue stays in step with the README.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ERRORS, MailPreview, PROBLEMS, ServiceEditor, type ServiceEditorError } from '../src/index.js';
import { PACKAGE_DIR } from '../test-support/server.js';

describe('the package', () => {
  it('imports in Node without touching a DOM, and refuses to construct there', () => {
    assert.equal(typeof document, 'undefined');
    assert.throws(
      () => new ServiceEditor({ elementId: 'x' }),
      (e: ServiceEditorError) =>
        e.code === 'SEB_ERR_NOT_BROWSER' &&
        /^SEB_ERR_NOT_BROWSER: ServiceEditor needs a browser/.test(e.message),
    );
  });

  it('constructs MailPreview in Node, checks its options, and needs a browser only to show', () => {
    const preview = new MailPreview({ closeOnOverlayClick: false });
    assert.equal(preview.options.closeOnOverlayClick, false);
    assert.equal(new MailPreview().options.closeOnOverlayClick, true);
    preview.setContent('<p>x</p>');
    assert.equal(preview.getContent(), '<p>x</p>');
    assert.equal(preview.isVisible(), false);
    assert.throws(
      () => preview.show(),
      (e: ServiceEditorError) =>
        e.code === 'SEB_ERR_NOT_BROWSER' && /MailPreview\.show\(\) needs a browser/.test(e.message),
    );
    assert.throws(
      () => new MailPreview({ view: 'tablet' as never }),
      (e: ServiceEditorError) => e.code === 'SEB_ERR_OPTIONS' && /view/.test(e.message),
    );
    assert.throws(
      () => new MailPreview({ closeOnOverlayClick: 'yes' as never }),
      (e: ServiceEditorError) => e.code === 'SEB_ERR_OPTIONS' && /closeOnOverlayClick/.test(e.message),
    );
    preview.destroy();
    preview.destroy();
    assert.throws(
      () => preview.setContent('<p>y</p>'),
      (e: ServiceEditorError) => e.code === 'SEB_ERR_PREVIEW_DESTROYED',
    );
  });

  it('lists every content problem in the README, and no other', () => {
    const readme = readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| `(SEB_PROBLEM_[A-Z_]+)` +\| (.+?) *\|$/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    assert.deepEqual(Object.fromEntries(documented), { ...PROBLEMS });
  });

  it('lists every error code in the README, and no other', () => {
    const readme = readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| `(SEB_ERR_[A-Z_]+)` +\| (.+?) *\|$/gm)].map((m) => [
      m[1],
      m[2]!.replace(/\\\|/g, '|'),
    ]);
    assert.deepEqual(Object.fromEntries(documented), { ...ERRORS });
  });

  it('builds ESM, CJS, the script-tag bundle, the stylesheet and types', async () => {
    const dist = path.join(PACKAGE_DIR, 'dist');
    if (!existsSync(path.join(dist, 'index.d.ts')))
      execFileSync(process.execPath, [path.join(PACKAGE_DIR, 'build.mjs')]);
    const esm = await import(pathToFileURL(path.join(dist, 'index.js')).href);
    const cjs = createRequire(import.meta.url)(path.join(dist, 'index.cjs'));
    for (const mod of [esm, cjs]) {
      assert.equal(typeof mod.ServiceEditor, 'function');
      assert.equal(typeof mod.MailPreview, 'function');
      assert.match(mod.renderEmail({ type: 'doc', content: [{ type: 'paragraph' }] }), /^<!DOCTYPE html>/);
    }
    const templates = await import(pathToFileURL(path.join(dist, 'templates/index.js')).href);
    const templatesCjs = createRequire(import.meta.url)(path.join(dist, 'templates.cjs'));
    for (const mod of [templates, templatesCjs]) {
      assert.equal(typeof mod.HttpTemplateStore, 'function');
      assert.equal((await mod.loadStarterTemplates()).length, 8);
    }
    assert.match(readFileSync(path.join(dist, 'service.iife.js'), 'utf8'), /ServiceEmailBuilder/);
    assert.match(readFileSync(path.join(dist, 'service.css'), 'utf8'), /\.sv-root/);
    assert.match(readFileSync(path.join(dist, 'index.d.ts'), 'utf8'), /ServiceEditor/);
  });
});
