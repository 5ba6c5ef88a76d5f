// The render threads: the editor's renderer and checker off the event loop, answers as the
// render route's JSON entries, and a bounded queue that refuses rather than piles up.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { RenderPool, RenderQueueFullError } from './pool.js';

const DOC = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Hi ' },
        { type: 'variable', attrs: { name: 'first_name', fallback: 'there' } },
      ],
    },
  ],
};

describe('RenderPool', () => {
  const pool = new RenderPool({ threads: 1, maxQueue: 2 });
  after(() => pool.close());

  test('checks a document with the editor’s rules, and says why one cannot be loaded', async () => {
    const checked = await pool.check(DOC);
    assert.equal(checked.ok, true);
    const bad = await pool.check({ type: 'doc', content: [{ type: 'marquee' }] });
    assert.deepEqual(bad, { ok: false, message: 'Unknown node type "marquee" in the document' });
  });

  test('renders a stored document into the render answer’s JSON entry', async () => {
    const checked = await pool.check(DOC);
    assert.ok(checked.ok);
    const bytes = await pool.render('tpl_x', checked.json, { first_name: '<Ada>' });
    const entry = JSON.parse(Buffer.from(bytes).toString('utf8'));
    assert.equal(entry.status, 200);
    assert.equal(entry.error, null);
    assert.equal(entry.data.id, 'tpl_x');
    assert.match(entry.data.html, /Hi &lt;Ada&gt;/);
    assert.match(entry.data.text, /Hi <Ada>/);
    assert.deepEqual([entry.data.missing, entry.data.defaulted, entry.data.unsafe], [[], [], []]);
  });

  test('refuses work past its queue instead of piling it up', async () => {
    const checked = await pool.check(DOC);
    assert.ok(checked.ok);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => pool.render('tpl_x', checked.json, {})),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    assert.ok(refused.length > 0, 'some were refused');
    for (const r of refused) assert.ok((r as PromiseRejectedResult).reason instanceof RenderQueueFullError);
    assert.ok(
      results.some((r) => r.status === 'fulfilled'),
      'the queue still served some',
    );
  });
});
