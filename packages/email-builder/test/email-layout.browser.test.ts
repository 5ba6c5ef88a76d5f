// The email holds on any font and any content. In Chromium with the fonts of a fresh machine
// (DejaVu, among the widest a reader may have; no test installs fonts), every starter template
// and a stress email, branded with all six networks and no postal address, at 320, 375 and
// 600 px, light and dark: no horizontal overflow, nothing cut off, axe clean (colour contrast
// included), social pills in even rows, and no made-up text in the HTML or the plain text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { applyBranding } from '../src/document/branding.js';
import type { JSONNode } from '../src/model/types.js';
import type { BrandSettings } from '../src/options.js';
import { contrast } from '../src/primitives/contrast.js';
import { renderEmail, renderText } from '../src/render/email.js';
import { STARTER_TEMPLATES } from '../src/templates/gallery/starter.js';
import { demoBrand } from '../test-support/brand.js';
import { launchChromium } from '../test-support/browser.js';
import { col, doc, h, li, link, node, p, t, ul } from '../test-support/doc.js';
import { startTestServer } from '../test-support/server.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LONG_URL = `https://example.com/${'a1b2c3d4e5'.repeat(18)}?utm=${'x'.repeat(10)}`; // 200 characters
const LONG_WORD = 'Supercalifragilisticexpialidocious'.repeat(3);

/** Text an email must never carry: placeholders standing in for the sender's real details. */
const INVENTED = /Main Street|City, Country|Your Company|Your Name/;

/** A brand with every network and no postal address. */
const brandWithoutAddress = (origin: string): BrandSettings => {
  const brand = demoBrand(origin);
  return {
    ...brand,
    contact: {
      ...brand.contact,
      email: `customer.care.and.billing.department@${'lumen-'.repeat(8)}example.com`,
      address: null,
    },
  };
};

/** Everything that tends to break a layout, in one email. */
const STRESS: JSONNode = doc(
  node('logo'),
  h(1, t(`Hello ${LONG_WORD}`)),
  p(t(`Read it here: ${LONG_URL}`)),
  p(t(LONG_URL, link(LONG_URL))),
  node('button', { text: `Confirm ${LONG_WORD}`, href: LONG_URL }),
  node(
    'columns',
    { layout: '2' },
    col(undefined, p(t(LONG_WORD)), p(t('Left column'))),
    col(undefined, ul(li(p(t('One'))), li(p(t('Two')), ul(li(p(t(`Nested ${LONG_WORD}`))))))),
  ),
  p(t('After the columns')),
  node('socialLinks'),
  node('signature'),
  node('divider'),
  node('blockquote', undefined, p(t('A quote with its rule.'))),
  node('footer', { note: `You signed up at ${LONG_URL}` }),
);

/** `rgb(r, g, b)` as `#rrggbb`. */
const hex = (css: string) =>
  `#${(css.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
const emails: { name: string; path: string; html: string; text: string }[] = [];

before(async () => {
  server = await startTestServer({ token: 'x', pages: {} });
  const brand = brandWithoutAddress(server.origin);
  // the social block as the slash command makes it: every network the brand gives
  const branded = (d: JSONNode) => applyBranding(d, brand);
  for (const [name, document] of [
    ['stress email', STRESS],
    ...STARTER_TEMPLATES.map((tpl) => [tpl.name, tpl.document] as const),
  ] as const) {
    const ready = branded(document);
    const path = `/layout/${emails.length}`;
    const html = renderEmail(ready);
    server.setPage(path, html);
    emails.push({ name, path, html, text: renderText(ready) });
  }
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** What a page shows at its current width: overflow, cut-off parts, pill rows, images. */
function measure(page: Page) {
  return page.evaluate(() => {
    const card = document.querySelector('.sv-card')!.getBoundingClientRect();
    const outside = [...document.querySelectorAll('.sv-card *')]
      .filter((el) => el.getClientRects().length > 0)
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > card.right + 0.5 || r.left < card.left - 0.5);
      })
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').slice(0, 30)}"`);
    const clipped = [...document.querySelectorAll('body *')]
      .filter((el) => /hidden|clip/.test(getComputedStyle(el).overflowX) && el.getClientRects().length > 0)
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.tagName.toLowerCase());
    const tops = new Map<number, number>();
    for (const pill of document.querySelectorAll('[data-block="socialLinks"] a')) {
      const top = Math.round(pill.getBoundingClientRect().top);
      tops.set(top, (tops.get(top) ?? 0) + 1);
    }
    const cardBg = getComputedStyle(document.querySelector('.sv-card')!).backgroundColor;
    const pills = [...document.querySelectorAll<HTMLElement>('[data-block="socialLinks"] a')].map((a) => {
      const style = getComputedStyle(a);
      return { label: a.textContent, fill: style.backgroundColor, edge: style.borderTopColor };
    });
    const rules = [
      // grey dividers (one in the brand's colour stands out on purpose): equal channels, give or take
      ...[...document.querySelectorAll<HTMLElement>('[data-block="divider"] td td')]
        .filter((td) => {
          const [r, g, b] = (td.style.borderTopColor.match(/\d+/g) ?? []).map(Number) as number[];
          return Math.max(r!, g!, b!) - Math.min(r!, g!, b!) <= 16;
        })
        .map((td) => getComputedStyle(td).borderTopColor),
      ...[...document.querySelectorAll('blockquote')].map((q) => getComputedStyle(q).borderLeftColor),
    ];
    return {
      cardBg,
      pills,
      rules,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      outside: outside.slice(0, 5),
      clipped,
      rows: [...tops.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n),
      broken: [...document.images].filter((i) => i.getClientRects().length && !i.naturalWidth).length,
    };
  });
}

async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.addScriptTag({ content: axeSource });
  // as for the editor's output: the page landmarks belong to the mail client, not the email
  const result = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"], rules: { "landmark-one-main": { enabled: false }, region: { enabled: false } } })',
  )) as { violations: { id: string; nodes: { target: string[] }[] }[] };
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('email layout on a fresh machine’s fonts', () => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const index of [0, ...STARTER_TEMPLATES.map((_, i) => i + 1)]) {
      it(`${scheme}: fits 320, 375 and 600 px, nothing cut off, axe clean — ${index === 0 ? 'stress email' : STARTER_TEMPLATES[index - 1]!.name}`, async () => {
        const email = emails[index]!;
        const page = await browser.newPage({ viewport: { width: 600, height: 900 }, colorScheme: scheme });
        await page.goto(`${server.origin}${email.path}`);
        for (const width of [600, 375, 320]) {
          await page.setViewportSize({ width, height: 900 });
          const seen = await measure(page);
          const where = `${email.name}, ${scheme}, ${width} px`;
          assert.equal(seen.overflow, 0, `${where}: the page scrolls sideways`);
          assert.deepEqual(seen.outside, [], `${where}: parts stick out of the card`);
          assert.deepEqual(seen.clipped, [], `${where}: parts are cut off`);
          assert.equal(seen.broken, 0, `${where}: images did not load`);
          // the stress email's six networks: exactly these rows (a single row would also be "even")
          if (index === 0)
            assert.deepEqual(seen.rows, width === 320 ? [2, 2, 2] : [3, 3], `${where}: social pill rows`);
          if (seen.rows.length > 1)
            assert.ok(
              Math.max(...seen.rows) - Math.min(...seen.rows) <= 1,
              `${where}: social pills in uneven rows ${seen.rows.join('/')}`,
            );
          // pills and rules stand out from the card: pills by their fill or edge (WCAG 1.4.11's
          // 3:1 for parts of a control), rules as subtly as on the light card, never glaring
          for (const pill of seen.pills) {
            const stands = Math.max(
              contrast(hex(pill.fill), hex(seen.cardBg)),
              contrast(hex(pill.edge), hex(seen.cardBg)),
            );
            assert.ok(
              stands >= 3,
              `${where}: the ${pill.label} pill stands out ${stands.toFixed(2)}:1 from the card`,
            );
          }
          if (index === 0)
            assert.equal(seen.rules.length, 2, 'the stress email’s divider and quote are measured');
          for (const rule of seen.rules) {
            const ratio = contrast(hex(rule), hex(seen.cardBg));
            assert.ok(
              ratio > 1.1 && ratio < 3,
              `${where}: a rule in ${rule} is ${ratio.toFixed(2)}:1 on the card`,
            );
          }
          assert.deepEqual(await axe(page), [], where);
        }
        await page.close();
      });
    }
  }

  it('columns: side by side at 600 px, stacked with a 16 px gap below, and 16 px after the block', async () => {
    const page = await browser.newPage({ viewport: { width: 600, height: 900 } });
    await page.goto(`${server.origin}${emails[0]!.path}`);
    const gaps = () =>
      page.evaluate(() => {
        const block = document.querySelector('[data-block="columns"]')!;
        const [first, second] = [...block.querySelectorAll('[data-block="column"]')].map((c) =>
          c.getBoundingClientRect(),
        );
        const textEnd = Math.max(
          ...[...block.querySelectorAll('p')].map((p) => p.getBoundingClientRect().bottom),
        );
        const next = block.nextElementSibling!.getBoundingClientRect();
        return {
          sideBySide: first!.top === second!.top,
          stackGap: second!.top - first!.bottom,
          after: next.top - textEnd,
        };
      });
    const wide = await gaps();
    assert.equal(wide.sideBySide, true, 'two columns fit side by side at 600 px');
    assert.equal(wide.after, 16);
    await page.setViewportSize({ width: 375, height: 900 });
    const narrow = await gaps();
    assert.deepEqual(narrow, { sideBySide: false, stackGap: 16, after: 16 });
    await page.close();
  });

  it('carries no made-up contact data: the HTML and the plain text hold only what the brand gives', () => {
    const found = emails.flatMap((e) =>
      [e.html, e.text].flatMap((s) => (INVENTED.exec(s) ? [`${e.name}: ${INVENTED.exec(s)![0]}`] : [])),
    );
    assert.deepEqual(found, []);
  });
});
