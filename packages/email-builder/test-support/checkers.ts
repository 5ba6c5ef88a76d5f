// The outside checkers every rendered email must pass: html-validate (rules tuned for email)
// and the caniemail data (via @jsx-email/doiuse-email) for Gmail, Outlook and Apple Mail.
import { doIUseEmail } from '@jsx-email/doiuse-email';
import { HtmlValidate } from 'html-validate';

const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: {
    // Email needs inline styles: Gmail drops <style> in some of its apps.
    'no-inline-style': 'off',
    // Conditional comments are how Outlook for Windows gets its ghost tables and VML.
    'no-conditional-comment': 'off',
    // width/align/bgcolor/cellpadding/cellspacing/border are Outlook's layout language.
    'no-deprecated-attr': 'off',
    // <tbody> adds bytes for no client; parsers infer it.
    'prefer-tbody': 'off',
    // role="article" on a div: Gmail and Outlook.com strip or rename <article>.
    'prefer-native-element': ['error', { exclude: ['article'] }],
  },
});

/**
 * Every feature caniemail reports unsupported somewhere among the checked clients, with the
 * fallback that covers it. A new unsupported feature without an entry fails the test.
 */
export const FALLBACKS: Record<string, string> = {
  '@media':
    'layout works without it: hybrid columns wrap by max-width; Outlook for Windows gets MSO ghost tables; dark mode is an enhancement',
  'Type selector': 'head resets only; every visual style is inline',
  'Attribute selector': 'a[x-apple-data-detectors] targets Apple Mail only',
  '<body> element': 'the body colour, lang and dir are repeated on the role="article" wrapper div',
  'role attribute': 'ignored where unsupported; tables still lay out',
  'aria-label attribute': 'ignored where unsupported',
  'target attribute': 'webmail opens links in a new tab by itself',
  'border-radius': 'square corners in Outlook for Windows; buttons there are VML roundrects',
  'word-break':
    'Windows Mail keeps a long unbroken string on one line (the email grows wider there, nothing is cut off); every other client breaks it',
  overflow: 'only clips rounded corners, which those clients do not draw anyway',
  opacity: 'the preheader is also display:none, max-height:0 and mso-hide:all',
  'display:none': 'hidden parts also have max-height:0;overflow:hidden and mso-hide:all',
};
const CLIENTS = [
  'gmail.*',
  'outlook.windows',
  'outlook.windows-mail',
  'outlook.macos',
  'outlook.ios',
  'outlook.android',
  'apple-mail.*',
];

/** html-validate's problems, as `rule: message` lines. */
export async function validate(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`));
}

/** Features caniemail reports unsupported that have no named fallback in {@link FALLBACKS}. */
export function unsupported(html: string): string[] {
  const result = doIUseEmail(html, { emailClients: CLIENTS });
  const features = new Set<string>();
  for (const error of 'errors' in result ? result.errors : []) {
    const feature = /^`(.+?)` is not supported by/.exec(error)?.[1];
    if (feature && !(feature in FALLBACKS)) features.add(error);
  }
  return [...features];
}
