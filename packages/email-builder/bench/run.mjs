// Benchmarks (after `npm run build`): gzip size of JS + CSS as a host app ships them (first load,
// and the chunks loaded on demand), ours and @maily-to/core's bundled the same way (a plain Vite
// build; ours split by esbuild too); renderTemplate
// on a 200-block email with a 100-item repeat, in Node; then, in headless Chromium, time to editable,
// getHTML() on 200 blocks and keystroke-to-frame on 1,000 blocks. Prints figures and ratios.
// `npm run bench -- keystroke` measures keystrokes only; BENCH_DIST=<folder> serves the browser
// another build's service.iife.js and service.css (to alternate an old build and a new one).
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
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
const keystrokeOnly = process.argv.includes('keystroke');
const dist = process.env.BENCH_DIST ?? path.join(pkg, 'dist');

if (!keystrokeOnly) {
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
}

const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="stylesheet" href="/s.css"></head><body><div id="editor"></div><script src="/s.js"></script></body></html>`;
const server = createServer((req, res) => {
  if (req.url === '/s.js') return res.end(readFileSync(path.join(dist, 'service.iife.js')));
  if (req.url === '/s.css') return res.end(readFileSync(path.join(dist, 'service.css')));
  res.setHeader('content-type', 'text/html');
  res.end(page);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
/** The benchmark's email: `n` blocks, five kinds in turn (a heading first). */
const doc = (n) => ({ type: 'doc', content: Array.from({ length: n }, (_, i) => block(i)) });
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
const f = (n) => `${n.toFixed(2)} ms`;
if (!keystrokeOnly) {
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const r = await tab.evaluate(
      ([doc200, doc1000]) => {
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
        const editor = new ServiceEditor({ elementId: 'editor' });
        editor.setContent(doc200);
        const html = [];
        for (let i = 0; i < 30; i++) {
          const t0 = performance.now();
          editor.getHTML();
          html.push(performance.now() - t0);
        }
        editor.setContent(doc1000);
        return { create: times, html, size: editor.getHTML().length };
      },
      [doc(200), doc(1000)],
    );
    const create = median(r.create);
    const html = median(r.html);
    console.log('in headless Chromium (median):');
    console.log(
      `  new ServiceEditor → editable      ${f(create).padStart(10)}  target ≤ 150 ms  ratio ${(create / 150).toFixed(2)}`,
    );
    console.log(
      `  getHTML(), 200 blocks             ${f(html).padStart(10)}  target ≤ 10 ms   ratio ${(html / 10).toFixed(2)}  (${(r.size / 1024).toFixed(0)} KB for 1,000 blocks)`,
    );
  } finally {
    await browser.close();
  }
}

// Keystroke → frame. Headless Chromium begins its frames on a 60 Hz clock, so a keystroke that
// arrives just after a frame began waits up to 16.7 ms for the next one, whatever the editor
// does: measured that way ("display-locked"), 5 blocks already have a p90 near 16 ms. With
// `--disable-frame-rate-limit` the next frame begins as soon as the keystroke asks for one (the
// 5-block p90 drops to ~5 ms; `--disable-gpu-vsync` alone changes nothing, the GPU being off), so keydown → the frame's main-thread work done is the editor's
// own work and Chromium's for the keystroke: that figure is held to ≤ 16 ms (one 60 Hz frame).
// Both are printed, each beside 5 blocks measured in the same run, alternated in rounds so the
// shared machine's load falls on both alike. Event Timing adds how many keystrokes took ≥ 16 ms
// up to the *presented* frame (its durations come in 8 ms steps, and only from 16 ms up).
const KEYS = 150;
const ROUND = 25;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)];
const onDemand = await keystrokes(['--disable-frame-rate-limit'], true);
const locked = await keystrokes([]);
const line = (label, m, n, target) =>
  console.log(
    `  ${label.padEnd(36)} ${f(pct(m.lat, 0.5)).padStart(9)} median, p90 ${f(pct(m.lat, 0.9)).padStart(9)}` +
      `  (5 blocks: p90 ${f(pct(n.lat, 0.9))}, ratio ${(pct(m.lat, 0.9) / pct(n.lat, 0.9)).toFixed(2)})${target}`,
  );
console.log(
  `keystroke on 1,000 blocks, ${KEYS} keys each (headless Chromium; load average ${loadavg()[0].toFixed(1)} at the end):`,
);
const p90 = pct(onDemand[1000].lat, 0.9);
line(
  'keystroke → frame (frames on demand)',
  onDemand[1000],
  onDemand[5],
  `  target p90 ≤ 16 ms: ${p90 <= 16 ? 'met' : 'MISSED'}, ratio ${(p90 / 16).toFixed(2)}`,
);
console.log(
  `    Event Timing, keydown → presented frame ≥ 16 ms: ${onDemand[1000].slow} of ${KEYS} keystrokes (5 blocks: ${onDemand[5].slow})`,
);
const cpu = (m) => f(m.cpu.reduce((a, b) => a + b, 0) / m.cpu.length);
console.log(
  `    renderer main thread CPU per keystroke: ${cpu(onDemand[1000])} (5 blocks: ${cpu(onDemand[5])}), ${2 * ROUND} keys traced`,
);
line('keystroke → frame (display-locked)', locked[1000], locked[5], '');
console.log(
  '    display-locked: includes waiting for the next 60 Hz frame (0–16.7 ms), the 5-block p90 is its floor',
);
server.close();

/** CPU time (ms) of the tasks a trace's renderer main thread ran, nested ones counted once. */
function mainThreadCpu(trace) {
  const events = trace.traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
  const tasks = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === 'RunTask')
    .sort((a, b) => a.ts - b.ts);
  let total = 0;
  let end = 0;
  for (const t of tasks) {
    if (t.ts < end) continue;
    end = t.ts + t.dur;
    total += (t.tdur ?? t.dur) / 1000;
  }
  return total;
}

/**
 * Latencies of KEYS keystrokes at the end of a heading, on 5 and on 1,000 blocks, in Chromium
 * launched with `flags`; with `cpu`, the main thread's CPU time per keystroke too.
 */
async function keystrokes(flags, cpu = false) {
  const browser = await launchChromium(flags);
  try {
    const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    await tab.evaluate(() => {
      window.__editor = new window.ServiceEmailBuilder.ServiceEditor({ elementId: 'editor' });
      window.__lat = [];
      window.__slow = new Set();
      document.addEventListener(
        'keydown',
        (e) => {
          const t0 = e.timeStamp;
          requestAnimationFrame(() => setTimeout(() => window.__lat.push(performance.now() - t0), 0));
        },
        true,
      );
      // a keystroke's keydown, keypress and keyup share an interactionId (the click's do not count)
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          if (e.interactionId && e.name.startsWith('key')) window.__slow.add(e.interactionId);
      }).observe({ type: 'event', durationThreshold: 16 });
    });
    /**
     * Types ROUND keys at the end of the first heading of `blocks` blocks: their latencies and
     * slow keystrokes, and if `traced` the main thread's CPU time per keystroke.
     */
    const round = async (blocks, traced = false) => {
      await tab.evaluate((json) => window.__editor.setContent(json), doc(blocks));
      await tab.click('.sv-content h2');
      await tab.keyboard.press('End');
      await tab.evaluate(() => {
        window.__lat = [];
        window.__slow.clear();
      });
      if (traced) await browser.startTracing(tab, { categories: ['disabled-by-default-devtools.timeline'] });
      for (let i = 0; i < ROUND; i++) {
        await tab.keyboard.type('x');
        await tab.waitForTimeout(30);
      }
      // the last keystroke's frame and its Event Timing entries
      await tab.waitForFunction((n) => window.__lat.length >= n, ROUND);
      await tab.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
      const cpu = traced ? mainThreadCpu(JSON.parse((await browser.stopTracing()).toString())) / ROUND : 0;
      return { ...(await tab.evaluate(() => ({ lat: window.__lat, slow: window.__slow.size }))), cpu };
    };
    const out = { 5: { lat: [], slow: 0, cpu: [] }, 1000: { lat: [], slow: 0, cpu: [] } };
    for (let r = 0; r < KEYS / ROUND; r++)
      for (const blocks of [5, 1000]) {
        const got = await round(blocks);
        out[blocks].lat.push(...got.lat);
        out[blocks].slow += got.slow;
      }
    // Then, traced (not timed: tracing costs time too), the renderer's main-thread CPU time per
    // keystroke, which the machine's load barely moves where it stretches wall-clock time.
    for (let r = 0; cpu && r < 2; r++)
      for (const blocks of [5, 1000]) out[blocks].cpu.push((await round(blocks, true)).cpu);
    return out;
  } finally {
    await browser.close();
  }
}
