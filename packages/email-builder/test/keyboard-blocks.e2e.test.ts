// Working on whole blocks from the keyboard in real Chromium: Alt+Shift+ArrowUp/ArrowDown move
// the block holding the cursor, Mod-D duplicates it (issue 40: only the pointer's block menu
// could, so a keyboard user could not reorder an email).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { col, doc, node, p, t } from '../test-support/doc.js';
import { caretAtEndOf, type EditorSession, openEditorSession } from '../test-support/editor-session.js';

type Win = { editor: import('../src/editor.js').ServiceEditor };

let session: EditorSession;
let page: Page;

/** Each top-level block: its text, or its type when it has none. */
const blocks = () =>
  page.evaluate(() =>
    ((window as unknown as Win).editor.getJSON().content ?? []).map((b) =>
      b.content ? JSON.stringify(b.content).replace(/.*"text":"([^"]*)".*/, '$1') : b.type,
    ),
  );

/** Replaces the email and puts the cursor at the end of the paragraph saying `text`. */
async function cursorIn(content: object, text: string): Promise<void> {
  await page.evaluate((c) => (window as unknown as Win).editor.setContent(c), content);
  await page.click(`.sv-content p:has-text("${text}")`);
  await page.keyboard.press('End');
  await caretAtEndOf(page, text);
}

before(async () => {
  session = await openEditorSession(`{ elementId: 'editor', colorScheme: 'light' }`, {
    viewport: { width: 1000, height: 800 },
  });
  page = session.page;
});

after(async () => {
  await session?.close();
});

describe('blocks from the keyboard', () => {
  it('Alt+Shift+ArrowUp and ArrowDown move the block holding the cursor, which goes along', async () => {
    await cursorIn(doc(p(t('One')), p(t('Two')), p(t('Three'))), 'Two');
    await page.keyboard.press('Alt+Shift+ArrowUp');
    assert.deepEqual(await blocks(), ['Two', 'One', 'Three']);
    await page.keyboard.type('!');
    assert.deepEqual(await blocks(), ['Two!', 'One', 'Three'], 'the cursor moved with its block');
    await page.keyboard.press('Alt+Shift+ArrowUp');
    assert.deepEqual(await blocks(), ['Two!', 'One', 'Three'], 'the first block stays first');
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await page.keyboard.press('Alt+Shift+ArrowDown');
    assert.deepEqual(await blocks(), ['One', 'Three', 'Two!']);
  });

  it('Mod-D duplicates the block holding the cursor, the cursor going into the copy', async () => {
    await cursorIn(doc(p(t('Intro')), p(t('Item')), p(t('Outro'))), 'Item');
    await page.keyboard.press('ControlOrMeta+d');
    assert.deepEqual(await blocks(), ['Intro', 'Item', 'Item', 'Outro']);
    await page.keyboard.type(' 2');
    assert.deepEqual(await blocks(), ['Intro', 'Item', 'Item 2', 'Outro']);
  });

  // Regression (issue 40): Ctrl+End then Enter in the last column of a last columns block kept
  // making paragraphs inside the column, with no way out below it
  it('Enter on an empty last paragraph of the last column goes on in a paragraph after the columns', async () => {
    await page.evaluate(
      (c) => (window as unknown as Win).editor.setContent(c),
      doc(
        p(t('Intro')),
        node('columns', undefined, col(undefined, p(t('Left'))), col(undefined, p(t('Right')))),
      ),
    );
    await page.click('.sv-content p:has-text("Intro")');
    await page.keyboard.press('ControlOrMeta+End');
    // the editor has seen the caret at the end of the last column before Enter is pressed
    await caretAtEndOf(page, 'Right');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('After');
    const json = await page.evaluate(() => (window as unknown as Win).editor.getJSON());
    assert.deepEqual(
      json.content?.map((b) => b.type),
      ['paragraph', 'columns', 'paragraph'],
    );
    assert.equal(json.content?.[2]?.content?.[0]?.text, 'After');
    assert.deepEqual(
      json.content?.[1]?.content?.[1]?.content?.map((b) => b.content?.[0]?.text ?? ''),
      ['Right'],
      'no empty paragraph left in the column',
    );
  });

  // The gap cursor loads with the editing UI (ui/cursors.ts), at the editor's first focus: the
  // arrows reach the spot before an email's first block with no text all the same.
  it('ArrowUp past a first block with no text stops at a gap cursor, where typing starts a paragraph', async () => {
    await cursorIn(doc(node('divider'), p(t('Text'))), 'Text');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    // drawn by its ::after, the cursor's own box is empty
    await page.waitForSelector('.sv-content .ProseMirror-gapcursor', { state: 'attached' });
    await page.keyboard.type('A');
    assert.deepEqual(await blocks(), ['A', 'divider', 'Text']);
  });
});
