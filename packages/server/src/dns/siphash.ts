/**
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012), the keyed hash
 * RFC 9018 §4.4 names for DNS server cookies. Node's crypto has no SipHash, and an HMAC would
 * make our cookies unlike those of every other RFC 9018 server (BIND, Knot, Unbound, NSD), so
 * a server set that mixes them could not share a secret.
 *
 * Each 64-bit lane is a pair of 32-bit halves in a `Uint32Array`, which wraps additions modulo
 * 2^32 by itself: no BigInt on the per-query path. Input and output are little-endian, as in the
 * reference implementation.
 */

// v0..v3, each as [high half, low half]
const V0 = 0;
const V1 = 2;
const V2 = 4;
const V3 = 6;

/** A SipHash-2-4 keyed with one 16-byte key. Not re-entrant: one state per instance. */
export class SipHash24 {
  private readonly key: Uint32Array;
  private readonly v = new Uint32Array(8);

  constructor(key: Uint8Array) {
    if (key.length !== 16) throw new RangeError(`a SipHash key is 16 bytes, got ${key.length}`);
    const view = new DataView(key.buffer, key.byteOffset, 16);
    // k0 and k1, each [high, low]
    this.key = Uint32Array.of(
      view.getUint32(4, true),
      view.getUint32(0, true),
      view.getUint32(12, true),
      view.getUint32(8, true),
    );
  }

  /** The 8-byte hash of `data[0, length)`, written at `out[offset]`. */
  hashInto(data: Uint8Array, length: number, out: Uint8Array, offset: number): void {
    const { v, key } = this;
    v[V0] = key[0]! ^ 0x736f6d65;
    v[V0 + 1] = key[1]! ^ 0x70736575;
    v[V1] = key[2]! ^ 0x646f7261;
    v[V1 + 1] = key[3]! ^ 0x6e646f6d;
    v[V2] = key[0]! ^ 0x6c796765;
    v[V2 + 1] = key[1]! ^ 0x6e657261;
    v[V3] = key[2]! ^ 0x74656462;
    v[V3 + 1] = key[3]! ^ 0x79746573;
    const whole = length - (length % 8);
    for (let i = 0; i < whole; i += 8) {
      this.compress(readLe32(data, i + 4), readLe32(data, i));
    }
    // the last block: the remaining bytes, and the length's low byte as its most significant one
    let low = 0;
    let high = (length & 0xff) << 24;
    for (let i = whole; i < length; i++) {
      const shift = ((i - whole) % 4) * 8;
      if (i - whole < 4) low |= data[i]! << shift;
      else high |= data[i]! << shift;
    }
    this.compress(high >>> 0, low >>> 0);
    v[V2 + 1] = v[V2 + 1]! ^ 0xff;
    for (let round = 0; round < 4; round++) this.round();
    writeLe32(out, offset, v[V0 + 1]! ^ v[V1 + 1]! ^ v[V2 + 1]! ^ v[V3 + 1]!);
    writeLe32(out, offset + 4, v[V0]! ^ v[V1]! ^ v[V2]! ^ v[V3]!);
  }

  /** The 8-byte hash of `data`. */
  hash(data: Uint8Array): Buffer {
    const out = Buffer.alloc(8);
    this.hashInto(data, data.length, out, 0);
    return out;
  }

  /** One message block m = high:low, with two rounds (the "2" of SipHash-2-4). */
  private compress(high: number, low: number): void {
    const v = this.v;
    v[V3] = v[V3]! ^ high;
    v[V3 + 1] = v[V3 + 1]! ^ low;
    this.round();
    this.round();
    v[V0] = v[V0]! ^ high;
    v[V0 + 1] = v[V0 + 1]! ^ low;
  }

  private round(): void {
    add(this.v, V0, V1);
    rotl(this.v, V1, 13);
    xor(this.v, V1, V0);
    swapHalves(this.v, V0);
    add(this.v, V2, V3);
    rotl(this.v, V3, 16);
    xor(this.v, V3, V2);
    add(this.v, V0, V3);
    rotl(this.v, V3, 21);
    xor(this.v, V3, V0);
    add(this.v, V2, V1);
    rotl(this.v, V1, 17);
    xor(this.v, V1, V2);
    swapHalves(this.v, V2);
  }
}

/** v[a] += v[b], modulo 2^64. */
function add(v: Uint32Array, a: number, b: number): void {
  const low = v[a + 1]! + v[b + 1]!;
  v[a] = v[a]! + v[b]! + (low > 0xffffffff ? 1 : 0);
  v[a + 1] = low;
}

/** v[a] ^= v[b]. */
function xor(v: Uint32Array, a: number, b: number): void {
  v[a] = v[a]! ^ v[b]!;
  v[a + 1] = v[a + 1]! ^ v[b + 1]!;
}

/** v[a] rotated left by `bits` (0 < bits < 32). */
function rotl(v: Uint32Array, a: number, bits: number): void {
  const high = v[a]!;
  const low = v[a + 1]!;
  v[a] = (high << bits) | (low >>> (32 - bits));
  v[a + 1] = (low << bits) | (high >>> (32 - bits));
}

/** v[a] rotated left by 32. */
function swapHalves(v: Uint32Array, a: number): void {
  const high = v[a]!;
  v[a] = v[a + 1]!;
  v[a + 1] = high;
}

function readLe32(data: Uint8Array, at: number): number {
  return (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0;
}

function writeLe32(out: Uint8Array, at: number, value: number): void {
  out[at] = value & 0xff;
  out[at + 1] = (value >>> 8) & 0xff;
  out[at + 2] = (value >>> 16) & 0xff;
  out[at + 3] = value >>> 24;
}
