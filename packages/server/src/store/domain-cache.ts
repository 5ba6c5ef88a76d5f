/**
 * The per-process cache of domain state in front of the database (see `ReadCache`).
 *
 * Every write that changes a domain runs through `writing()`, which drops the domain's
 * entry before the write starts and after it ends, and counts the write; a read caches what
 * it found only if no write began or ended while it ran, so a read that raced a commit never
 * caches the old state.
 */
import type { StoredDomain } from '../domain/model.js';
import { ReadCache } from './read-cache.js';

const key = (accountId: string, name: string) => `${accountId}\u0000${name}`;

export class DomainCache {
  private readonly cache: ReadCache<StoredDomain>;
  private writes = 0;

  constructor(ttlMs: number) {
    this.cache = new ReadCache(ttlMs);
  }

  get(accountId: string, name: string): StoredDomain | undefined {
    return this.cache.get(key(accountId, name));
  }

  /**
   * Read through the cache: names found in it come from it, the rest from `load`, and what
   * `load` returns is cached unless a write overlapped it.
   */
  async read(
    accountId: string,
    names: string[],
    load: (missing: string[]) => Promise<Map<string, StoredDomain>>,
  ): Promise<Map<string, StoredDomain>> {
    const found = new Map<string, StoredDomain>();
    const missing: string[] = [];
    for (const name of names) {
      const cached = this.get(accountId, name);
      if (cached === undefined) missing.push(name);
      else found.set(name, cached);
    }
    if (missing.length === 0) return found;
    const writesBefore = this.writes;
    const loaded = await load(missing);
    const cacheable = writesBefore === this.writes;
    for (const [name, domain] of loaded) {
      if (cacheable) this.cache.set(key(accountId, name), domain);
      found.set(name, domain);
    }
    return found;
  }

  /** Run a write that changes these domains of one account. */
  async writing<T>(accountId: string, names: readonly string[], write: () => Promise<T>): Promise<T> {
    this.forget(accountId, names);
    try {
      return await write();
    } finally {
      this.forget(accountId, names);
    }
  }

  /**
   * Drop these domains of one account, as a write does: also when another process changed
   * them, so a read that overlapped the change does not cache what it found.
   */
  forget(accountId: string, names: readonly string[]): void {
    this.writes += 1;
    for (const name of names) this.cache.delete(key(accountId, name));
  }

  clear(): void {
    this.writes += 1;
    this.cache.clear();
  }
}
