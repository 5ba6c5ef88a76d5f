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

/**
 * Whether a 32-byte key is printable ASCII text (a passphrase someone typed and base64-encoded):
 * each random byte is printable with probability 95/256, all 32 with (95/256)^32 < 2 × 10^-14,
 * while typed text always is. A typed phrase has far less entropy than its 256 bits suggest.
 */
export function keyIsText(key: Uint8Array): boolean {
  return key.every((byte) => byte >= 0x20 && byte <= 0x7e);
}

const RANDOM_KEY_ADVICE = 'set it to 32 random bytes, e.g. SECRET_KEY=$(openssl rand -base64 32)';

/** A low-entropy `SECRET_KEY`'s warning, whatever the mode (`undefined` when the key is fine or unset). */
export function weakSecretKeyWarning(config: Config): string | undefined {
  const key = config.dkim.secretKey;
  if (key === undefined) return undefined;
  if (!keyLooksRandom(key))
    return `SECRET_KEY has only ${new Set(key).size} distinct byte values among its 32, so it was not drawn at random; ${RANDOM_KEY_ADVICE}`;
  if (keyIsText(key))
    return `SECRET_KEY decodes to 32 printable characters, so it is typed text (a passphrase), not random bytes; ${RANDOM_KEY_ADVICE}`;
  return undefined;
}

/**
 * The switches documented as "tests and local development only": each lets a customer's word
 * (a webhook URL, a DNS provider's settings, a recipient domain's MX) point the service at
 * loopback and private addresses, which in production is SSRF into the operator's network.
 */
const DEVELOPMENT_SWITCHES: { variable: string; on: (config: Config) => boolean; reach: string }[] = [
  {
    variable: 'WEBHOOK_ALLOW_PRIVATE_URLS',
    on: (c) => c.webhooks.allowPrivateUrls,
    reach: 'any account’s webhook URL reach internal hosts, over plain http',
  },
  {
    variable: 'DOMAIN_CONNECT_ALLOW_PRIVATE_URLS',
    on: (c) => c.domainConnect.allowPrivateUrls,
    reach: 'a DNS provider’s Domain Connect settings send our requests to internal hosts',
  },
  {
    variable: 'SMTP_ALLOW_PRIVATE_MX',
    on: (c) => c.sending.allowPrivateMx,
    reach: 'a recipient domain’s MX point our SMTP client at internal hosts',
  },
];

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
  } else if (!config.publicUrl.startsWith('https://')) {
    problems.push(
      `PUBLIC_URL is "${config.publicUrl}": unsubscribe links and image URLs in mail would travel in plain http, readable and changeable on the way; set an https URL, e.g. PUBLIC_URL=https://api.example.com`,
    );
  }
  if (config.localDns.listen !== undefined) {
    problems.push(
      'LOCAL_DNS_LISTEN is set: the local DNS answers whatever records a user publishes and makes verification believe it for .test names; it is for local development: unset it',
    );
  }
  for (const s of DEVELOPMENT_SWITCHES) {
    if (s.on(config))
      problems.push(
        `${s.variable}=true would let ${s.reach}; it is for tests and local development: unset it`,
      );
  }
  return problems;
}

/** What a production start logs as a warning and still allows, one line each. */
export function productionWarnings(config: Config): string[] {
  return config.trustProxy
    ? [
        'TRUST_PROXY=true: client addresses (per-address limits, logs) are read from X-Forwarded-For, which any client can write; keep it only behind a proxy of yours that overwrites that header',
      ]
    : [];
}
