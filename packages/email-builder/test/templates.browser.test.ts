// Each starter template, branded, in the preview dialog in real Chromium: screenshots of the
// desktop and mobile views (test-results/templates/) for people to look at. Their layout and
// accessibility at 320, 375 and 600 px, light and dark, are checked in email-layout.browser.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { applyBranding } from '../src/document/branding.js';
import { renderEmail } from '../src/render/email.js';
import { STARTER_TEMPLATES } from '../src/templates/gallery/starter.js';
import { demoBrand } from '../test-support/brand.js';
import { launchChromium } from '../test-support/browser.js';
import { PACKAGE_DIR, startTestServer } from '../test-support/server.js';

const SHOTS = path.join(PACKAGE_DIR, 'test-results', 'templates');
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

const HOST = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Preview</title>
<link rel="stylesheet" href="/service.css"></head><body><main><h1>Host</h1></main><script src="/service.js"></script></body></html>`;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ token: 'x', pages: { '/': HOST } });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

describe('the starter templates in the preview dialog', () => {
  for (const template of STARTER_TEMPLATES) {
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
