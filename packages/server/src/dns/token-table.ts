/**
 * A map from strings to 32-bit integers that keeps its keys outside the JavaScript heap.
 *
 * It exists for the DKIM zone (`zone-keys.ts`): at a million domains that is 3M tokens, and in a
 * `Map<string, number>` they kept the heap at 350–590 MB; a full collection then took
 * 100–200 ms when it came, which set the status route's p99. Here the keys are bytes in one
 * Buffer and everything else is typed arrays, none of which the collector has to trace: a zone of
 * 3M keys took 261 MB of heap with a `Map` and under 1 MB with this table, and the longest pause
 * while filling it fell from 98–159 ms to 14–27 ms (docs/decisions.md, issue 19). The price is
 * about 230 MB outside the heap for 3M tokens (arena, index and entries, each at most doubled).
 *
 * The table is open addressing with linear probing over an `Int32Array` of entry numbers, kept
 * at most half full. A deletion shifts the rest of its probe run back instead of leaving a
 * tombstone, so probes stay short however much the table churns. Each entry's key (where it
 * starts in the arena, its length, its hash) and value sit in parallel typed arrays; freed entries
 * are chained through their value. Deleted keys leave their bytes in the arena as garbage until
 * an append finds no room: then the arena is compacted if at least half of it is garbage, else
 * grown.
 *
 * Keys are stored one byte a character (latin1): DKIM tokens are lowercase base32. A key with a
 * character above U+00FF is never one of ours, but a stored token comes from the database and a
 * lookup from any DNS query, so such a key is not refused or altered: it is stored as UTF-16 code
 * units, two bytes a character, and every string comes back exactly as it was given.
 *
 * The hash is not keyed: only our own random tokens are inserted, so nobody outside can choose
 * keys that collide (a lookup of a crafted name walks a short run and inserts nothing).
 */

import { ByteArena, type MoveRun } from './byte-arena.js';

/** An empty bucket of the index, and the end of the chain of free entries. */
const NONE = -1;
const INITIAL_BUCKETS = 2048;
const INITIAL_ENTRIES = 1024;

/**
 * String → int32, like a `Map<string, number>` (set, get, delete, size, keys, values),
 * with the keys, the index and the entries all outside the heap.
 *
 * @example
 * const slots = new TokenTable();
 * slots.set('ks3fhdg7w2rpq4mzbnvx5ya6tle2ocuj', 12);
 * slots.get('ks3fhdg7w2rpq4mzbnvx5ya6tle2ocuj'); // 12
 */
export class TokenTable {
  /** Entry number or {@link NONE}, by hash; a power of two long, at most half full. */
  private index = new Int32Array(INITIAL_BUCKETS).fill(NONE);
  private count = 0;
  /** Per entry: where its key starts in the arena, in bytes. */
  private starts = new Uint32Array(INITIAL_ENTRIES);
  /** Per entry: its key's length in characters (UTF-16 code units, as `string.length`). */
  private lengths = new Uint32Array(INITIAL_ENTRIES);
  /** Per entry: 1 when its key is stored as UTF-16 (two bytes a character), 0 when latin1. */
  private wide = new Uint8Array(INITIAL_ENTRIES);
  /** Per entry: its key's hash, so growing and deleting never read a key again. */
  private hashes = new Int32Array(INITIAL_ENTRIES);
  /** Per entry: its value; for a free entry, the next free entry or {@link NONE}. */
  private entryValues = new Int32Array(INITIAL_ENTRIES);
  /** Entries ever handed out; the ones below this not in the index are on the free chain. */
  private entryCount = 0;
  private freeEntry = NONE;
  /** The keys' bytes, appended; deleted keys leave garbage until a compaction. */
  private readonly arena = new ByteArena();

  /** The number of keys. */
  get size(): number {
    return this.count;
  }

  /** The bytes held outside the heap: the key arena, garbage included, the index and the entries. */
  get byteSize(): number {
    const perEntry = 4 + 4 + 1 + 4 + 4;
    return this.arena.byteSize + this.index.byteLength + this.starts.length * perEntry;
  }

  /** The value of `key`, or `undefined` when it is not in the table. */
  get(key: string): number | undefined {
    const at = this.find(key, hashOf(key));
    return at < 0 ? undefined : this.entryValues[this.index[at]!];
  }

  /**
   * Set `key` to `value`, a 32-bit signed integer.
   *
   * @throws RangeError when `value` is not a 32-bit signed integer: the table would store
   * another number than it was given.
   */
  set(key: string, value: number): void {
    if (value !== (value | 0)) {
      throw new RangeError(`TokenTable values are 32-bit signed integers, got ${value}`);
    }
    const hash = hashOf(key);
    let at = this.find(key, hash);
    if (at >= 0) {
      this.entryValues[this.index[at]!] = value;
      return;
    }
    if ((this.count + 1) * 2 > this.index.length) {
      this.rehash(this.index.length * 2);
      at = this.find(key, hash);
    }
    const entry = this.newEntry();
    this.storeKey(entry, key);
    this.hashes[entry] = hash;
    this.entryValues[entry] = value;
    this.index[~at] = entry;
    this.count++;
  }

  /** Remove `key`; returns whether it was in the table. */
  delete(key: string): boolean {
    let hole = this.find(key, hashOf(key));
    if (hole < 0) return false;
    const entry = this.index[hole]!;
    this.arena.release(this.lengths[entry]! << this.wide[entry]!);
    this.entryValues[entry] = this.freeEntry;
    this.freeEntry = entry;
    // Backward shift (Knuth, TAOCP vol. 3, §6.4, Algorithm R): walk the rest of the probe run and
    // move back into the hole each entry that may sit there, i.e. whose home bucket is not
    // cyclically within (hole, at]: an entry must never end up before its home.
    const mask = this.index.length - 1;
    for (let at = (hole + 1) & mask; ; at = (at + 1) & mask) {
      const next = this.index[at]!;
      if (next === NONE) break;
      const home = this.hashes[next]! & mask;
      if (((at - hole) & mask) <= ((at - home) & mask)) {
        this.index[hole] = next;
        hole = at;
      }
    }
    this.index[hole] = NONE;
    this.count--;
    return true;
  }

  /** Every key, in no particular order; the table must not change during the iteration. */
  *keys(): IterableIterator<string> {
    for (let at = 0; at < this.index.length; at++) {
      const entry = this.index[at]!;
      if (entry !== NONE) yield this.keyOf(entry);
    }
  }

  /** Every value, in the order of {@link keys}; the table must not change during the iteration. */
  *values(): IterableIterator<number> {
    for (let at = 0; at < this.index.length; at++) {
      const entry = this.index[at]!;
      if (entry !== NONE) yield this.entryValues[entry]!;
    }
  }

  /** The bucket holding `key`, or `~bucket` (negative) of the empty bucket that ends its run. */
  private find(key: string, hash: number): number {
    const mask = this.index.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = this.index[at]!;
      if (entry === NONE) return ~at;
      if (this.hashes[entry] === hash && this.holds(entry, key)) return at;
    }
  }

  /**
   * Whether `entry`'s key is `key`, compared unit by unit. A wide key holds a character above
   * U+00FF and a latin1 byte never equals one, so a key stored in one width never matches a
   * string that would be stored in the other.
   */
  private holds(entry: number, key: string): boolean {
    const length = key.length;
    if (this.lengths[entry] !== length) return false;
    const arena = this.arena.bytes;
    const start = this.starts[entry]!;
    if (this.wide[entry] === 1) {
      for (let i = 0; i < length; i++) {
        if (arena.readUInt16LE(start + 2 * i) !== key.charCodeAt(i)) return false;
      }
    } else {
      for (let i = 0; i < length; i++) if (arena[start + i] !== key.charCodeAt(i)) return false;
    }
    return true;
  }

  private keyOf(entry: number): string {
    const start = this.starts[entry]!;
    const wide = this.wide[entry]!;
    const end = start + (this.lengths[entry]! << wide);
    return this.arena.bytes.toString(wide === 1 ? 'utf16le' : 'latin1', start, end);
  }

  /** Appends `key`'s bytes to the arena for `entry`, which is not in the index yet. */
  private storeKey(entry: number, key: string): void {
    const wide = isLatin1(key) ? 0 : 1;
    const bytes = key.length << wide;
    const at = this.arena.allocate(bytes, (move) => this.moveKeys(move));
    this.arena.bytes.write(key, at, bytes, wide === 1 ? 'utf16le' : 'latin1');
    this.starts[entry] = at;
    this.lengths[entry] = key.length;
    this.wide[entry] = wide;
  }

  private newEntry(): number {
    if (this.freeEntry !== NONE) {
      const entry = this.freeEntry;
      this.freeEntry = this.entryValues[entry]!;
      return entry;
    }
    if (this.entryCount === this.starts.length) {
      this.starts = doubled(this.starts);
      this.lengths = doubled(this.lengths);
      this.wide = doubled(this.wide);
      this.hashes = doubled(this.hashes);
      this.entryValues = doubled(this.entryValues);
    }
    return this.entryCount++;
  }

  /** A new index of `buckets` buckets, filled from the stored hashes. */
  private rehash(buckets: number): void {
    const old = this.index;
    const index = new Int32Array(buckets).fill(NONE);
    const mask = buckets - 1;
    for (let i = 0; i < old.length; i++) {
      const entry = old[i]!;
      if (entry === NONE) continue;
      let at = this.hashes[entry]! & mask;
      while (index[at] !== NONE) at = (at + 1) & mask;
      index[at] = entry;
    }
    this.index = index;
  }

  /**
   * Moves every key in the index for a compaction of the arena; the entry being stored is not
   * in the index yet.
   */
  private moveKeys(move: MoveRun): void {
    for (let at = 0; at < this.index.length; at++) {
      const entry = this.index[at]!;
      if (entry === NONE) continue;
      this.starts[entry] = move(this.starts[entry]!, this.lengths[entry]! << this.wide[entry]!);
    }
  }
}

/**
 * FNV-1a over the UTF-16 code units, then MurmurHash3's 32-bit finaliser: FNV's low bits, which
 * pick the bucket, depend only on the low bits of what came before; the finaliser mixes the high
 * bits down.
 */
function hashOf(key: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

function isLatin1(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0xff) return false;
  return true;
}

/** A typed array twice as long, holding `array` at its start. */
export function doubled<T extends Uint8Array | Int32Array | Uint32Array>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array);
  return next;
}
