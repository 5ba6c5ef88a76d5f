// Benchmarks (after `npm run build`): gzip size of JS + CSS as a host app ships them (first load,
// and the chunks loaded on demand), ours and @maily-to/core's bundled the same way (a plain Vite
// build; ours split by esbuild too); renderTemplate
// on a 200-block email with a 100-item repeat, in Node; then, in headless Chromium, time to editable,
// getHTML() on 200 blocks and keystroke-to-paint on 1,000 blocks. Prints figures and ratios.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// run with tsx (npm run bench does), so the tests' TypeScript launcher serves here too
import { launchChromium } from '../test-support/browser.ts';
import {
  bundleSize,
  FIRST_LOAD_BUDGET,
  firstLoad,
  firstLoadEsbuild,
  kb,
} from '../test-support/bundle-size.ts';
import { benchRenderTemplate } from './render-template.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const require = createRequire(import.meta.url);
if (!existsSync(path.join(pkg, 'dist/index.js'))) throw new Error('run `npm run build` first');

const ours = await firstLoad();
const oursEsbuild = await firstLoadEsbuild();
oursEsbuild.name += ' (esbuild split)';
let maily = null;
try {
  const mailyDir = path.dirname(require.resolve('@maily-to/core/package.json'));
  const css = ['dist/index.css', 'style.css', 'dist/style.css']
    .map((f) => path.join(mailyDir, f))
    .find(existsSync);
  maily = await bundleSize(
    '@maily-to/core + react + react-dom',
    `import { Editor } from '@maily-to/core'; import { createRoot } from 'react-dom/client'; import { createElement } from 'react'; window.E = [Editor, createRoot, createElement];`,
    css,
  );
} catch (error) {
  console.log(`maily bundle failed: ${error.message}`);
}
console.log('bundle, first load (Vite build, minified JS + CSS, gzip -9; lazy chunks listed apart):');
for (const r of [ours, oursEsbuild, maily].filter(Boolean))
  console.log(`  ${r.name.padEnd(40)} ${kb(r.min).padStart(10)} min  ${kb(r.gz).padStart(9)} gzip`);
for (const c of ours.lazy)
  console.log(
    `    loaded on demand: ${c.file.padEnd(28)} ${kb(c.min).padStart(10)} min  ${kb(c.gz).padStart(9)} gzip  (${c.inputs.join(', ')})`,
  );
if (maily)
  console.log(
    `  ratio ours/maily gzip: ${(ours.gz / maily.gz).toFixed(2)}  (target ≤ ${kb(FIRST_LOAD_BUDGET)}: ${ours.gz <= FIRST_LOAD_BUDGET ? 'met' : 'MISSED'})`,
  );

const rt = benchRenderTemplate();
console.log('in Node (median of 200):');
console.log(
  `  renderTemplate, 200 blocks + 100-item repeat ${rt.median.toFixed(2).padStart(6)} ms  target ≤ 5 ms   ratio ${(rt.median / 5).toFixed(2)}  (p90 ${rt.p90.toFixed(2)} ms)`,
);

const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="stylesheet" href="/s.css"></head><body><div id="editor"></div><script src="/s.js"></script></body></html>`;
const server = createServer((req, res) => {
  if (req.url === '/s.js') return res.end(readFileSync(path.join(pkg, 'dist/service.iife.js')));
  if (req.url === '/s.css') return res.end(readFileSync(path.join(pkg, 'dist/service.css')));
  res.setHeader('content-type', 'text/html');
  res.end(page);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await launchChromium();
try {
  const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await tab.goto(`http://127.0.0.1:${server.address().port}/`);
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const r = await tab.evaluate(() => {
    const { ServiceEditor } = window.ServiceEmailBuilder;
    const times = [];
    for (let i = 0; i < 7; i++) {
      const host = document.getElementById('editor');
      const t0 = performance.now();
      const editor = new ServiceEditor({ elementId: 'editor', settingsControl: true });
      const ok = host.querySelector('[contenteditable="true"]') !== null;
      times.push(performance.now() - t0);
      if (!ok) throw new Error('not editable');
      editor.destroy();
    }
    const block = (i) =>
      [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: `Section ${i}` }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Some text with ' },
            {
              type: 'text',
              text: 'a link',
              marks: [{ type: 'link', attrs: { href: 'https://example.com' } }],
            },
          ],
        },
        { type: 'button', attrs: { text: 'Go', href: 'https://example.com' } },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item' }] }] },
          ],
        },
        {
          type: 'columns',
          content: [
            { type: 'column', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'L' }] }] },
            { type: 'column', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'R' }] }] },
          ],
        },
      ][i % 5];
    const editor = new ServiceEditor({ elementId: 'editor' });
    editor.setContent({ type: 'doc', content: Array.from({ length: 200 }, (_, i) => block(i)) });
    const html = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      editor.getHTML();
      html.push(performance.now() - t0);
    }
    editor.setContent({ type: 'doc', content: Array.from({ length: 1000 }, (_, i) => block(i)) });
    window.__editor = editor;
    return { create: times, html, size: editor.getHTML().length };
  });
  await tab.click('.sv-content h2');
  await tab.keyboard.press('End');
  await tab.evaluate(() => {
    window.__lat = [];
    const dom = document.querySelector('.sv-content');
    dom.addEventListener(
      'keydown',
      (e) => {
        const t0 = e.timeStamp;
        requestAnimationFrame(() => setTimeout(() => window.__lat.push(performance.now() - t0), 0));
      },
      true,
    );
  });
  for (let i = 0; i < 40; i++) {
    await tab.keyboard.type('x');
    await tab.waitForTimeout(30);
  }
  const lat = await tab.evaluate(() => window.__lat);
  const f = (n) => `${n.toFixed(2)} ms`;
  const create = median(r.create);
  const html = median(r.html);
  const key = median(lat);
  console.log('in headless Chromium (median):');
  console.log(
    `  new ServiceEditor → editable      ${f(create).padStart(10)}  target ≤ 150 ms  ratio ${(create / 150).toFixed(2)}`,
  );
  console.log(
    `  getHTML(), 200 blocks             ${f(html).padStart(10)}  target ≤ 10 ms   ratio ${(html / 10).toFixed(2)}  (${(r.size / 1024).toFixed(0)} KB for 1,000 blocks)`,
  );
  console.log(
    `  keystroke → paint, 1,000 blocks   ${f(key).padStart(10)}  target ≤ 16 ms   ratio ${(key / 16).toFixed(2)}  (p90 ${f(lat.sort((a, b) => a - b)[Math.floor(lat.length * 0.9)])})`,
  );
} finally {
  await browser.close();
  server.close();
}
