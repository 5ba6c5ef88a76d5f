// The custom-block example of docs/custom-blocks.md, defined outside the package as a host
// writes it, through everything that reads a document without a browser: checking, email HTML
// (with its Outlook button), plain text, problems, branding, its rendering used alone, and the
// errors of bad definitions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyBranding,
  type BlockDefinition,
  type BlockRendering,
  checkDocument,
  cleanDocument,
  defineBlock,
  findProblems,
  type JSONNode,
  renderEmail,
  renderText,
  ServiceEditorError,
} from '../src/index.js';

// A URL held in a variable: the example is plain JavaScript outside this TypeScript project.
const EXAMPLE = new URL('../docs/examples/product-card.mjs', import.meta.url).href;
const RENDERING = new URL('../docs/examples/product-card-rendering.mjs', import.meta.url).href;
const { blocks } = (await import(EXAMPLE)) as { blocks: BlockDefinition[] };
const { renderings } = (await import(RENDERING)) as { renderings: BlockRendering[] };

const card = (attrs: Record<string, unknown>): JSONNode => ({
  type: 'doc',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: 'Our pick this week' }] },
    { type: 'productCard', attrs },
  ],
});
const DOC = card({
  image: 'https://cdn.example.com/mug.png',
  title: 'Mug <"Classic">',
  price: '$12.00',
  href: 'https://shop.example.com/mug',
  buttonText: 'Buy the mug',
});

describe('a custom block defined outside the package', () => {
  it('is unknown without the blocks option, and checked with it', () => {
    assert.throws(
      () => checkDocument(DOC),
      (e: unknown) => e instanceof ServiceEditorError && e.code === 'SEB_ERR_UNKNOWN_NODE',
    );
    const checked = checkDocument(
      card({ title: 'Mug', href: 'javascript:alert(1)', buttonColor: 'red', extra: 1 }),
      { blocks },
    );
    // Its attribute table checks stored values as the built-in blocks' do.
    assert.deepEqual(checked.content?.[1]?.attrs, {
      image: '',
      title: 'Mug',
      price: '$0.00',
      href: '',
      buttonText: 'Buy now',
      buttonColor: '#18181b',
    });
  });

  it('renders its email HTML, escaped, with the Outlook button, and the marker that loads it back', () => {
    assert.throws(() => renderEmail(DOC), /SEB_ERR_UNKNOWN_NODE/);
    const html = renderEmail(DOC, { blocks });
    assert.match(html, /data-block="productCard" data-attrs="/);
    assert.match(html, /Mug &lt;&quot;Classic&quot;&gt;/);
    assert.doesNotMatch(html, /Mug <"Classic">/);
    assert.match(
      html,
      /<img src="https:\/\/cdn\.example\.com\/mug\.png" alt="Mug &lt;&quot;Classic&quot;&gt;" width="280"/,
    );
    assert.match(html, /<v:roundrect[^>]+href="https:\/\/shop\.example\.com\/mug"/);
    assert.match(html, /<a href="https:\/\/shop\.example\.com\/mug" target="_blank"[^>]*>Buy the mug<\/a>/);
  });

  it('gives its plain text and its problems', () => {
    assert.equal(
      renderText(DOC, { blocks }),
      'Our pick this week\n\nMug <"Classic">\n$12.00\nBuy the mug: https://shop.example.com/mug\n',
    );
    assert.deepEqual(findProblems(DOC, { blocks }), []);
    const [problem] = findProblems(card({ title: 'Mug' }), { blocks });
    assert.equal(problem?.code, 'SEB_PROBLEM_NO_LINK');
    assert.equal(problem?.block, 'productCard');
    assert.deepEqual(problem?.path, [1]);
  });

  it('takes the brand colour, and follows a brand change until someone picks a colour', () => {
    const branded = applyBranding(card({ title: 'Mug' }), { brandColor: '#e11d48' }, undefined, { blocks });
    assert.equal(branded.content?.[1]?.attrs?.buttonColor, '#e11d48');
    const followed = applyBranding(branded, { brandColor: '#0f766e' }, { brandColor: '#e11d48' }, { blocks });
    assert.equal(followed.content?.[1]?.attrs?.buttonColor, '#0f766e');
    const own = card({ title: 'Mug', buttonColor: '#111111' });
    const kept = applyBranding(own, { brandColor: '#0f766e' }, { brandColor: '#e11d48' }, { blocks });
    assert.equal(kept.content?.[1]?.attrs?.buttonColor, '#111111');
  });

  it('renders, brands and lists problems from its rendering alone, as from the full block', () => {
    const own = card({ title: 'Mug', buttonColor: '#111111' });
    assert.equal(renderEmail(DOC, { blocks: renderings }), renderEmail(DOC, { blocks }));
    assert.equal(renderText(DOC, { blocks: renderings }), renderText(DOC, { blocks }));
    assert.deepEqual(cleanDocument(own, { blocks: renderings }), cleanDocument(own, { blocks }));
    assert.deepEqual(findProblems(own, { blocks: renderings }), findProblems(own, { blocks }));
    const brand = { brandColor: '#e11d48' };
    assert.deepEqual(
      applyBranding(card({ title: 'Mug' }), brand, undefined, { blocks: renderings }),
      applyBranding(card({ title: 'Mug' }), brand, undefined, { blocks }),
    );
  });

  it('renders an inline block inside text, whether its rendering or only its spec says inline', () => {
    const chip = { attrs: {}, render: () => '<b>chip</b>', text: () => 'chip' };
    const inText: JSONNode = {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a ' }, { type: 'chip' }] }],
    };
    for (const block of [
      { ...chip, name: 'chip', inline: true },
      { ...chip, name: 'chip', spec: { inline: true, group: 'inline', atom: true } },
    ]) {
      assert.match(renderEmail(inText, { blocks: [block] }), /a <b>chip<\/b>/);
      const between = { ...block, inline: false, spec: { group: 'block' } };
      assert.throws(() => renderEmail(inText, { blocks: [between] }), /SEB_ERR_UNKNOWN_NODE/);
    }
    const full = [
      defineBlock({ ...chip, name: 'chip', inline: true, spec: { group: 'inline', atom: true } }),
    ];
    assert.equal(checkDocument(inText, { blocks: full }).content?.[0]?.content?.[1]?.type, 'chip');
  });

  it('refuses definitions it cannot use, naming the block', () => {
    const minimal = { attrs: {}, spec: { group: 'block' }, render: () => '', text: () => '' };
    for (const [bad, reason] of [
      [{ ...minimal, name: 'paragraph' }, /"paragraph": a block of that name exists already/],
      [{ ...minimal, name: '1card' }, /the name must be letters and digits/],
      [{ ...minimal, name: 'card', render: undefined }, /render and text are required/],
      [{ ...minimal, name: 'card', attrs: undefined }, /attrs is required/],
    ] as const) {
      assert.throws(
        () => renderEmail({ type: 'doc', content: [] }, { blocks: [bad as unknown as BlockDefinition] }),
        (e: unknown) =>
          e instanceof ServiceEditorError && e.code === 'SEB_ERR_BLOCK' && reason.test(e.message),
      );
    }
    const twice = defineBlock({ ...minimal, name: 'card' });
    assert.throws(() => checkDocument({ type: 'doc' }, { blocks: [twice, twice] }), /SEB_ERR_BLOCK/);
  });

  it('renders a block without a spec, and refuses it where the schema is made of specs', () => {
    const rendering = { name: 'card', attrs: {}, render: () => '<p>card</p>', text: () => 'card' };
    const doc: JSONNode = { type: 'doc', content: [{ type: 'card' }] };
    assert.match(renderEmail(doc, { blocks: [rendering] }), /<p>card<\/p>/);
    assert.throws(
      () => checkDocument(doc, { blocks: [rendering as unknown as BlockDefinition] }),
      (e: unknown) =>
        e instanceof ServiceEditorError && e.code === 'SEB_ERR_BLOCK' && /spec is required/.test(e.message),
    );
  });
});
