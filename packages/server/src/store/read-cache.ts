/**
 * A small time-bounded read cache for the store's hot reads (API keys, domain state).
 *
 * Writes made through this process invalidate their entries at once; writes made by
 * another process show as soon as its notification drops them (PostgreSQL,
 * `cache-listener.ts`), and after at most `ttlMs` in any case (the CLI on SQLite, a missed
 * notification). Entries are evicted oldest-first past `maxEntries`, so memory stays bounded.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  /** Counts invalidations, so a read that overlapped one does not cache what it found. */
  private invalidations = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Read through the cache: `load` on a miss, and what it found is cached unless an entry was
   * dropped while it ran (its answer may predate the change that dropped it).
   */
  async read(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const invalidationsBefore = this.invalidations;
    const loaded = await load();
    if (loaded !== undefined && invalidationsBefore === this.invalidations) this.set(key, loaded);
    return loaded;
  }

  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.invalidations += 1;
    this.entries.delete(key);
  }

  /** Drops every entry whose value `matches`. */
  deleteWhere(matches: (value: V) => boolean): void {
    this.invalidations += 1;
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.invalidations += 1;
    this.entries.clear();
  }
}
