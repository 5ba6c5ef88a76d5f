/**
 * The branding presets of the playground: none, and two sample brands whose logos and avatars
 * this server serves under `/assets/` (absolute URLs, as an email needs).
 */
import type { BrandSettings } from '@service/email-builder';

/** A preset's id, as stored in the playground's settings. */
export type BrandId = 'none' | 'lumen' | 'fernwood';

/** One choice of the branding picker. */
export interface BrandPreset {
  id: BrandId;
  label: string;
  /** Shown beside the label; `null` for no branding. */
  swatch: string | null;
  settings(origin: string): BrandSettings | null;
}

const asset = (origin: string, file: string) => `${origin}/assets/${file}`;

export const BRAND_PRESETS: readonly BrandPreset[] = [
  { id: 'none', label: 'None', swatch: null, settings: () => null },
  {
    id: 'lumen',
    label: 'Lumen',
    swatch: '#e11d48',
    settings: (origin) => ({
      logo: { light: asset(origin, 'brand-lumen-light.png'), dark: asset(origin, 'brand-lumen-dark.png') },
      socialMedia: {
        facebook: null,
        instagram: 'https://instagram.com/lumen',
        twitter: 'https://x.com/lumen',
        linkedin: 'https://linkedin.com/company/lumen',
        youtube: null,
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
        avatar: asset(origin, 'brand-lumen-avatar.png'),
        name: 'Maya Rivers',
        position: 'Head of Customer Success',
        company: 'Lumen',
      },
    }),
  },
  {
    id: 'fernwood',
    label: 'Fernwood',
    swatch: '#15803d',
    settings: (origin) => ({
      logo: {
        light: asset(origin, 'brand-fernwood-light.png'),
        dark: asset(origin, 'brand-fernwood-dark.png'),
      },
      socialMedia: {
        facebook: 'https://facebook.com/fernwood',
        instagram: 'https://instagram.com/fernwood',
        twitter: null,
        linkedin: null,
        youtube: 'https://youtube.com/@fernwood',
        github: null,
      },
      brandColor: '#15803d',
      unsubscribe: { text: 'Manage your email preferences', link: 'https://fernwood.example/preferences' },
      contact: {
        email: 'care@fernwood.example',
        phone: '+44 20 7946 0000',
        address: '12 Mill Lane, Bristol BS1 4DJ',
      },
      signature: {
        avatar: asset(origin, 'brand-fernwood-avatar.png'),
        name: 'Jonah Okafor',
        position: 'Founder',
        company: 'Fernwood',
      },
    }),
  },
];

/** The preset with this id (the first, no branding, for an unknown id). */
export function brandPreset(id: string): BrandPreset {
  return BRAND_PRESETS.find((b) => b.id === id) ?? BRAND_PRESETS[0]!;
}
