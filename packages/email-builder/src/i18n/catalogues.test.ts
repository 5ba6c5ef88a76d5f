// The editor's message catalogues (issue 38): every language has exactly the English keys with
// the same placeholders, every word a built-in block shows is a key, BCP 47 tags find their
// language, and placeholders are filled the language's way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOC_ATTRS } from '../model/doc.js';
import { DEFAULT_VARIABLES } from '../nodes/variable/index.js';
import { PROBLEM_HINTS } from '../problems.js';
import { BUILT_IN } from '../registry/block-set.js';
import { UPLOAD_NOT_LOADED } from '../upload/editor-uploads.js';
import { ENGLISH } from './en.js';
import { LOCALES, loadTexts, matchLocale, resolveLocale } from './locales.js';
import { t } from './translate.js';

/** The placeholders of a message, sorted: `{count}`, and `{{name}}` merge tags as written. */
const placeholders = (text: string) => (text.match(/\{\{?\w+\}?\}/g) ?? []).sort();

describe('the catalogues', () => {
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale} has exactly the English keys, each translated, with the same placeholders`, async () => {
      const texts = await loadTexts(locale);
      assert.deepEqual(Object.keys(texts).sort(), [...ENGLISH].sort());
      for (const key of ENGLISH) {
        const text = texts[key]!;
        assert.ok(text.trim() !== '', `${locale}: "${key}" is empty`);
        assert.deepEqual(placeholders(text), placeholders(key), `${locale}: "${key}" → "${text}"`);
      }
    });
  }

  it('English has no duplicate keys', () => {
    assert.equal(new Set(ENGLISH).size, ENGLISH.length);
  });

  it('holds every word a built-in block shows: slash command, group, settings and their options', () => {
    const shown = new Set<string>();
    const attrs = (specs: Record<string, unknown>) => {
      for (const [key, raw] of Object.entries(specs)) {
        const spec = raw as { label?: string; labels?: string[]; item?: Record<string, unknown> };
        if (key === 'showIf') continue;
        shown.add(spec.label ?? key);
        for (const label of spec.labels ?? []) shown.add(label);
        if (spec.item) attrs(spec.item);
      }
    };
    for (const block of BUILT_IN.blocks) {
      for (const item of block.slash ?? []) {
        shown.add(item.title);
        shown.add(item.description);
        if (item.group) shown.add(item.group);
      }
      if (block.inspect) {
        const name = block.name.replace(/([A-Z])/g, ' $1');
        shown.add(name.charAt(0).toUpperCase() + name.slice(1));
        attrs(block.attrs);
      }
    }
    for (const key of ['backdrop', 'canvas', 'border', 'padding', 'radius', 'width', 'preheader'] as const)
      attrs({ [key]: DOC_ATTRS[key] });
    // the hints the editor may show on blocks (`problemHints` and the image's view), every one
    for (const hint of Object.values(PROBLEM_HINTS)) shown.add(hint);
    // what an upload says when its code did not load
    shown.add(UPLOAD_NOT_LOADED);
    // the default merge variables' labels, in the slash and `{{` menus
    for (const v of DEFAULT_VARIABLES) if (v.label) shown.add(v.label);
    // names of brands and networks stay as they are in every language
    const names = new Set(['Facebook', 'Instagram', 'X', 'LinkedIn', 'YouTube', 'GitHub', 'TikTok']);
    const missing = [...shown].filter((s) => !names.has(s) && !(ENGLISH as readonly string[]).includes(s));
    assert.deepEqual(missing, [], 'shown by a block but not in src/i18n/en.ts');
  });
});

describe('matchLocale', () => {
  const cases: [string, string | null][] = [
    ['de', 'de'],
    ['de-AT', 'de'],
    ['DE-ch', 'de'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['pt-br', 'pt-BR'],
    ['ar-EG', 'ar'],
    ['ja-JP', 'ja'],
    ['en-GB', 'en'],
    ['fr-CA', 'fr'],
    ['es-419', 'es'],
    ['xx', null],
    ['nl', null],
    ['not a tag!', null],
    ['', null],
  ];
  for (const [tag, expected] of cases)
    it(`"${tag}" → ${expected}`, () => assert.equal(matchLocale(tag), expected));
});

describe('resolveLocale', () => {
  it('puts messages over the catalogue, and knows no key it was not given ("constructor")', async () => {
    const { locale, dir, texts } = await resolveLocale('ar-SA', { Undo: 'Back' });
    assert.deepEqual([locale, dir, texts.Undo, texts.Redo], ['ar', 'rtl', 'Back', 'إعادة']);
    assert.equal(texts.constructor, undefined);
    assert.equal(t({ locale, texts }, 'constructor'), 'constructor');
  });
});

describe('t', () => {
  it('fills placeholders, numbers written the language’s way', () => {
    const de = { locale: 'de', texts: { '{n} items': '{n} Elemente' } };
    assert.equal(t(de, '{n} items', { n: 1234.5 }), '1.234,5 Elemente');
    assert.equal(t(undefined, 'Uploading {name}…', { name: 'a.png' }), 'Uploading a.png…');
  });

  it('leaves an unknown key, and a placeholder with no value, as written', () => {
    const c = { locale: 'fr', texts: {} };
    assert.equal(t(c, 'Not a key'), 'Not a key');
    assert.equal(t(c, 'A {missing} one', {}), 'A {missing} one');
    assert.equal(t(c, 'A merge field such as {{first_name}}'), 'A merge field such as {{first_name}}');
  });
});
