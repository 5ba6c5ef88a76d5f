/**
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012), the keyed hash
 * RFC 9018 §4.4 names for DNS server cookies. Node's crypto has no SipHash, and an HMAC would
 * make our cookies unlike those of every other RFC 9018 server (BIND, Knot, Unbound, NSD), so
 * a server set that mixes them could not share a secret.
 *
 * Each 64-bit lane is a pair of 32-bit halves in local variables (high `h`, low `l`), one loop
 * holding the round: no BigInt and no allocation on the per-query path. Input and output are
 * little-endian, as in the reference implementation.
 */

/** A SipHash-2-4 keyed with one 16-byte key. */
export class SipHash24 {
  /** k0 high, k0 low, k1 high, k1 low. */
  private readonly key: Uint32Array;

  constructor(key: Uint8Array) {
    if (key.length !== 16) throw new RangeError(`a SipHash key is 16 bytes, got ${key.length}`);
    this.key = Uint32Array.of(readLe32(key, 4), readLe32(key, 0), readLe32(key, 12), readLe32(key, 8));
  }

  /** The 8-byte hash of `data[0, length)`, written at `out[offset]`. */
  hashInto(data: Uint8Array, length: number, out: Uint8Array, offset: number): void {
    const key = this.key;
    let v0h = (key[0]! ^ 0x736f6d65) >>> 0;
    let v0l = (key[1]! ^ 0x70736575) >>> 0;
    let v1h = (key[2]! ^ 0x646f7261) >>> 0;
    let v1l = (key[3]! ^ 0x6e646f6d) >>> 0;
    let v2h = (key[0]! ^ 0x6c796765) >>> 0;
    let v2l = (key[1]! ^ 0x6e657261) >>> 0;
    let v3h = (key[2]! ^ 0x74656462) >>> 0;
    let v3l = (key[3]! ^ 0x79746573) >>> 0;
    // the blocks: every whole 8 bytes, then the rest with the length's low byte on top
    const whole = length - (length % 8);
    const blocks = whole / 8 + 1;
    let block = 0;
    let mh = blockWord(data, length, whole, 0, 4);
    let ml = blockWord(data, length, whole, 0, 0);
    v3h = (v3h ^ mh) >>> 0;
    v3l = (v3l ^ ml) >>> 0;
    // two rounds per block (the "2"), then four to finish (the "4")
    const rounds = 2 * blocks + 4;
    let t = 0;
    for (let round = 0; round < rounds; round++) {
      // v0 += v1; v1 <<<= 13; v1 ^= v0; v0 <<<= 32
      t = (v0l + v1l) >>> 0;
      v0h = (v0h + v1h + (t < v0l ? 1 : 0)) >>> 0;
      v0l = t;
      t = v1h;
      v1h = ((v1h << 13) | (v1l >>> 19)) >>> 0;
      v1l = ((v1l << 13) | (t >>> 19)) >>> 0;
      v1h = (v1h ^ v0h) >>> 0;
      v1l = (v1l ^ v0l) >>> 0;
      t = v0h;
      v0h = v0l;
      v0l = t;
      // v2 += v3; v3 <<<= 16; v3 ^= v2
      t = (v2l + v3l) >>> 0;
      v2h = (v2h + v3h + (t < v2l ? 1 : 0)) >>> 0;
      v2l = t;
      t = v3h;
      v3h = ((v3h << 16) | (v3l >>> 16)) >>> 0;
      v3l = ((v3l << 16) | (t >>> 16)) >>> 0;
      v3h = (v3h ^ v2h) >>> 0;
      v3l = (v3l ^ v2l) >>> 0;
      // v0 += v3; v3 <<<= 21; v3 ^= v0
      t = (v0l + v3l) >>> 0;
      v0h = (v0h + v3h + (t < v0l ? 1 : 0)) >>> 0;
      v0l = t;
      t = v3h;
      v3h = ((v3h << 21) | (v3l >>> 11)) >>> 0;
      v3l = ((v3l << 21) | (t >>> 11)) >>> 0;
      v3h = (v3h ^ v0h) >>> 0;
      v3l = (v3l ^ v0l) >>> 0;
      // v2 += v1; v1 <<<= 17; v1 ^= v2; v2 <<<= 32
      t = (v2l + v1l) >>> 0;
      v2h = (v2h + v1h + (t < v2l ? 1 : 0)) >>> 0;
      v2l = t;
      t = v1h;
      v1h = ((v1h << 17) | (v1l >>> 15)) >>> 0;
      v1l = ((v1l << 17) | (t >>> 15)) >>> 0;
      v1h = (v1h ^ v2h) >>> 0;
      v1l = (v1l ^ v2l) >>> 0;
      t = v2h;
      v2h = v2l;
      v2l = t;
      if (round % 2 === 1 && block < blocks) {
        // the block's two rounds are done
        v0h = (v0h ^ mh) >>> 0;
        v0l = (v0l ^ ml) >>> 0;
        block++;
        if (block < blocks) {
          mh = blockWord(data, length, whole, block, 4);
          ml = blockWord(data, length, whole, block, 0);
          v3h = (v3h ^ mh) >>> 0;
          v3l = (v3l ^ ml) >>> 0;
        } else v2l = (v2l ^ 0xff) >>> 0;
      }
    }
    writeLe32(out, offset, v0l ^ v1l ^ v2l ^ v3l);
    writeLe32(out, offset + 4, v0h ^ v1h ^ v2h ^ v3h);
  }

  /** The 8-byte hash of `data`. */
  hash(data: Uint8Array): Buffer {
    const out = Buffer.alloc(8);
    this.hashInto(data, data.length, out, 0);
    return out;
  }
}

/**
 * The low (`half` 0) or high (4) 32 bits of message block `block`: bytes of `data` while whole
 * blocks last (up to `whole`), then the last block of the remaining bytes with the length's low
 * byte as its most significant one.
 */
function blockWord(data: Uint8Array, length: number, whole: number, block: number, half: 0 | 4): number {
  const at = block * 8 + half;
  if (at < whole) return readLe32(data, at);
  let word = half === 4 ? (length & 0xff) << 24 : 0;
  for (let i = at; i < length && i < at + 4; i++) word |= data[i]! << ((i - at) * 8);
  return word >>> 0;
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
