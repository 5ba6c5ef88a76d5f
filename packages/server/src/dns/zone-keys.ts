/**
 * The key records of the provider zone, by token: changed in place as keys are stored, revoked
 * and deleted, so a change costs one entry, not a rebuild of millions.
 *
 * Its records live outside the JavaScript heap. The public keys are text in one buffer: at a
 * million domains the zone holds three million keys (about 1.2 GB of text), and as strings on
 * the heap they made every young-generation collection of the process slower (8–16 ms instead
 * of 3–9 ms each, measured while polling status at 500 requests/s), which set the status route's
 * p99. The token → slot table is a {@link TokenTable}, an open-addressing table over typed
 * arrays with the tokens' bytes in a buffer of their own: as a `Map` its 3M tokens kept the heap
 * at 350–590 MB and a full collection took 100–200 ms.
 *
 * It keeps a digest of its whole content as it changes: the XOR of a SHA-256 per record. XOR
 * does not depend on the order of the changes, so two processes holding the same keys agree on
 * it, whatever order they learnt them in; the SOA serial is raised when it moves.
 */
import { createHash } from 'node:crypto';
import type { PublishedKey } from '../store/dkim-key-store.js';
import { ByteArena, type MoveRun } from './byte-arena.js';
import { doubled, TokenTable } from './token-table.js';

/** The slot of a revoked key: published as an empty `p=`, no bytes stored. */
const REVOKED = -1;
const INITIAL_SLOTS = 1024;

export class ZoneKeys {
  /** Lowercase token → its slot, or {@link REVOKED}; off the heap too (see `token-table.ts`). */
  private readonly slots = new TokenTable();
  /** Where each slot's key text starts in the arena, and its length (latin1 bytes). */
  private starts = new Uint32Array(INITIAL_SLOTS);
  private lengths = new Uint32Array(INITIAL_SLOTS);
  private slotCount = 0;
  private readonly freeSlots: number[] = [];
  /** The keys' text, appended; replaced and deleted keys leave garbage until a compaction. */
  private readonly arena = new ByteArena();
  private readonly sum = Buffer.alloc(32);

  static of(keys: Iterable<PublishedKey>): ZoneKeys {
    const table = new ZoneKeys();
    for (const key of keys) table.set(key);
    return table;
  }

  get size(): number {
    return this.slots.size;
  }

  /** The key published at `token` (`null`: revoked), or `undefined` when there is none. */
  get(token: string): string | null | undefined {
    const slot = this.slots.get(token);
    if (slot === undefined) return undefined;
    return slot === REVOKED ? null : this.text(slot);
  }

  /** Publish `key` (or its revocation); returns whether anything changed. */
  set(key: PublishedKey): boolean {
    const token = key.token.toLowerCase();
    const slot = this.slots.get(token);
    const before = slot === undefined ? undefined : slot === REVOKED ? null : this.text(slot);
    if (before === key.publicKey) return false;
    if (before !== undefined) {
      this.toggle(token, before);
      this.release(slot!);
    }
    this.slots.set(token, key.publicKey === null ? REVOKED : this.store(key.publicKey));
    this.toggle(token, key.publicKey);
    return true;
  }

  /** Stop publishing `token`; returns whether it was published. */
  delete(token: string): boolean {
    const lower = token.toLowerCase();
    const slot = this.slots.get(lower);
    if (slot === undefined) return false;
    this.toggle(lower, slot === REVOKED ? null : this.text(slot));
    this.release(slot);
    this.slots.delete(lower);
    return true;
  }

  /** The digest of the content (hex). */
  digest(): string {
    return this.sum.toString('hex');
  }

  /** Every token, sorted (the order of a zone transfer). */
  tokens(): string[] {
    return [...this.slots.keys()].sort();
  }

  private text(slot: number): string {
    const start = this.starts[slot]!;
    return this.arena.bytes.toString('latin1', start, start + this.lengths[slot]!);
  }

  /** Copies `publicKey` (base64, so latin1 is exact) into the arena; returns its slot. */
  private store(publicKey: string): number {
    const length = Buffer.byteLength(publicKey, 'latin1');
    // Room first: a compaction moves the keys published now, and the new slot is not one yet.
    const at = this.arena.allocate(length, (move) => this.moveKeys(move));
    const slot = this.freeSlots.pop() ?? this.newSlot();
    this.arena.bytes.write(publicKey, at, length, 'latin1');
    this.starts[slot] = at;
    this.lengths[slot] = length;
    return slot;
  }

  private release(slot: number): void {
    if (slot === REVOKED) return;
    this.arena.release(this.lengths[slot]!);
    this.lengths[slot] = 0;
    this.freeSlots.push(slot);
  }

  private newSlot(): number {
    if (this.slotCount === this.starts.length) {
      this.starts = doubled(this.starts);
      this.lengths = doubled(this.lengths);
    }
    return this.slotCount++;
  }

  /** Moves every published key for a compaction of the arena. */
  private moveKeys(move: MoveRun): void {
    for (const slot of this.slots.values()) {
      if (slot === REVOKED) continue;
      this.starts[slot] = move(this.starts[slot]!, this.lengths[slot]!);
    }
  }

  /** Adds a record to the digest, or takes it out: XOR is its own inverse. */
  private toggle(token: string, publicKey: string | null): void {
    const hash = createHash('sha256')
      .update(`${token} ${publicKey ?? '-'}`)
      .digest();
    for (let i = 0; i < 32; i++) this.sum[i]! ^= hash[i]!;
  }
}
