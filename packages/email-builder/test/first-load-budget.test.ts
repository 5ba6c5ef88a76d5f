// The first load a host ships, held as a test: a size, not a timing, so it is deterministic.
// The budget is 110 KB gzip of JS + CSS in a plain Vite build (issue 40 measured it so; issue 38
// put it over, and loading renderTemplate with the preview dialog brought it under). esbuild's
// code splitting ships more of the same code (ten files compressed apart, and what index.ts
// re-exports kept in the first load when a lazy chunk uses it): held to a ceiling so that it does
// not grow. Measured as `npm run bench` measures it (the same functions), on the build in dist/
// that the test runner makes first.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  ESBUILD_FIRST_LOAD_CEILING,
  FIRST_LOAD_BUDGET,
  firstLoad,
  firstLoadEsbuild,
  kb,
} from '../test-support/bundle-size.js';
import { PACKAGE_DIR } from '../test-support/server.js';

describe('the first load', () => {
  it(`ships at most ${kb(FIRST_LOAD_BUDGET)} gzip of JS + CSS to a host app built with Vite, the rest on demand`, async () => {
    assert.ok(existsSync(path.join(PACKAGE_DIR, 'dist/index.js')), 'run `npm run build` first');
    const ours = await firstLoad();
    const lazy = ours.lazy.map((c) => `${c.file} ${kb(c.gz)}`).join(', ');
    console.log(
      `first load (Vite): ${kb(ours.min)} min, ${ours.gz} bytes gzip; on demand: ${lazy || 'none'}`,
    );
    assert.ok(
      ours.gz <= FIRST_LOAD_BUDGET,
      `the first load is ${ours.gz} bytes gzip, over its budget of ${FIRST_LOAD_BUDGET} (${kb(FIRST_LOAD_BUDGET)})`,
    );
    // what the budget is about: the preview dialog with its template evaluator, and the editing
    // UI, wait for their first use
    for (const later of ['render-template', 'preview-dialog', 'editing-ui'])
      assert.ok(!ours.inputs.includes(later), `${later} is in the first load`);
  });

  it(`ships at most ${kb(ESBUILD_FIRST_LOAD_CEILING)} gzip of JS + CSS to a host app split by esbuild`, async () => {
    const ours = await firstLoadEsbuild();
    console.log(`first load (esbuild): ${kb(ours.min)} min, ${ours.gz} bytes gzip`);
    assert.ok(!ours.inputs.includes('render-template'), 'render-template is in the first load');
    assert.ok(
      ours.gz <= ESBUILD_FIRST_LOAD_CEILING,
      `the first load split by esbuild is ${ours.gz} bytes gzip, over its ceiling of ${kb(ESBUILD_FIRST_LOAD_CEILING)}`,
    );
  });
});
