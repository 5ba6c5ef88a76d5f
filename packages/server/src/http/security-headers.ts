/**
 * Security headers on every response, set once per request from a constant: the JSON API
 * gets a CSP that allows nothing (pages, the docs and image files replace it with their
 * own). The set follows helmet's defaults; helmet itself computed them afresh on every
 * request, which cost 5 % of a status poll.
 *
 * Not set: HSTS (TLS is terminated in front of the service, which should send it; see
 * SECURITY.md) and Cross-Origin-Resource-Policy (image files are embedded cross-origin by
 * email clients and other sites; CORS governs the API).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  // The legacy XSS auditor does more harm than good; modern advice is to turn it off.
  'x-xss-protection': '0',
});
