/**
 * DNS cookies (RFC 7873) with interoperable server cookies (RFC 9018). A client puts an 8-byte
 * client cookie in its queries; we answer with it and a server cookie made from it, the
 * client's address and a secret. A client that sends that server cookie back proves it got our
 * earlier answer at its address, which an off-path forger of source addresses cannot.
 *
 * Server cookie (RFC 9018 §4.2), 16 bytes: version 1, three reserved bytes (0), a 32-bit
 * timestamp (Unix seconds, serial-number arithmetic), and 8 bytes of
 * SipHash-2-4(client cookie | version | reserved | timestamp | client address) under a 16-byte
 * secret (§4.4). A received one is valid for an hour after its timestamp and up to five minutes
 * before it (§4.3). Every answer carries a fresh one.
 *
 * The secret must be the same in every process and thread that answers for the zone (RFC 7873
 * §6; RFC 9018 §5 for a server set), or a resolver that asks two of them in turn is told its
 * cookie is wrong each time: {@link cookieSecret} derives it from `SECRET_KEY`, which they share.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { writeAddressBytes } from './client-address.js';
import { SipHash24 } from './siphash.js';

/** The COOKIE EDNS option's code (RFC 7873 §8). */
export const COOKIE_OPTION = 10;
/** A client cookie is exactly 8 bytes (RFC 7873 §4.1). */
export const CLIENT_COOKIE_BYTES = 8;
/** The server cookies we make (RFC 9018 §4.2). */
export const SERVER_COOKIE_BYTES = 16;
/** Bytes of a cookie secret: SipHash-2-4's key. */
export const COOKIE_SECRET_BYTES = 16;

const VERSION = 1;
/** A server cookie older than this is no longer valid (RFC 9018 §4.3). */
const LIFETIME_S = 3600;
/** Nor one stamped more than this in the future: other servers' clocks may run ahead (§4.3). */
const CLOCK_SKEW_S = 300;

/** A well-formed COOKIE option: the client cookie and, when the client sent one, a server cookie. */
export interface Cookie {
  client: Buffer;
  server: Buffer | undefined;
}

/**
 * Read a COOKIE option's data. RFC 7873 §5.2.2: a client cookie alone (8 bytes) or followed by
 * a server cookie of 8 to 32 bytes; any other length is `'malformed'`, answered FORMERR.
 */
export function parseCookie(data: Buffer): Cookie | 'malformed' {
  if (data.length === CLIENT_COOKIE_BYTES) return { client: data, server: undefined };
  if (data.length < 16 || data.length > 40) return 'malformed';
  return { client: data.subarray(0, CLIENT_COOKIE_BYTES), server: data.subarray(CLIENT_COOKIE_BYTES) };
}

/** The cookie secret derived from the service's `SECRET_KEY` (HKDF-SHA256; never the key itself). */
export function cookieSecret(secretKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'dns-cookie v1', COOKIE_SECRET_BYTES));
}

/** Who asked, for DNS cookies: the server's cookie maker and the client's address, which a server cookie is bound to. */
export interface CookieClient {
  maker: ServerCookies;
  address: string;
}

/** Makes and checks server cookies under one secret. */
export class ServerCookies {
  private readonly siphash: SipHash24;
  /** The hash's input: client cookie, version, reserved, timestamp, address (up to 16 bytes). */
  private readonly input = Buffer.alloc(CLIENT_COOKIE_BYTES + 8 + 16);

  /**
   * @param secret 16 bytes shared by every server of the zone; by default a random one, which
   *   suits one responder alone.
   * @param now the clock, in milliseconds.
   */
  constructor(
    secret: Uint8Array = randomBytes(COOKIE_SECRET_BYTES),
    private readonly now: () => number = Date.now,
  ) {
    if (secret.length !== COOKIE_SECRET_BYTES)
      throw new RangeError(`a DNS cookie secret is ${COOKIE_SECRET_BYTES} bytes, got ${secret.length}`);
    this.siphash = new SipHash24(secret);
  }

  /** A fresh server cookie for the 8-byte client cookie at `client[at]` from `address`. */
  make(client: Uint8Array, address: string): Buffer {
    const out = Buffer.alloc(SERVER_COOKIE_BYTES);
    this.makeInto(client, 0, address, out, 0);
    return out;
  }

  /**
   * Write a fresh server cookie for the client cookie at `client[clientAt]` from `address` at
   * `out[offset]` (the answer cache splices it into a stored answer this way).
   */
  makeInto(client: Uint8Array, clientAt: number, address: string, out: Uint8Array, offset: number): void {
    const timestamp = Math.floor(this.now() / 1000) >>> 0;
    out[offset] = VERSION;
    out[offset + 1] = 0;
    out[offset + 2] = 0;
    out[offset + 3] = 0;
    out[offset + 4] = timestamp >>> 24;
    out[offset + 5] = (timestamp >>> 16) & 0xff;
    out[offset + 6] = (timestamp >>> 8) & 0xff;
    out[offset + 7] = timestamp & 0xff;
    this.hashInto(client, clientAt, out, offset, address, out, offset + 8);
  }

  /**
   * Whether `server` is a cookie made for `client` and `address` under our secret, within its
   * lifetime (RFC 9018 §4.3). Its own version, reserved bytes and timestamp enter the hash, as
   * they were when it was made.
   */
  isValid(client: Uint8Array, server: Uint8Array, address: string): boolean {
    if (server.length !== SERVER_COOKIE_BYTES || server[0] !== VERSION) return false;
    const stamped = ((server[4]! << 24) | (server[5]! << 16) | (server[6]! << 8) | server[7]!) >>> 0;
    // serial-number arithmetic (RFC 1982): the signed 32-bit difference
    const age = ((Math.floor(this.now() / 1000) >>> 0) - stamped) | 0;
    if (age > LIFETIME_S || age < -CLOCK_SKEW_S) return false;
    const expected = Buffer.alloc(8);
    this.hashInto(client, 0, server, 0, address, expected, 0);
    return expected.equals(Buffer.from(server.buffer, server.byteOffset + 8, 8));
  }

  /** SipHash-2-4(client cookie | version | reserved | timestamp | address) into `out[offset]`. */
  private hashInto(
    client: Uint8Array,
    clientAt: number,
    header: Uint8Array,
    headerAt: number,
    address: string,
    out: Uint8Array,
    offset: number,
  ): void {
    const input = this.input;
    // byte by byte: a subarray per query cost more than the hash
    for (let i = 0; i < CLIENT_COOKIE_BYTES; i++) input[i] = client[clientAt + i]!;
    for (let i = 0; i < 8; i++) input[CLIENT_COOKIE_BYTES + i] = header[headerAt + i]!;
    const length = CLIENT_COOKIE_BYTES + 8 + writeAddressBytes(address, input, CLIENT_COOKIE_BYTES + 8);
    this.siphash.hashInto(input, length, out, offset);
  }
}
