// The starter gallery: eight documents of the editor's own schema, exactly valid, that render
// to email passing the same outside checks as the editor's output, with and without branding,
// and with their variables filled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyBranding } from '../src/document/branding.js';
import { checkDocument } from '../src/document/check.js';
import type { AttrTable } from '../src/model/attrs.js';
import { DOC_ATTRS } from '../src/model/doc.js';
import type { JSONNode } from '../src/model/types.js';
import { BUILT_IN } from '../src/registry/block-set.js';
import { renderEmail, renderText } from '../src/render/email.js';
import { loadStarterTemplates } from '../src/templates/gallery/index.js';
import { resolveTemplateSource } from '../src/templates/source.js';
import { renderTemplate } from '../src/variables/render-template.js';
import { demoBrand } from '../test-support/brand.js';
import { unsupported, validate } from '../test-support/checkers.js';

const templates = await loadStarterTemplates();
const brand = demoBrand('https://cdn.lumen.test');

/** Every variable name a document uses. */
function variables(node: JSONNode, out = new Set<string>()): Set<string> {
  if (node.type === 'variable') out.add(String(node.attrs?.name));
  for (const m of node.marks ?? []) {
    const href = m.attrs?.href;
    if (typeof href === 'string') for (const x of href.matchAll(/\{\{(\w[\w.]*)/g)) out.add(x[1]!);
  }
  for (const value of Object.values(node.attrs ?? {}))
    if (typeof value === 'string') for (const x of value.matchAll(/\{\{(\w[\w.]*)/g)) out.add(x[1]!);
  for (const child of node.content ?? []) variables(child, out);
  return out;
}

/** A node as written, its omitted attributes (and its marks') filled with the tables' defaults. */
function withDefaults(node: JSONNode): JSONNode {
  const defaults = (table: AttrTable) =>
    Object.fromEntries(Object.entries(table).map(([k, spec]) => [k, spec.default]));
  const table = node.type === 'doc' ? DOC_ATTRS : BUILT_IN.byName.get(node.type)!.attrs;
  return {
    ...node,
    ...(Object.keys(table).length ? { attrs: { ...defaults(table), ...node.attrs } } : {}),
    ...(node.content ? { content: node.content.map(withDefaults) } : {}),
    ...(node.marks
      ? {
          marks: node.marks.map((m) => {
            const marks = BUILT_IN.marksByName.get(m.type)!.attrs;
            return Object.keys(marks).length ? { ...m, attrs: { ...defaults(marks), ...m.attrs } } : m;
          }),
        }
      : {}),
  };
}

describe('the starter gallery', () => {
  it('ships the eight emails most products need', () => {
    assert.deepEqual(
      templates.map((t) => t.id),
      [
        'welcome',
        'email-verification',
        'password-reset',
        'receipt',
        'shipping-update',
        'newsletter',
        'product-announcement',
        'event-invitation',
      ],
    );
    for (const t of templates) assert.ok(t.name && t.description && t.category, t.id);
  });

  it('resolves as the default "Purchased Templates" source, and checks custom ones', async () => {
    assert.equal((await resolveTemplateSource()).length, 8);
    const custom = await resolveTemplateSource(async () => [
      { id: 'x', name: 'X', document: templates[0]!.document },
    ]);
    assert.equal(custom[0]!.name, 'X');
    await assert.rejects(
      resolveTemplateSource([
        { id: 'bad', name: 'Bad', document: { type: 'doc', content: [{ type: 'marquee' }] } } as never,
      ]),
      (e: Error & { code?: string }) =>
        e.code === 'SEB_ERR_TEMPLATE_SOURCE' && /Bad/.test(e.message) && /marquee/.test(e.message),
    );
  });

  for (const template of templates) {
    describe(template.name, () => {
      const branded = applyBranding(template.document, brand);
      const names = [...variables(branded)];
      const data = Object.fromEntries(
        names.map((n) => [n, n.endsWith('_url') ? `https://lumen.test/${n}` : `<${n}>`]),
      );

      it('is exactly a valid document of the editor’s schema (nothing to clean)', () => {
        // the template as written, with only the attributes it leaves out filled with their defaults
        assert.deepEqual(checkDocument(template.document), withDefaults(template.document));
      });

      it('passes html-validate and caniemail, unbranded and branded', async () => {
        for (const doc of [template.document, branded]) {
          const html = renderEmail(doc);
          assert.deepEqual(await validate(html), []);
          assert.deepEqual(unsupported(html), []);
          assert.ok(html.length < 102 * 1024, 'under Gmail’s clip');
        }
      });

      it('fills every variable it uses, escaped, and says which it used', () => {
        const html = renderTemplate(renderEmail(branded), data, { format: 'html' });
        assert.deepEqual(html.missing, []);
        assert.deepEqual(new Set(html.used), new Set(names));
        const visible = html.output.replace(/ data-attrs="[^"]*"/g, '');
        assert.ok(!visible.includes('{{'), 'no tag left');
        for (const name of names.filter((n) => !n.endsWith('_url') && n !== 'user_id')) {
          assert.ok(visible.includes(`&lt;${name}&gt;`), `${name} filled`);
          assert.ok(!visible.includes(`<${name}>`), `${name} escaped`);
        }
        const text = renderTemplate(renderText(branded), data, { format: 'text' });
        assert.ok(!text.output.includes('{{'));
      });
    });
  }
});
