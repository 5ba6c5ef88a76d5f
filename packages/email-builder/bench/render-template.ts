// renderTemplate on a 200-block email whose repeat shows 100 items (issue 38: ≤ 5 ms), in Node.
// `npm run bench` prints it; `node --import tsx bench/render-template.ts` runs it alone.
import { renderEmail } from '../src/render/email.ts';
import { renderTemplate } from '../src/variables/render-template.ts';

const text = (t: string) => ({ type: 'text', text: t });
const variable = (name: string, fallback = '') => ({ type: 'variable', attrs: { name, fallback } });
const paragraph = (...content: object[]) => ({ type: 'paragraph', content });

/** One of the editor bench's five kinds of block, some with a merge tag or a condition. */
function block(i: number): object {
  return [
    {
      type: 'heading',
      attrs: { level: 2 },
      content: [text(`Section ${i} for `), variable('first_name', 'you')],
    },
    {
      type: 'paragraph',
      attrs: { showIf: { var: 'plan', op: 'eq', value: i % 2 ? 'trial' : 'pro' } },
      content: [
        text('Some text with '),
        {
          type: 'text',
          text: 'a link',
          marks: [{ type: 'link', attrs: { href: 'https://example.com/?u={{id}}' } }],
        },
      ],
    },
    { type: 'button', attrs: { text: 'Go', href: 'https://example.com/{{id}}' } },
    { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('item'))] }] },
    {
      type: 'columns',
      content: [
        { type: 'column', content: [paragraph(text('L'))] },
        { type: 'column', content: [paragraph(text('R'))] },
      ],
    },
  ][i % 5]!;
}

/** The email (199 blocks and a repeat of three), its data, and renderTemplate's median and p90 over `runs`. */
export function benchRenderTemplate(runs = 200) {
  const repeat = {
    type: 'repeat',
    attrs: { each: 'items', empty: 'Nothing', max: 100 },
    content: [
      paragraph(
        variable('item.name'),
        text(' × '),
        variable('item.qty', '1'),
        text(' at '),
        variable('item.price'),
      ),
      {
        type: 'paragraph',
        attrs: { showIf: { var: 'item.price', op: 'gt', value: 50 } },
        content: [text('Premium')],
      },
      { type: 'button', attrs: { text: 'View', href: 'https://shop.example/p?id={{item.id}}' } },
    ],
  };
  const doc = { type: 'doc', content: [...Array.from({ length: 199 }, (_, i) => block(i)), repeat] };
  const html = renderEmail(doc as never);
  const data = {
    first_name: 'Ada',
    plan: 'trial',
    id: 'u-1',
    items: Array.from({ length: 100 }, (_, i) => ({
      name: `Item <${i}>`,
      qty: i % 3,
      price: i,
      id: `p ${i}`,
    })),
  };
  for (let i = 0; i < 20; i++) renderTemplate(html, data); // warm up
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    size = renderTemplate(html, data).output.length;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(runs / 2)]!,
    p90: times[Math.floor(runs * 0.9)]!,
    source: html.length,
    size,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = benchRenderTemplate();
  console.log(
    `renderTemplate, 200 blocks + 100-item repeat: median ${r.median.toFixed(2)} ms, p90 ${r.p90.toFixed(2)} ms (${(r.source / 1024).toFixed(0)} KB → ${(r.size / 1024).toFixed(0)} KB)`,
  );
}
