// The host examples of docs/editor-hosts.md, run as written: the plain-HTML page with its
// script file, and the React components (in Strict Mode, rendered on the "server" with
// renderToString, then unmounted). If the docs drift from the API, this fails.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test-support/browser.js';
import { buildBrowserBundle, PACKAGE_DIR } from '../test-support/server.js';

const DOC = readFileSync(path.join(PACKAGE_DIR, 'docs/editor-hosts.md'), 'utf8');

/** The fenced code blocks of type `lang` under the `## heading` section, in order. */
function examples(heading: string, lang: string): string[] {
  const start = DOC.indexOf(`\n## ${heading}`);
  assert.notEqual(start, -1, `docs/editor-hosts.md has a "## ${heading}" section`);
  const end = DOC.indexOf('\n## ', start + 1);
  const section = DOC.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

/** esbuild resolves the package to its sources, and the doc's files to the blocks. */
function docFiles(files: Record<string, string>): esbuild.Plugin {
  return {
    name: 'doc-files',
    setup(build) {
      build.onResolve({ filter: /^@service\/email-builder$/ }, () => ({
        path: path.join(PACKAGE_DIR, 'src/index.ts'),
      }));
      build.onResolve({ filter: /^@service\/email-builder\/dist\/service\.css$/ }, () => ({
        path: path.join(PACKAGE_DIR, 'src/styles/service.css'),
      }));
      build.onResolve({ filter: /^\.\/\w+$/ }, (args) =>
        files[`${args.path.slice(2)}.tsx`] !== undefined
          ? { path: args.path.slice(2), namespace: 'doc' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'doc' }, (args) => ({
        contents: files[`${args.path}.tsx`],
        loader: 'tsx',
        resolveDir: PACKAGE_DIR,
      }));
    },
  };
}

/** Waits for a condition of this process (what the page sent), checking every 20 ms. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let server: Server;
let origin: string;
let browser: Browser;
let page: Page;
const routes = new Map<string, { type: string; body: string }>();
const sent: unknown[] = [];

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/send') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        sent.push(JSON.parse(body));
        res.writeHead(204).end();
      });
      return;
    }
    const route = routes.get(url.pathname);
    if (!route) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': route.type }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('docs/editor-hosts.md', () => {
  it('plain HTML: the page and its script file mount the editor, send getHTML(), and keep a draft', async () => {
    const [html] = examples('Plain HTML (script tag)', 'html');
    const [script] = examples('Plain HTML (script tag)', 'js');
    const bundle = await buildBrowserBundle();
    routes.set('/', { type: 'text/html', body: html! });
    routes.set('/vendor/email-builder/service.css', { type: 'text/css', body: bundle.css });
    routes.set('/vendor/email-builder/service.iife.js', { type: 'text/javascript', body: bundle.js });
    routes.set('/js/compose.js', { type: 'text/javascript', body: script! });
    await page.goto(`${origin}/`);
    await page.click('#editor .sv-content');
    await page.keyboard.type('Sent from a plain page');
    await page.click('#send');
    await until(() => sent.length > 0);
    const [message] = sent.splice(0) as { html: string; text: string }[];
    assert.match(message!.html, /^<!DOCTYPE html>/);
    assert.match(message!.html, /Sent from a plain page/);
    assert.equal(message!.text.trim(), 'Sent from a plain page');
    await page.reload();
    await page.locator('#editor .sv-content', { hasText: 'Sent from a plain page' }).waitFor();
  });

  it('React: renders on the server without constructing anything', async () => {
    const [editor, compose] = examples('React', 'tsx');
    const dir = mkdtempSync(path.join(tmpdir(), 'hosts-ssr-'));
    try {
      const result = await esbuild.build({
        stdin: {
          contents: `import { renderToString } from 'react-dom/server';
            import { createElement } from 'react';
            import { Compose } from './Compose';
            globalThis.send = () => {};
            export const html = renderToString(createElement(Compose));`,
          loader: 'tsx',
          resolveDir: PACKAGE_DIR,
        },
        bundle: true,
        format: 'cjs',
        platform: 'node',
        jsx: 'automatic',
        define: { 'process.env.NODE_ENV': '"production"' },
        loader: { '.css': 'empty' },
        write: false,
        logLevel: 'silent',
        plugins: [docFiles({ 'EmailEditor.tsx': editor!, 'Compose.tsx': compose! })],
      });
      const file = path.join(dir, 'ssr.cjs');
      writeFileSync(file, result.outputFiles[0]!.text);
      const { html } = (await import(pathToFileURL(file).href)) as { html: string };
      assert.match(html, /^<div id="[^"]+"><\/div><button type="button">Send<\/button>$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('React: mounts once in Strict Mode, reads getHTML() through the ref, and unmounts cleanly', async () => {
    const [editor, compose] = examples('React', 'tsx');
    const result = await esbuild.build({
      stdin: {
        contents: `import { StrictMode, createElement } from 'react';
          import { createRoot } from 'react-dom/client';
          import { Compose } from './Compose';
          window.sent = [];
          window.send = (html, text) => window.sent.push({ html, text });
          const root = createRoot(document.getElementById('app'));
          root.render(createElement(StrictMode, null, createElement(Compose)));
          window.unmount = () => root.unmount();`,
        loader: 'tsx',
        resolveDir: PACKAGE_DIR,
      },
      bundle: true,
      format: 'iife',
      platform: 'browser',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"development"' },
      outdir: 'out',
      write: false,
      logLevel: 'silent',
      plugins: [docFiles({ 'EmailEditor.tsx': editor!, 'Compose.tsx': compose! })],
    });
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
    const css = result.outputFiles.find((f) => f.path.endsWith('.css'))!.text;
    routes.set('/react', {
      type: 'text/html',
      body: '<!doctype html><html lang="en"><head><link rel="stylesheet" href="/react.css"></head><body><div id="app"></div><script src="/react.js"></script></body></html>',
    });
    routes.set('/react.js', { type: 'text/javascript', body: js });
    routes.set('/react.css', { type: 'text/css', body: css });
    await page.goto(`${origin}/react`);
    await page.locator('.sv-root').waitFor();
    // Strict Mode mounted, destroyed and mounted again: one editor, the first one gone
    assert.equal(await page.locator('.sv-root').count(), 1);
    // the options passed as props reached the editor (settingsControl → the settings button)
    assert.equal(await page.locator('.sv-settings-btn').count(), 1);
    assert.equal(await page.locator('.sv-root').getAttribute('data-theme'), 'light');
    await page.click('.sv-content');
    await page.keyboard.type('Sent from React');
    await page.click('button:has-text("Send")');
    const [message] = (await page.evaluate('window.sent')) as { html: string; text: string }[];
    assert.match(message!.html, /<p[^>]*>Sent from React<\/p>/);
    assert.equal(message!.text.trim(), 'Sent from React');
    // the preview dialog lives outside the component's element: only destroy() removes it
    await page.click('.sv-preview-btn');
    await page.locator('.sv-modal [role="dialog"]').waitFor();
    await page.evaluate('window.unmount()');
    assert.equal(await page.locator('.sv-root, .sv-popover, .sv-slash, .sv-modal').count(), 0);
    assert.equal(await page.evaluate(`document.getElementById('app').childElementCount`), 0);
  });
});
