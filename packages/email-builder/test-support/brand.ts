import type { BrandSettings } from '../src/options.js';

/** A complete brand (all six networks) for tests and screenshots; images from the test server's `/assets/`. */
export function demoBrand(origin: string): BrandSettings {
  return {
    logo: { light: `${origin}/assets/logo-light.png`, dark: `${origin}/assets/logo-dark.png` },
    socialMedia: {
      facebook: 'https://facebook.com/lumen',
      instagram: 'https://instagram.com/lumen',
      twitter: 'https://x.com/lumen',
      linkedin: 'https://linkedin.com/company/lumen',
      youtube: 'https://youtube.com/@lumen',
      github: 'https://github.com/lumen',
    },
    brandColor: '#e11d48',
    unsubscribe: {
      text: 'Unsubscribe from these emails',
      link: 'https://lumen.example/unsubscribe?u={{user_id}}',
    },
    contact: {
      email: 'hello@lumen.example',
      phone: '+1 555 0100',
      address: '1 Harbour Street, Portland, OR 97201',
    },
    signature: {
      avatar: `${origin}/assets/avatar.png`,
      name: 'Maya Rivers',
      position: 'Head of Customer Success',
      company: 'Lumen',
    },
  };
}

/** `brand` without the given social networks (set to `null`: "not given"). */
export function withoutNetworks(brand: BrandSettings, ...networks: string[]): BrandSettings {
  return {
    ...brand,
    socialMedia: {
      ...brand.socialMedia,
      ...Object.fromEntries(networks.map((n) => [n, null])),
    } as BrandSettings['socialMedia'],
  };
}
