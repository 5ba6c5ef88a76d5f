/**
 * axe-core in the editor's browser tests: the WCAG violations inside one element of the page,
 * as "rule: target, target" lines, so a failing assertion says where.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The violations inside `selector` (the editor's root by default); axe is injected once per page. */
export async function axeViolations(page: Page, selector = '.sv-root'): Promise<string[]> {
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.addScriptTag({ content: axeSource });
  const result = (await page.evaluate(
    `axe.run(document.querySelector(${JSON.stringify(selector)}), { resultTypes: ["violations"] })`,
  )) as { violations: { id: string; nodes: { target: string[] }[] }[] };
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
