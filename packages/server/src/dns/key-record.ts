/**
 * The text of a DKIM key record (RFC 6376 §3.6.1) and its split into DNS character-strings.
 * Pure. It lives with the zone that serves it; the signer and the checks read it from here.
 */

/**
 * `v=DKIM1; k=rsa; p=<base64>`; a revoked key (`null`) publishes an empty `p=`, which RFC 6376
 * §3.6.1 defines as "this public key has been revoked", so verifiers fail its signatures
 * instead of treating the selector as unknown.
 */
export function dkimKeyRecord(publicKey: string | null): string {
  return `v=DKIM1; k=rsa; p=${publicKey ?? ''}`;
}

/**
 * Cut a TXT value into character-strings of at most 255 bytes (RFC 1035 §3.3.14; RFC 6376
 * §3.6.2.2: a verifier concatenates them without adding spaces). DKIM records are ASCII, so
 * no cut can fall inside a character.
 */
export function txtStrings(text: string, max = 255): string[] {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length !== text.length) throw new RangeError('a DKIM key record is ASCII');
  const strings: string[] = [];
  for (let start = 0; start < text.length || strings.length === 0; start += max) {
    strings.push(text.slice(start, start + max));
  }
  return strings;
}
