/**
 * The query strings of Domain Connect apply URLs, encoded one way only.
 *
 * The DNS provider verifies the signature over the query string exactly as it arrives (minus
 * `sig` and `key`; Domain Connect spec 2.3, "Digitally Sign Requests"), so the string signed
 * must be the string sent, byte for byte. Every name and value is encoded strictly as
 * RFC 3986 unreserved-or-percent (`encodeURIComponent` plus `!'()*`): a space is `%20`, never
 * the `+` that form decoders and URI decoders read differently.
 */

/** RFC 3986 §2.3: everything but `A–Z a–z 0–9 - . _ ~` is percent-encoded (UTF-8). */
export function encodeComponent(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `name=value&…` in the order given, each side encoded by {@link encodeComponent}. */
export function encodeQuery(params: readonly (readonly [string, string])[]): string {
  return params.map(([name, value]) => `${encodeComponent(name)}=${encodeComponent(value)}`).join('&');
}

/**
 * The signed part of a received query string: its `&`-separated pieces without those starting
 * with `sig=` or `key=`, in the order received and not re-encoded (what DNS providers verify).
 */
export function signedPart(rawQuery: string): string {
  return rawQuery
    .split('&')
    .filter((piece) => !piece.startsWith('sig=') && !piece.startsWith('key='))
    .join('&');
}
