/**
 * The key records of the provider zone, by token: changed in place as keys are stored, revoked
 * and deleted, so a change costs one entry, not a rebuild of millions.
 *
 * It keeps a digest of its whole content as it changes: the XOR of a SHA-256 per record. XOR
 * does not depend on the order of the changes, so two processes holding the same keys agree on
 * it, whatever order they learnt them in; the SOA serial is raised when it moves.
 */
import { createHash } from 'node:crypto';
import type { PublishedKey } from '../store/dkim-key-store.js';

export class ZoneKeys {
  /** Lowercase token → the public key, or `null` for a revoked key (an empty `p=`). */
  private readonly keys = new Map<string, string | null>();
  private readonly sum = Buffer.alloc(32);

  static of(keys: Iterable<PublishedKey>): ZoneKeys {
    const table = new ZoneKeys();
    for (const key of keys) table.set(key);
    return table;
  }

  get size(): number {
    return this.keys.size;
  }

  /** The key published at `token` (`null`: revoked), or `undefined` when there is none. */
  get(token: string): string | null | undefined {
    return this.keys.get(token);
  }

  /** Publish `key` (or its revocation); returns whether anything changed. */
  set(key: PublishedKey): boolean {
    const token = key.token.toLowerCase();
    const before = this.keys.get(token);
    if (before === key.publicKey) return false;
    if (before !== undefined) this.toggle(token, before);
    this.keys.set(token, key.publicKey);
    this.toggle(token, key.publicKey);
    return true;
  }

  /** Stop publishing `token`; returns whether it was published. */
  delete(token: string): boolean {
    const lower = token.toLowerCase();
    const before = this.keys.get(lower);
    if (before === undefined) return false;
    this.keys.delete(lower);
    this.toggle(lower, before);
    return true;
  }

  /** The digest of the content (hex). */
  digest(): string {
    return this.sum.toString('hex');
  }

  /** Every token, sorted (the order of a zone transfer). */
  tokens(): string[] {
    return [...this.keys.keys()].sort();
  }

  /** Adds a record to the digest, or takes it out: XOR is its own inverse. */
  private toggle(token: string, publicKey: string | null): void {
    const hash = createHash('sha256')
      .update(`${token} ${publicKey ?? '-'}`)
      .digest();
    for (let i = 0; i < 32; i++) this.sum[i]! ^= hash[i]!;
  }
}
