/** The two kinds of sending domain the spec names, in their canonical spelling. */
export const DOMAIN_TYPES = ['Transactional', 'Marketing'] as const;
export type DomainType = (typeof DOMAIN_TYPES)[number];

/**
 * Parse a `domainType` case-insensitively ("marketing", "MARKETING") into its canonical
 * spelling; `undefined` when it is neither type.
 */
export function parseDomainType(input: string): DomainType | undefined {
  const wanted = input.trim().toLowerCase();
  return DOMAIN_TYPES.find((t) => t.toLowerCase() === wanted);
}
