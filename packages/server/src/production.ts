/**
 * What production mode (`NODE_ENV=production`) refuses to start with: the settings that are
 * fine for trying the service on a laptop and wrong for real domains. Each problem names its
 * variable and what to do; all are reported at once, so one restart fixes them all.
 */
import { isIP } from 'node:net';
import type { Config } from './config.js';

/** Host names that can never be reached from the Internet's resolvers (RFC 2606, RFC 6761, RFC 6762). */
const NOT_PUBLIC = /(^|\.)(localhost|local|test|example|invalid|internal)$/;

/**
 * A key with fewer distinct byte values than this among its 32 was not drawn at random: a
 * random key has about 30, and fewer than 16 happens with probability below 10^-15 (see the
 * test), while an all-zero key, a repeated byte or a short pattern repeated have 1 to 8.
 */
export const MIN_DISTINCT_KEY_BYTES = 16;

/** Whether a 32-byte key looks drawn at random; see `MIN_DISTINCT_KEY_BYTES`. */
export function keyLooksRandom(key: Uint8Array): boolean {
  return new Set(key).size >= MIN_DISTINCT_KEY_BYTES;
}

/** A low-entropy `SECRET_KEY`'s warning, whatever the mode (`undefined` when the key is fine or unset). */
export function weakSecretKeyWarning(config: Config): string | undefined {
  const key = config.dkim.secretKey;
  if (key === undefined || keyLooksRandom(key)) return undefined;
  return `SECRET_KEY has only ${new Set(key).size} distinct byte values among its 32, so it was not drawn at random; set it to 32 random bytes, e.g. SECRET_KEY=$(openssl rand -base64 32)`;
}

/** The problems that stop a production start, one line each; empty when there are none. */
export function productionProblems(config: Config): string[] {
  const problems: string[] = [];
  if (config.dkim.secretKey === undefined) {
    problems.push(
      'SECRET_KEY is unset: DKIM private keys would be sealed with a development key kept beside the database; set SECRET_KEY=$(openssl rand -base64 32) and keep it in your secret store',
    );
  } else {
    const weak = weakSecretKeyWarning(config);
    if (weak) problems.push(weak);
  }
  const host = config.dkimProviderHost;
  if (isIP(host) !== 0 || NOT_PUBLIC.test(host)) {
    problems.push(
      `DKIM_PROVIDER_HOST is "${host}", which no resolver on the Internet can reach, so customers' CNAMEs would point nowhere; set it to a host name you control, e.g. DKIM_PROVIDER_HOST=mail-provider.example.com`,
    );
  }
  if (config.publicUrl === undefined) {
    problems.push(
      "PUBLIC_URL is unset: image URLs would be built from each request's Host header, which a client chooses; set it to the service's public base URL, e.g. PUBLIC_URL=https://api.example.com",
    );
  }
  return problems;
}
