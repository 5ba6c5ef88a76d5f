// The top-level blocks contain their layout (service.css, issue 38: less layout, pre-paint and
// paint per keystroke on long documents). A layout-contained box keeps its children's margins
// inside, so a block whose last child's margin used to collapse through it would grow: this
// pins that every element of the starter templates and of a document with every block sits
// where it sits without containment, to the fraction of a pixel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { STARTER_TEMPLATES } from '../src/templates/gallery/starter.js';
import { type EditorSession, openEditorSession } from '../test-support/editor-session.js';

type Win = { editor: import('../src/editor.js').ServiceEditor };
type Doc = import('../src/model/types.js').JSONNode;

let session: EditorSession;
let page: Page;

before(async () => {
  session = await openEditorSession(`{ elementId: 'editor', colorScheme: 'light' }`, {
    viewport: { width: 1280, height: 900 },
  });
  page = session.page;
});

after(async () => {
  await session?.close();
});

const p = (text: string, attrs?: Record<string, unknown>): Doc => ({
  type: 'paragraph',
  ...(attrs ? { attrs } : {}),
  content: [{ type: 'text', text }],
});
const li = (...content: Doc[]): Doc => ({ type: 'listItem', content });

/** Every block type, with the nestings whose margins could collapse through their block. */
const EVERY_BLOCK: Doc = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Title' }] },
    p('Shown to trial users', { showIf: { var: 'plan', op: 'eq', value: 'trial' } }),
    {
      type: 'bulletList',
      content: [
        li(p('one'), { type: 'orderedList', content: [li(p('nested a')), li(p('nested b'))] }),
        li(p('two'), { type: 'bulletList', content: [li(p('last nested'))] }),
      ],
    },
    { type: 'orderedList', content: [li(p('first')), li(p('second'))] },
    { type: 'blockquote', content: [p('Quote one'), p('Quote two')] },
    {
      type: 'repeat',
      attrs: { each: 'items' },
      content: [p('Item'), { type: 'bulletList', content: [li(p('in a repeat'))] }],
    },
    { type: 'button', attrs: { text: 'Go', href: 'https://shop.example' } },
    { type: 'image', attrs: { src: '' } },
    { type: 'divider' },
    { type: 'spacer', attrs: { height: 24 } },
    { type: 'socialLinks' },
    { type: 'signature' },
    { type: 'footer' },
    p('After the footer'),
  ],
};

/** Each element's box in the email, relative to the email's top left. */
function boxes(): Promise<string[]> {
  return page.evaluate(() => {
    const content = document.querySelector('.sv-content')!;
    const origin = content.getBoundingClientRect();
    return [...content.querySelectorAll('*')].map((el) => {
      const r = el.getBoundingClientRect();
      return `${el.tagName}.${el.className} ${r.left - origin.left},${r.top - origin.top} ${r.width}x${r.height}`;
    });
  });
}

async function withoutContainment<T>(run: () => Promise<T>): Promise<T> {
  await page.addStyleTag({ content: '.sv-content > * { contain: none !important; }' });
  try {
    return await run();
  } finally {
    await page.evaluate(() => document.head.lastElementChild?.remove());
  }
}

describe('top-level blocks contain their layout without moving anything', () => {
  it('the shipped stylesheet contains each top-level block’s layout', async () => {
    await page.evaluate((d) => (window as unknown as Win).editor.setContent(d), EVERY_BLOCK);
    const contain = await page.evaluate(() =>
      [...document.querySelectorAll('.sv-content > *')].map((el) => getComputedStyle(el).contain),
    );
    assert.ok(contain.length >= EVERY_BLOCK.content!.length, String(contain.length));
    assert.deepEqual(new Set(contain), new Set(['layout']));
  });

  for (const [name, doc] of [
    ['every block', EVERY_BLOCK] as const,
    ...STARTER_TEMPLATES.map((t) => [t.name, t.document] as const),
  ]) {
    it(`${name}: every element where it is without containment`, async () => {
      await page.evaluate((d) => (window as unknown as Win).editor.setContent(d), doc);
      const contained = await boxes();
      const plain = await withoutContainment(boxes);
      assert.ok(contained.length > 5, String(contained.length));
      assert.deepEqual(contained, plain);
    });
  }
});
