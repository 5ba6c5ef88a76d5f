// Conditions and repeats through the editor's UI in real Chromium (issue 38): a condition set
// in a block's settings, with its badge; a repeat from the slash menu; both in getJSON, getHTML
// (own syntax and Liquid), through setContent(getHTML()), and in the preview with sample data.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations } from '../test-support/axe.js';
import { type EditorSession, openEditorSession } from '../test-support/editor-session.js';

type Win = { editor: import('../src/editor.js').ServiceEditor };
type Doc = import('../src/model/types.js').JSONNode;

let session: EditorSession;
let page: Page;
const json = () => page.evaluate(() => (window as unknown as Win).editor.getJSON());
const html = (syntax?: 'liquid') =>
  page.evaluate((s) => (window as unknown as Win).editor.getHTML(s ? { syntax: s } : {}), syntax);
const setContent = (c: unknown) =>
  page.evaluate((c) => (window as unknown as Win).editor.setContent(c as Doc), c);

before(async () => {
  session = await openEditorSession(
    `{ elementId: 'editor', colorScheme: 'light', variables: [
      { name: 'plan', sample: 'trial' },
      { name: 'items', sample: [{ name: 'Sample tea' }, { name: 'Sample cake' }] },
    ] }`,
    { viewport: { width: 1280, height: 900 } },
  );
  page = session.page;
});

after(async () => {
  await session?.close();
});

/**
 * In the open settings, "Show if plan = trial", typed as a user would; waits until the second
 * block's JSON holds it.
 */
async function showIfPlanIsTrial(): Promise<void> {
  await page.fill('.sv-inspector [data-field="showIf.var"] input', 'plan');
  await page.selectOption('.sv-inspector [data-field="showIf.op"] select', 'eq');
  await page.fill('.sv-inspector [data-field="showIf.value"] input', 'trial');
  await page.waitForFunction(
    () =>
      ((window as unknown as Win).editor.getJSON().content?.[1]?.attrs?.showIf as { value?: string })
        ?.value === 'trial',
  );
}

describe('conditions and repeats in the editor', () => {
  it('inserts a repeat from the slash menu, holding a {{item.name}} chip', async () => {
    await setContent({ type: 'doc', content: [{ type: 'paragraph' }] });
    await page.click('.sv-content p');
    await page.keyboard.type('/repeat');
    await page.locator('.sv-slash-item', { hasText: 'Repeat' }).first().waitFor();
    await page.keyboard.press('Enter');
    const doc = await json();
    const repeat = doc.content?.find((n) => n.type === 'repeat');
    assert.ok(repeat, JSON.stringify(doc));
    assert.deepEqual(repeat.content?.[0]?.content, [
      { type: 'variable', attrs: { name: 'item.name', fallback: '' } },
    ]);
    assert.equal(await page.getAttribute('.sv-content .sv-repeat', 'data-sv-each'), 'items');
  });

  it('sets a condition in a block’s settings, shows its badge, and writes it in getHTML', async () => {
    await setContent({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Hello' }] },
        { type: 'button', attrs: { text: 'Start trial', href: 'https://shop.example' } },
        {
          type: 'repeat',
          content: [{ type: 'paragraph', content: [{ type: 'variable', attrs: { name: 'item.name' } }] }],
        },
      ],
    });
    await page.click('.sv-content .sv-button');
    await page.locator('.sv-inspector [data-field="showIf.var"] input').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await showIfPlanIsTrial();
    const doc = await json();
    assert.deepEqual(doc.content?.[1]?.attrs?.showIf, { var: 'plan', op: 'eq', value: 'trial' });
    assert.equal(
      doc.content?.[0]?.attrs?.showIf,
      undefined,
      'blocks without a condition have none in the JSON',
    );
    assert.equal(await page.getAttribute('.sv-content .sv-if', 'data-sv-if'), 'if plan == "trial"');
    assert.match(await html(), /\{\{#if plan == &quot;trial&quot;\}\}.*Start trial.*\{\{\/if\}\}/s);
    assert.match(await html(), /\{\{#each items max=50\}\}/);
    assert.match(await html('liquid'), /\{% if plan == "trial" %\}.*Start trial.*\{% endif %\}/s);
    assert.match(
      await html('liquid'),
      /\{% for item in items limit: 50 %\}.*\{\{ item\.name \| escape \}\}/s,
    );

    // the email read back gives the same document: the condition on its block, the repeat whole
    await setContent(await html());
    assert.deepEqual(await json(), doc);
  });

  it('previews the email with the sample data: the condition holds, the repeat shows the sample items', async () => {
    await page.evaluate(() => (window as unknown as Win).editor.preview());
    const body = page.frameLocator('.sv-preview-frame').locator('body');
    await body.filter({ hasText: 'Sample cake' }).waitFor();
    const text = await body.innerText();
    assert.match(text, /Hello[\s\S]*Start trial[\s\S]*Sample tea[\s\S]*Sample cake/);
    assert.doesNotMatch(text, /\{\{/);
    await page.keyboard.press('Escape');
  });

  it('sets conditions on a paragraph and a heading through their settings, from the block menu', async () => {
    await setContent({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Welcome' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Your trial ends soon' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Thanks' }] },
      ],
    });
    /** Opens the settings of the block at `selector` from its handle's menu. */
    const openSettings = async (selector: string) => {
      const box = (await page.locator(selector).boundingBox())!;
      await page.mouse.move(box.x + 20, box.y + box.height / 2);
      await page.waitForSelector('.sv-handle:not([hidden])');
      await page.click('.sv-grip');
      await page.click('.sv-menu [role="menuitem"]:has-text("Settings")');
      await page.locator('.sv-inspector:not([hidden]) [data-field="showIf.var"] input').waitFor();
    };
    await openSettings('.sv-content > p >> nth=0');
    assert.deepEqual(await axeViolations(page), []);
    await showIfPlanIsTrial();
    await page.keyboard.press('Escape');
    await openSettings('.sv-content > h2');
    await page.fill('.sv-inspector [data-field="showIf.var"] input', 'first_name');
    await page.selectOption('.sv-inspector [data-field="showIf.op"] select', 'exists');
    await page.waitForFunction(
      () => (window as unknown as Win).editor.getJSON().content?.[0]?.attrs?.showIf !== undefined,
    );

    const doc = await json();
    assert.deepEqual(doc.content?.[0]?.attrs?.showIf, { var: 'first_name', op: 'exists' });
    assert.deepEqual(doc.content?.[1]?.attrs?.showIf, { var: 'plan', op: 'eq', value: 'trial' });
    assert.equal(doc.content?.[2]?.attrs?.showIf, undefined, 'the other paragraph has no condition');
    assert.deepEqual(
      doc.content?.map((n) => n.content?.[0]?.text),
      ['Welcome', 'Your trial ends soon', 'Thanks'],
      'the settings changed no text',
    );
    const out = await html();
    // each condition wraps its own block, and only it
    assert.match(
      out,
      /\{\{#if first_name\}\}(?:(?!\{\{\/if\}\}).)*>Welcome<\/h2>(?:(?!Your trial).)*\{\{\/if\}\}/s,
    );
    assert.match(
      out,
      /\{\{#if plan == &quot;trial&quot;\}\}(?:(?!\{\{\/if\}\}).)*>Your trial ends soon<\/p>(?:(?!Thanks).)*\{\{\/if\}\}/s,
    );
    assert.doesNotMatch(out, /\{\{#if[^}]*\}\}(?:(?!\{\{\/if\}\}).)*>Thanks<\/p>/s);
    // the email read back gives the same document
    await setContent(out);
    assert.deepEqual(await json(), doc);
  });
  it('sets a condition on a block inside a repeat from that block’s own handle, not the repeat’s', async () => {
    await setContent({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Your order' }] },
        {
          type: 'repeat',
          attrs: { each: 'items' },
          content: [
            { type: 'paragraph', content: [{ type: 'variable', attrs: { name: 'item.name' } }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Trial gift' }] },
          ],
        },
      ],
    });
    const inner = page.locator('.sv-content .sv-repeat > p >> nth=1');
    const box = (await inner.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.waitForSelector('.sv-handle:not([hidden])');
    // the handle stands beside the inner paragraph, not at the top of the repeat
    const handle = (await page.locator('.sv-handle').boundingBox())!;
    assert.ok(
      handle.y + handle.height > box.y && handle.y < box.y + box.height,
      `handle at ${handle.y}..${handle.y + handle.height}, paragraph at ${box.y}..${box.y + box.height}`,
    );
    await page.click('.sv-grip');
    await page.click('.sv-menu [role="menuitem"]:has-text("Settings")');
    await page.locator('.sv-inspector:not([hidden]) [data-field="showIf.var"] input').waitFor();
    await page.fill('.sv-inspector [data-field="showIf.var"] input', 'plan');
    await page.selectOption('.sv-inspector [data-field="showIf.op"] select', 'eq');
    await page.fill('.sv-inspector [data-field="showIf.value"] input', 'trial');
    await page.waitForFunction(() =>
      JSON.stringify((window as unknown as Win).editor.getJSON()).includes('"trial"'),
    );
    const doc = await json();
    const repeat = doc.content?.[1];
    assert.deepEqual(repeat?.content?.[1]?.attrs?.showIf, { var: 'plan', op: 'eq', value: 'trial' });
    assert.equal(repeat?.attrs?.showIf, undefined, 'the repeat itself has no condition');
    assert.equal(repeat?.content?.[0]?.attrs?.showIf, undefined, 'nor its other block');
    assert.deepEqual(repeat?.content?.[1]?.content, [{ type: 'text', text: 'Trial gift' }]);
    assert.match(
      await html(),
      /\{\{#each items[^}]*\}\}.*\{\{#if plan == &quot;trial&quot;\}\}.*Trial gift.*\{\{\/if\}\}.*\{\{\/each\}\}/s,
    );
    await page.keyboard.press('Escape');

    // its menu moves it among the repeat's blocks, not out of the repeat
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.click('.sv-grip');
    await page.click('.sv-menu [role="menuitem"]:has-text("Move up")');
    const moved = await json();
    assert.equal(moved.content?.length, 2);
    assert.deepEqual(
      moved.content?.[1]?.content?.map((n) => n.attrs?.showIf),
      [{ var: 'plan', op: 'eq', value: 'trial' }, undefined],
    );
  });
});
