/**
 * The catalogue of hosted-DKIM errors (issue 4). They surface in the library and the CLI, not
 * in the HTTP API, so they live here rather than in `src/errors.ts` (whose codes are the
 * API's OpenAPI enum); the README's "Hosted DKIM" section lists the same codes.
 */
export const DKIM_ERRORS = {
  DKIM_DOMAIN_INVALID: 'The domain name is not valid.',
  DKIM_DOMAIN_NOT_REGISTERED: 'No registration has this domain (for this account, when one is given).',
  DKIM_DOMAIN_AMBIGUOUS: 'Several accounts registered this domain; name the account.',
  DKIM_DOMAIN_NOT_VERIFIED: 'The domain is not verified yet: its DKIM CNAMEs are not (all) found in DNS.',
  DKIM_KEY_NOT_READY: 'The key of the active selector is still being generated; retry in a few seconds.',
  DKIM_NO_ACTIVE_KEY: 'Every selector of the domain has been revoked.',
  DKIM_KEY_UNREADABLE: 'The private key does not decrypt: SECRET_KEY is not the key it was sealed with.',
  DKIM_MESSAGE_INVALID: 'The input is not a message that can be signed (no From header field, bad header).',
  DKIM_SELECTOR_UNKNOWN: 'No DKIM selector has this token.',
} as const;

export type DkimErrorCode = keyof typeof DKIM_ERRORS;

/** A hosted-DKIM failure with a stable code; `message` says what happened to what. */
export class DkimError extends Error {
  constructor(
    readonly code: DkimErrorCode,
    message: string,
  ) {
    super(message);
  }
}
