// Each starter template, branded, in real Chromium: axe-core on the email at 600 and 375 px,
// nothing wider than a phone, every image loaded, and screenshots of the desktop and mobile
// preview dialogs (test-results/templates/) for people to look at.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { applyBranding } from '../src/branding/apply.js';
import { renderEmail } from '../src/render/email.js';
import { STARTER_TEMPLATES } from '../src/templates/gallery/starter.js';
import { demoBrand } from '../test-support/brand.js';
import { launchChromium } from '../test-support/browser.js';
import { PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'templates');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

const HOST = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Preview</title>
<link rel="stylesheet" href="/service.css"></head><body><main><h1>Host</h1></main><script src="/service.js"></script></body></html>`;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ token: 'x', pages: { '/': HOST } });
  for (const t of STARTER_TEMPLATES) {
    server.setPage(`/email/${t.id}`, renderEmail(applyBranding(t.document, demoBrand(server.origin))));
  }
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function email(id: string, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${server.origin}/email/${id}`);
  await page.waitForLoadState('load');
  return page;
}

describe('the starter templates in Chromium', () => {
  for (const template of STARTER_TEMPLATES) {
    it(`${template.name}: accessible at 600 and 375 px, fits a phone, images load`, async () => {
      for (const width of [600, 375]) {
        const page = await email(template.id, width);
        await page.addScriptTag({ content: axeSource });
        // as for the editor's output: the page landmarks belong to the mail client, not the email
        const result = (await page.evaluate(
          'axe.run(document, { resultTypes: ["violations"], rules: { "landmark-one-main": { enabled: false }, region: { enabled: false } } })',
        )) as { violations: { id: string; nodes: { target: string[] }[] }[] };
        assert.deepEqual(
          result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
          `${width} px`,
        );
        const layout = await page.evaluate(() => ({
          overflow: document.documentElement.scrollWidth > window.innerWidth,
          broken: [...document.images].filter((i) => i.getClientRects().length && !i.naturalWidth).length,
        }));
        assert.deepEqual(layout, { overflow: false, broken: 0 }, `${width} px`);
        await page.close();
      }
    });

    it(`${template.name}: desktop and mobile preview screenshots`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.origin}/`);
      const html = renderEmail(applyBranding(template.document, demoBrand(server.origin)));
      await page.evaluate((h) => {
        const w = window as unknown as {
          preview: { setContent(h: string): void; show(): void };
          ServiceEmailBuilder: any;
        };
        w.preview = new w.ServiceEmailBuilder.MailPreview({});
        w.preview.setContent(h);
        w.preview.show();
      }, html);
      const loaded = () =>
        page.waitForFunction(() => {
          const doc = document.querySelector<HTMLIFrameElement>('.sv-preview-frame')?.contentDocument;
          return doc?.readyState === 'complete' && [...doc.images].every((i) => i.complete);
        });
      await loaded();
      for (const view of ['desktop', 'mobile'] as const) {
        await page.click(`button[data-view="${view}"]`);
        const height = await page.evaluate(() => document.querySelector('.sv-preview-stage')!.scrollHeight);
        // a viewport tall enough for the whole email: one screenshot shows all of it
        await page.setViewportSize({ width: 1280, height: Math.min(height + 140, 4000) });
        await loaded();
        const frameWidth = await page.evaluate(
          () => document.querySelector('.sv-preview-frame')!.getBoundingClientRect().width,
        );
        if (view === 'mobile') assert.equal(frameWidth, 375);
        else assert.ok(frameWidth > 600);
        await page.screenshot({ path: path.join(SHOTS, `${template.id}-${view}.png`) });
      }
      await page.close();
    });
  }
});
