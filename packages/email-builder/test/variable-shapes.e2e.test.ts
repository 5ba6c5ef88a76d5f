// Variables with a shape in real Chromium (issue 38): the `variables` option describes a list
// of items and an object, and the {{ menu inside a repeat offers the item's fields, the repeat's
// settings the lists, the condition's variable field every path with what it holds (a number
// compared as a number), and the preview fills the repeat and the conditions from the samples.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations } from '../test-support/axe.js';
import { caretAtEndOf, type EditorSession, openEditorSession } from '../test-support/editor-session.js';

type Win = { editor: import('../src/editor.js').ServiceEditor };
type Doc = import('../src/model/types.js').JSONNode;

let session: EditorSession;
let page: Page;
const json = () => page.evaluate(() => (window as unknown as Win).editor.getJSON());
const setContent = (c: unknown) =>
  page.evaluate((c) => (window as unknown as Win).editor.setContent(c as Doc), c);
/** The ids of the options the open menu shows, in order. */
const options = () =>
  page.$$eval('.sv-slash:not([hidden]) .sv-slash-item', (els) => els.map((e) => e.getAttribute('data-id')));
/** The suggestions of the datalist of the settings' field `field`: value and label. */
const suggestions = (field: string) =>
  page.$$eval(`.sv-inspector:not([hidden]) [data-field="${field}"] datalist option`, (els) =>
    els.map((e) => `${e.getAttribute('value')}: ${e.getAttribute('label')}`),
  );

const para = (text: string, showIf?: object) => ({
  type: 'paragraph',
  ...(showIf ? { attrs: { showIf } } : {}),
  content: [{ type: 'text', text }],
});

before(async () => {
  session = await openEditorSession(
    `{ elementId: 'editor', colorScheme: 'light', variables: [
      { name: 'items', type: 'array', of: [
        { name: 'name', label: 'Product', sample: 'Socks' },
        { name: 'price', type: 'number', sample: 12.5 },
      ] },
      { name: 'customer', fields: [
        { name: 'email', sample: 'ada@example.com' },
        { name: 'vip', type: 'boolean', sample: true },
      ] },
      { name: 'total', type: 'number', sample: 42 },
      { name: 'tags', type: 'array', sample: ['new'] },
    ] }`,
    { viewport: { width: 1280, height: 900 } },
  );
  page = session.page;
});

after(async () => {
  await session?.close();
});

/** Opens the settings of the top-level block at `selector` from its handle's menu. */
async function openSettings(selector: string, field: string): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 6);
  await page.waitForSelector('.sv-handle:not([hidden])');
  await page.click('.sv-grip');
  await page.click('.sv-menu [role="menuitem"]:has-text("Settings")');
  await page.locator(`.sv-inspector:not([hidden]) [data-field="${field}"]`).first().waitFor();
}

describe('variables with a shape', () => {
  it('offers the item’s fields after {{ inside a repeat, and inserts item.price', async () => {
    await setContent({
      type: 'doc',
      content: [para('Hello'), { type: 'repeat', attrs: { each: 'items' }, content: [para('Price:')] }],
    });
    await page.click('.sv-content .sv-repeat p');
    await page.keyboard.press('End');
    await caretAtEndOf(page, 'Price:');
    await page.keyboard.type(' {{');
    await page.waitForSelector('.sv-slash:not([hidden]) .sv-slash-item');
    // the item first; an object's fields by their paths; the lists and objects themselves are no tags
    assert.deepEqual(await options(), [
      'var-item-name',
      'var-item-price',
      'var-customer-email',
      'var-customer-vip',
      'var-total',
    ]);
    assert.equal(
      await page.textContent('.sv-slash:not([hidden]) [data-id="var-item-name"] strong'),
      'Product',
    );
    await page.keyboard.type('item.pr');
    await page.waitForFunction(
      () =>
        document.querySelector('.sv-slash:not([hidden]) .sv-slash-item')?.getAttribute('data-id') ===
        'var-item-price',
    );
    await page.keyboard.press('Enter');
    await page.waitForSelector('.sv-content .sv-repeat .sv-variable');
    const doc = await json();
    assert.deepEqual(doc.content?.[1]?.content?.[0]?.content, [
      { type: 'text', text: 'Price: ' },
      { type: 'variable', attrs: { name: 'item.price', fallback: '' } },
    ]);

    // outside the repeat there is no item
    await page.click('.sv-content > p');
    await page.keyboard.press('End');
    await caretAtEndOf(page, 'Hello');
    await page.keyboard.type(' {{');
    await page.waitForSelector('.sv-slash:not([hidden]) .sv-slash-item');
    assert.deepEqual(await options(), ['var-customer-email', 'var-customer-vip', 'var-total']);
    await page.keyboard.press('Escape');
  });

  it('inserts the first value with the slash menu’s Variable, not a list or an object', async () => {
    await setContent({ type: 'doc', content: [{ type: 'paragraph' }] });
    await page.click('.sv-content p');
    await page.keyboard.type('/variable');
    await page.click('.sv-slash:not([hidden]) .sv-slash-item[data-id="variable"]');
    await page.waitForSelector('.sv-content .sv-variable');
    assert.deepEqual((await json()).content?.[0]?.content, [
      { type: 'variable', attrs: { name: 'total', fallback: '' } },
    ]);
    await page.keyboard.press('Escape');
  });

  it('offers the lists for a repeat, and every path with its type for a condition', async () => {
    await setContent({
      type: 'doc',
      content: [para('Your total'), { type: 'repeat', attrs: { each: 'items' }, content: [para('A line')] }],
    });
    await openSettings('.sv-content > .sv-repeat', 'each');
    assert.deepEqual(await suggestions('each'), ['items: List', 'tags: List']);
    await page.keyboard.press('Escape');

    await openSettings('.sv-content > p', 'showIf.var');
    assert.deepEqual(await suggestions('showIf.var'), [
      'items: List',
      'customer: Object',
      'customer.email: Text',
      'customer.vip: True or false',
      'total: Number',
      'tags: List',
    ]);
    assert.deepEqual(await axeViolations(page), []);
    // a number compares as a number: "42" is 42 (like compares with like)
    await page.fill('.sv-inspector [data-field="showIf.var"] input', 'total');
    await page.selectOption('.sv-inspector [data-field="showIf.op"] select', 'eq');
    await page.fill('.sv-inspector [data-field="showIf.value"] input', '42');
    await page.waitForFunction(
      () => (window as unknown as Win).editor.getJSON().content?.[0]?.attrs?.showIf !== undefined,
    );
    assert.deepEqual((await json()).content?.[0]?.attrs?.showIf, { var: 'total', op: 'eq', value: 42 });
    // and true or false as a boolean
    await page.fill('.sv-inspector [data-field="showIf.var"] input', 'customer.vip');
    await page.fill('.sv-inspector [data-field="showIf.value"] input', 'true');
    await page.waitForFunction(
      () =>
        ((window as unknown as Win).editor.getJSON().content?.[0]?.attrs?.showIf as { value?: unknown })
          ?.value === true,
    );
    assert.deepEqual((await json()).content?.[0]?.attrs?.showIf, {
      var: 'customer.vip',
      op: 'eq',
      value: true,
    });
    await page.keyboard.press('Escape');
  });

  it('previews the repeat with the sample items and the conditions as the samples say', async () => {
    await setContent({
      type: 'doc',
      content: [
        para('Your order', { var: 'total', op: 'eq', value: 42 }),
        para('VIP offer', { var: 'customer.vip', op: 'eq', value: true }),
        para('Not for VIPs', { var: 'customer.vip', op: 'eq', value: false }),
        {
          type: 'repeat',
          attrs: { each: 'items' },
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'variable', attrs: { name: 'item.name' } },
                { type: 'text', text: ' costs ' },
                { type: 'variable', attrs: { name: 'item.price' } },
              ],
            },
          ],
        },
        { type: 'paragraph', content: [{ type: 'variable', attrs: { name: 'customer.email' } }] },
      ],
    });
    await page.evaluate(() => (window as unknown as Win).editor.preview());
    const body = page.frameLocator('.sv-preview-frame').locator('body');
    await body.filter({ hasText: 'Socks costs 12.5' }).waitFor();
    const text = await body.innerText();
    assert.match(text, /Your order[\s\S]*VIP offer[\s\S]*Socks costs 12\.5[\s\S]*ada@example\.com/);
    assert.doesNotMatch(text, /Not for VIPs|\{\{/);
    await page.keyboard.press('Escape');
  });
});
