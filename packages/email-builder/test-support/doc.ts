import type { JSONMark, JSONNode } from '../src/model/types.js';

/** A tiny DSL for documents in tests: `doc(p(t('Hi ', bold())), button({ href }))`. */
export const t = (text: string, ...marks: JSONMark[]): JSONNode =>
  marks.length ? { type: 'text', text, marks } : { type: 'text', text };
export const bold = (): JSONMark => ({ type: 'bold' });
export const italic = (): JSONMark => ({ type: 'italic' });
export const link = (href: string): JSONMark => ({ type: 'link', attrs: { href } });
export const node = (type: string, attrs?: Record<string, unknown>, ...content: JSONNode[]): JSONNode => ({
  type,
  ...(attrs ? { attrs } : {}),
  ...(content.length ? { content } : {}),
});
export const p = (...content: JSONNode[]): JSONNode => node('paragraph', undefined, ...content);
export const h = (level: number, ...content: JSONNode[]): JSONNode => node('heading', { level }, ...content);
export const li = (...content: JSONNode[]): JSONNode => node('listItem', undefined, ...content);
export const ul = (...items: JSONNode[]): JSONNode => node('bulletList', undefined, ...items);
export const ol = (...items: JSONNode[]): JSONNode => node('orderedList', undefined, ...items);
export const col = (attrs: Record<string, unknown> | undefined, ...content: JSONNode[]): JSONNode =>
  node('column', attrs, ...content);
export const doc = (...content: JSONNode[]): JSONNode => ({ type: 'doc', content });
export const docWith = (attrs: Record<string, unknown>, ...content: JSONNode[]): JSONNode => ({
  type: 'doc',
  attrs,
  content,
});

/** One sample of every block, with its attributes set away from the defaults. */
export const SAMPLES: Record<string, JSONNode> = {
  paragraph: p(
    t('Plain '),
    t('bold', bold()),
    t(' and '),
    t('a link', link('https://example.com/?a=1&b=2')),
    node('hardBreak'),
    t('after a break'),
  ),
  heading: h(2, t('Section title')),
  bulletList: ul(li(p(t('One'))), li(p(t('Two')), ul(li(p(t('Nested')))))),
  orderedList: node('orderedList', { start: 3 }, li(p(t('Third'))), li(p(t('Fourth')))),
  blockquote: node('blockquote', undefined, p(t('A quote worth keeping.'))),
  button: node('button', {
    text: 'Read more',
    href: 'https://example.com/read',
    backgroundColor: '#4f46e5',
    borderRadius: 12,
    align: 'left',
  }),
  buttonFull: node('button', { text: 'Claim offer', href: 'https://example.com/claim', fullWidth: true }),
  image: node('image', {
    src: 'https://example.com/hero.png',
    alt: 'Our new product',
    href: 'https://example.com',
    width: 80,
    borderRadius: 8,
    darkSrc: 'https://example.com/hero-dark.png',
  }),
  logo: node('logo', { src: 'https://example.com/logo.png', alt: 'Acme', width: 140 }),
  divider: node('divider', { color: '#cccccc', thickness: 2 }),
  spacer: node('spacer', { height: 48 }),
  columns2: node(
    'columns',
    { layout: '2' },
    col(undefined, p(t('Left'))),
    col({ backgroundColor: '#f1f5f9', padding: 16 }, p(t('Right'))),
  ),
  columns12: node(
    'columns',
    { layout: '1-2' },
    col(undefined, node('image', { src: 'https://example.com/a.png', alt: 'Thumb' })),
    col(undefined, h(3, t('Story')), p(t('Text beside'))),
  ),
  columns21: node('columns', { layout: '2-1' }, col(undefined, p(t('Wide'))), col(undefined, p(t('Narrow')))),
  columns3: node(
    'columns',
    { layout: '3', stackOnMobile: false },
    col(undefined, p(t('A'))),
    col(undefined, p(t('B'))),
    col(undefined, p(t('C'))),
  ),
  section: node('columns', { layout: '1' }, col({ backgroundColor: '#fef3c7', padding: 24 }, p(t('Boxed')))),
  socialLinks: node('socialLinks', {
    links: [
      { network: 'github', url: 'https://github.com/acme' },
      { network: 'linkedin', url: 'https://linkedin.com/company/acme' },
    ],
  }),
  footer: node('footer', {
    company: 'Acme Inc.',
    address: '1 Road\nTown',
    email: 'hello@acme.test',
    phone: '+1 555 0100',
    unsubscribeUrl: 'https://acme.test/unsub?u=1',
  }),
  signature: node('signature', {
    avatar: 'https://example.com/me.png',
    name: 'Ada Lovelace',
    position: 'Founder',
    company: 'Acme',
  }),
  badge: p(t('Launch '), node('badge', { text: 'New' })),
  variable: p(t('Hi '), node('variable', { name: 'first_name', fallback: 'there & "friends"' }), t('!')),
  repeat: node(
    'repeat',
    { each: 'items', empty: 'Nothing this week', max: 5 },
    p(t('Item: '), node('variable', { name: 'item.name' })),
  ),
  condition: node(
    'paragraph',
    {
      showIf: {
        all: [
          { var: 'plan', op: 'eq', value: 'trial <"pro">' },
          { var: 'days', op: 'lte', value: 7 },
        ],
      },
    },
    t('Your trial ends soon.'),
  ),
  columnsIf: node(
    'columns',
    { layout: '2' },
    col({ showIf: { var: 'vip', op: 'exists' } }, p(t('VIP')), p(t('Perks'))),
    col(undefined, p(t('Everyone'))),
  ),
};

/** A realistic newsletter using every block. */
export function fullDocument(
  attrs: Record<string, unknown> = { preheader: 'What is new this month' },
): JSONNode {
  return docWith(
    attrs,
    SAMPLES.logo!,
    h(1, t('Hello <friends> & "family"')),
    ...Object.entries(SAMPLES)
      .filter(([k]) => k !== 'logo')
      .map(([, v]) => v),
  );
}

/**
 * A document with every block that has a side (lists, a quote, columns stacking and not, a
 * left-aligned image, a signature with a photo), in Arabic for `rtl` and English for `ltr`.
 */
export function sidedDocument(dir: 'ltr' | 'rtl'): JSONNode {
  const [a, b, c, d] =
    dir === 'rtl' ? ['أولاً', 'ثانياً', 'الأول', 'الثاني'] : ['First', 'Second', 'One', 'Two'];
  return docWith(
    { lang: dir === 'rtl' ? 'ar' : 'en', dir },
    ul(li(p(t(a)), ul(li(p(t(`${a} ${b}`))))), li(p(t(b)))),
    ol(li(p(t(a)))),
    node('blockquote', undefined, p(t(`${a} ${b} ${c} ${d}`))),
    node('columns', { layout: '2', gap: 20 }, col(undefined, p(t(c))), col(undefined, p(t(d)))),
    node(
      'columns',
      { layout: '2', gap: 20, stackOnMobile: false },
      col(undefined, p(t(a))),
      col(undefined, p(t(b))),
    ),
    node('image', { src: 'https://example.com/a.png', alt: c, width: 50, align: 'left' }),
    node('signature', { avatar: 'https://example.com/me.png', name: d }),
  );
}
