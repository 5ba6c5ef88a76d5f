/**
 * Mixed-script labels (UTS #39 §5.2, "Highly Restrictive"): the test that refuses `аpple.com`
 * (a Cyrillic а before Latin letters), the classic homograph of a brand. A label passes when
 * all its letters share one script, or when they stay within one of the combinations people
 * really write: Latin + Han + Hiragana + Katakana (Japanese), Latin + Han + Bopomofo
 * (Chinese), Latin + Han + Hangul (Korean). Digits, hyphens and combining marks (scripts
 * Common and Inherited) go with any script.
 *
 * What this does not catch: a label written wholly in another script that looks Latin
 * (`раураl`, all Cyrillic). Telling those apart needs UTS #39's confusables data and is a
 * registry's job; mixing, the common attack, is caught here.
 */

/** Scripts by ISO 15924 code with their English names, as JavaScript's `\p{Script_Extensions}` knows them. */
const SCRIPTS: Record<string, string> = {
  Latn: 'Latin',
  Grek: 'Greek',
  Cyrl: 'Cyrillic',
  Armn: 'Armenian',
  Hebr: 'Hebrew',
  Arab: 'Arabic',
  Syrc: 'Syriac',
  Thaa: 'Thaana',
  Nkoo: 'NKo',
  Deva: 'Devanagari',
  Beng: 'Bengali',
  Guru: 'Gurmukhi',
  Gujr: 'Gujarati',
  Orya: 'Oriya',
  Taml: 'Tamil',
  Telu: 'Telugu',
  Knda: 'Kannada',
  Mlym: 'Malayalam',
  Sinh: 'Sinhala',
  Thai: 'Thai',
  Laoo: 'Lao',
  Tibt: 'Tibetan',
  Mymr: 'Myanmar',
  Geor: 'Georgian',
  Hang: 'Hangul',
  Ethi: 'Ethiopic',
  Cher: 'Cherokee',
  Cans: 'Canadian Aboriginal',
  Ogam: 'Ogham',
  Runr: 'Runic',
  Khmr: 'Khmer',
  Mong: 'Mongolian',
  Hira: 'Hiragana',
  Kana: 'Katakana',
  Bopo: 'Bopomofo',
  Hani: 'Han',
  Yiii: 'Yi',
  Tfng: 'Tifinagh',
  Vaii: 'Vai',
  Copt: 'Coptic',
  Glag: 'Glagolitic',
};

const MATCHERS = Object.keys(SCRIPTS).map(
  (code) => [code, new RegExp(`\\p{Script_Extensions=${code}}`, 'u')] as const,
);
const COMMON_OR_INHERITED = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** The combinations of scripts a Highly Restrictive label may mix. */
const ALLOWED_MIXES: ReadonlySet<string>[] = [
  new Set(['Latn', 'Hani', 'Hira', 'Kana']),
  new Set(['Latn', 'Hani', 'Bopo']),
  new Set(['Latn', 'Hani', 'Hang']),
];

/** The scripts one character belongs to (its Script_Extensions among ours); empty for Common and Inherited. */
function scriptsOf(ch: string): string[] {
  const found = MATCHERS.filter(([, pattern]) => pattern.test(ch)).map(([code]) => code);
  if (found.length > 0) return found;
  // A script we do not list is its own: mixed with anything else, it is refused.
  return COMMON_OR_INHERITED.test(ch) ? [] : [`U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`];
}

/**
 * The scripts a label mixes, by name, when it is not Highly Restrictive; `undefined` when it
 * passes. `label` is the Unicode form (decode an A-label first).
 */
export function mixedScripts(label: string): string[] | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  if (/^[\u0000-\u007f]*$/.test(label)) return undefined;
  const perCharacter = [...label].map(scriptsOf).filter((s) => s.length > 0);
  if (perCharacter.length === 0) return undefined;
  // One script in common (a character's extensions may name several: Han marks, kana signs).
  const shared = perCharacter.reduce((common, s) => common.filter((code) => s.includes(code)));
  if (shared.length > 0) return undefined;
  if (ALLOWED_MIXES.some((mix) => perCharacter.every((s) => s.some((code) => mix.has(code)))))
    return undefined;
  const names = new Set(perCharacter.map((s) => SCRIPTS[s[0]!] ?? s[0]!));
  return [...names].sort();
}
