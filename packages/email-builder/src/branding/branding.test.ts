// Branding: the spec's BrandSettings checked leaf by leaf, the presets each block takes from it,
// and its application to documents (templates being loaded, and live changes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyBranding, brandAttrs, TEMPLATE_ACCENT, tint } from '../document/branding.js';
import type { JSONNode } from '../model/types.js';
import { contrast } from '../primitives/contrast.js';
import { BUILT_IN } from '../registry/block-set.js';
import { renderEmail } from '../render/email.js';
import { STARTER_TEMPLATES } from '../templates/gallery/starter.js';
import { checkBranding } from './check.js';

const BRAND = {
  logo: { light: 'https://cdn.acme.test/logo.png', dark: 'https://cdn.acme.test/logo-dark.png' },
  socialMedia: {
    facebook: null,
    instagram: 'https://instagram.com/acme',
    twitter: null,
    linkedin: 'https://linkedin.com/company/acme',
    youtube: null,
    github: 'https://github.com/acme',
  },
  brandColor: '#E11D48',
  unsubscribe: { text: 'Stop these emails', link: 'https://acme.test/unsub?u={{user_id}}' },
  contact: { email: 'hello@acme.test', phone: '+1 (555) 010-0100', address: '1 Road, Town' },
  signature: { avatar: 'https://cdn.acme.test/me.png', name: 'Ada Park', position: 'CEO', company: 'Acme' },
};

/** Every node of a type in a document. */
function nodes(doc: JSONNode, type: string): JSONNode[] {
  const out: JSONNode[] = [];
  const walk = (n: JSONNode) => {
    if (n.type === type) out.push(n);
    n.content?.forEach(walk);
  };
  walk(doc);
  return out;
}

describe('checkBranding', () => {
  it('keeps a valid BrandSettings, normalised, with every leaf present', () => {
    const { brand, problems } = checkBranding(BRAND);
    assert.deepEqual(problems, []);
    assert.equal(brand.brandColor, '#e11d48');
    assert.deepEqual(brand.socialMedia, { ...BRAND.socialMedia });
    assert.equal(brand.unsubscribe.link, 'https://acme.test/unsub?u={{user_id}}');
  });

  it('treats null, absent and empty the same: not given', () => {
    const { brand, problems } = checkBranding({
      logo: null,
      contact: { email: '' },
      signature: { name: null },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(brand.logo, { light: null, dark: null });
    assert.equal(brand.contact.email, null);
    assert.deepEqual(checkBranding(null).brand, checkBranding({}).brand);
  });

  it('reports each bad value clearly and drops it, keeping the rest', () => {
    const { brand, problems } = checkBranding({
      logo: { light: 'javascript:alert(1)', dark: 'data:image/png;base64,iVBORw0KGgo=' },
      socialMedia: {
        github: 'ftp://github.com/acme',
        linkedin: 'https://linkedin.com/x',
        myspace: 'https://x',
      },
      brandColor: 'red',
      unsubscribe: { text: 42, link: 'mailto:unsub@acme.test' },
      contact: { email: 'not an email', phone: 'call me', address: 'x'.repeat(501) },
      signature: { avatar: 'http://cdn.test/a.png', name: 'Ada' },
      colour: '#fff',
    });
    assert.deepEqual(
      problems.map((p) => p.path),
      [
        'branding.colour',
        'branding.logo.light',
        'branding.logo.dark',
        'branding.socialMedia.myspace',
        'branding.socialMedia.github',
        'branding.brandColor',
        'branding.unsubscribe.text',
        'branding.unsubscribe.link',
        'branding.contact.email',
        'branding.contact.phone',
        'branding.contact.address',
      ],
    );
    assert.match(problems.find((p) => p.path === 'branding.brandColor')!.reason, /hex colour.*"red"/);
    assert.match(problems.find((p) => p.path === 'branding.contact.email')!.reason, /email address/);
    assert.equal(brand.logo.light, null);
    assert.equal(brand.brandColor, null);
    assert.equal(brand.socialMedia.linkedin, 'https://linkedin.com/x');
    assert.equal(brand.signature.avatar, 'http://cdn.test/a.png');
    assert.equal(brand.signature.name, 'Ada');
  });

  it('reports groups of the wrong type', () => {
    assert.deepEqual(
      checkBranding({ logo: 'https://x.test/logo.png', socialMedia: [] }).problems.map((p) => p.path),
      ['branding.logo', 'branding.socialMedia'],
    );
    assert.deepEqual(checkBranding('acme').problems, [
      { path: 'branding', reason: 'expected an object or null' },
    ]);
  });
});

describe('brand presets of the slash commands', () => {
  const { brand } = checkBranding(BRAND);

  it('logo: light and dark images, alt from the company', () => {
    assert.deepEqual(brandAttrs(BUILT_IN, 'logo', brand), {
      src: BRAND.logo.light,
      darkSrc: BRAND.logo.dark,
      alt: 'Acme',
    });
  });
  it('social links: only the networks given, in the spec’s order', () => {
    assert.deepEqual(brandAttrs(BUILT_IN, 'socialLinks', brand), {
      links: [
        { network: 'instagram', url: 'https://instagram.com/acme' },
        { network: 'linkedin', url: 'https://linkedin.com/company/acme' },
        { network: 'github', url: 'https://github.com/acme' },
      ],
    });
  });
  it('button: the brand colour with a readable label colour', () => {
    assert.deepEqual(brandAttrs(BUILT_IN, 'button', brand), {
      backgroundColor: '#e11d48',
      textColor: '#ffffff',
    });
    const pale = checkBranding({ brandColor: '#fde047' }).brand;
    assert.deepEqual(brandAttrs(BUILT_IN, 'button', pale), {
      backgroundColor: '#fde047',
      textColor: '#18181b',
    });
  });
  it('footer: contact and unsubscribe; signature: avatar, name, position, company', () => {
    assert.deepEqual(brandAttrs(BUILT_IN, 'footer', brand), {
      company: 'Acme',
      address: '1 Road, Town',
      email: 'hello@acme.test',
      phone: '+1 (555) 010-0100',
      unsubscribeText: 'Stop these emails',
      unsubscribeUrl: 'https://acme.test/unsub?u={{user_id}}',
    });
    assert.deepEqual(brandAttrs(BUILT_IN, 'signature', brand), {
      avatar: BRAND.signature.avatar,
      name: 'Ada Park',
      position: 'CEO',
      company: 'Acme',
    });
  });
  it('gives nothing without branding', () => {
    const none = checkBranding(null).brand;
    for (const type of ['logo', 'socialLinks', 'button', 'footer', 'signature'])
      assert.deepEqual(brandAttrs(BUILT_IN, type, none), {}, type);
  });
});

describe('applyBranding to the starter templates', () => {
  for (const template of STARTER_TEMPLATES) {
    it(`brands "${template.name}" everywhere it shows the brand`, () => {
      const branded = applyBranding(template.document, BRAND);
      const json = JSON.stringify(branded);
      assert.ok(!json.includes(TEMPLATE_ACCENT), 'no accent colour left');
      for (const logo of nodes(branded, 'logo')) {
        assert.equal(logo.attrs?.src, BRAND.logo.light);
        assert.equal(logo.attrs?.darkSrc, BRAND.logo.dark);
      }
      assert.ok(nodes(branded, 'logo').length > 0, 'every template has a logo');
      for (const b of nodes(branded, 'button')) {
        assert.equal(b.attrs?.backgroundColor, '#e11d48');
        assert.ok(contrast(b.attrs?.textColor as string, '#e11d48') >= 4.5);
      }
      for (const footer of nodes(branded, 'footer')) {
        assert.equal(footer.attrs?.email, 'hello@acme.test');
        assert.equal(footer.attrs?.unsubscribeUrl, BRAND.unsubscribe.link);
      }
      assert.equal(nodes(branded, 'footer').length, 1, 'every template has a footer');
      for (const s of nodes(branded, 'socialLinks')) assert.equal((s.attrs!.links as unknown[]).length, 3);
      for (const s of nodes(branded, 'signature')) assert.equal(s.attrs?.name, 'Ada Park');
      for (const c of nodes(branded, 'column'))
        assert.ok(
          ['', tint('#e11d48')].includes(c.attrs?.backgroundColor as string),
          'tints follow the brand',
        );
      const html = renderEmail(branded);
      assert.ok(html.includes(BRAND.logo.light) && html.includes('hello@acme.test'));
      // the template itself is untouched
      assert.ok(JSON.stringify(template.document).includes(TEMPLATE_ACCENT));
    });
  }

  it('keeps text in a pale brand colour readable', () => {
    const branded = applyBranding(STARTER_TEMPLATES.find((t) => t.id === 'newsletter')!.document, {
      brandColor: '#fde047',
    });
    const colors: string[] = [];
    const walk = (n: JSONNode) => {
      for (const m of n.marks ?? []) if (m.type === 'textColor') colors.push(m.attrs?.color as string);
      if (n.type === 'badge')
        assert.ok(contrast(n.attrs?.textColor as string, n.attrs?.backgroundColor as string) >= 4.5);
      n.content?.forEach(walk);
    };
    walk(branded);
    assert.ok(colors.length > 0);
    for (const c of colors) assert.ok(contrast(c, '#ffffff') >= 4.5, c);
  });
});

describe('applyBranding after a change (live)', () => {
  it('moves what the previous brand set, and keeps what people changed', () => {
    const before = { ...BRAND };
    const doc: JSONNode = {
      type: 'doc',
      content: [
        { type: 'logo', attrs: brandAttrs(BUILT_IN, 'logo', checkBranding(before).brand) },
        { type: 'button', attrs: { text: 'Brand', backgroundColor: '#e11d48', textColor: '#ffffff' } },
        { type: 'button', attrs: { text: 'Own', backgroundColor: '#16a34a', textColor: '#ffffff' } },
        {
          type: 'footer',
          attrs: { ...brandAttrs(BUILT_IN, 'footer', checkBranding(before).brand), email: 'me@own.test' },
        },
        { type: 'signature' },
      ],
    };
    const after = {
      ...BRAND,
      brandColor: '#2563eb',
      logo: { light: 'https://cdn.acme.test/v2.png', dark: null },
    };
    const next = applyBranding(doc, after, before);
    assert.equal(next.content![0]!.attrs!.src, 'https://cdn.acme.test/v2.png');
    assert.equal(next.content![1]!.attrs!.backgroundColor, '#2563eb');
    assert.equal(next.content![2]!.attrs!.backgroundColor, '#16a34a', 'a button in its own colour stays');
    assert.equal(next.content![3]!.attrs!.email, 'me@own.test', 'an edited footer field stays');
    assert.equal(next.content![3]!.attrs!.unsubscribeText, 'Stop these emails');
    assert.equal(next.content![4]!.attrs!.name, 'Ada Park', 'a signature still at its defaults follows');
  });
});
