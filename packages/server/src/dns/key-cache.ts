/**
 * The provider zone's key records, read from the database on demand and kept in a bounded
 * cache (issue 39): memory is set by `DNS_KEY_CACHE_SIZE`, not by the number of domains, and a
 * start waits for no zone. Before it, every process loaded every key at start: 1.6 GB and
 * 21–27 s at a million domains.
 *
 * - A hit is answered synchronously, as the in-memory zone was; a miss is loaded (misses that
 *   arrive together share one query) and the question is answered when the row is in.
 * - A token with no key is remembered as absent (negative caching) for {@link NEGATIVE_TTL_MS}
 *   at most, so a flood of random names costs one query each per window, not one per query.
 * - The zone publisher invalidates what its change feed reports (a key stored, revoked,
 *   replaced, deleted with its domain, by this process or another): a positive or negative
 *   entry is dropped once the change is known, and a load that was under way when a change
 *   arrived is read again rather than stored, so an answer read before the change is never
 *   cached after it.
 * - A load that fails or takes longer than {@link LOAD_TIMEOUT_MS} (the database stopped)
 *   reports failure: the responder answers SERVFAIL, never NXDOMAIN, for what it does not hold,
 *   and keeps answering what it holds. Past {@link MAX_LOADING} tokens loading at once (a
 *   flood of random names), a miss fails at once instead of queueing.
 *
 * Least recently used entries go first: a `Map` keeps insertion order, and a hit moves its
 * entry to the end.
 *
 * Beside each entry the responder keeps the answers it made from it (`answer-template.ts`), so
 * a busy name is answered without being read or encoded again; they go with the entry, on a
 * change, an eviction or an absence's end, so no answer outlives the key it was made from.
 */
import type { DkimKeyStore, PublishedKey } from '../store/dkim-key-store.js';
import type { AnswerTemplate } from './answer-template.js';

/** What {@link KeyCache.get} returns for a token it does not hold: load it first. */
export const NOT_CACHED: unique symbol = Symbol('not cached');

/**
 * Default most entries held (`DNS_KEY_CACHE_SIZE`): about 100 MB of RSS with keys of RSA-2048
 * and their ready answers (about 1 KB each, measured; docs/decisions.md).
 */
export const DEFAULT_KEY_CACHE_SIZE = 100_000;
/**
 * Longest a token is remembered as absent. Changes invalidate it at once; this bounds how long
 * a change the feed missed could hide a new key (the feed's own overlap is 30 s).
 */
export const NEGATIVE_TTL_MS = 30_000;
/** A load that has not answered by then is a failure: resolvers retry in 1–2 s anyway. */
export const LOAD_TIMEOUT_MS = 1_000;
/** Tokens per query of a load. */
const LOAD_BATCH = 500;
/**
 * Most tokens being loaded at once. A flood of random names (each a miss) beyond it is
 * SERVFAIL at once rather than a queue of queries without end; resolvers retry.
 */
export const MAX_LOADING = 10_000;
/** Loads read again when a change arrived while they ran, before giving up on the token. */
const LOAD_TRIES = 3;

/** An entry: the key text, `null` for a revoked key, or when a token known absent stops being so (ms). */
type Entry = string | null | number;

/**
 * One token's entry as held, with the answers made from it. A hit follows as few pointers as
 * it can: at 100,000 random names each object reached is a likely cache miss (about 0.1 µs
 * here), so whether the entry is an absence is a field of its own (docs/decisions.md, issue 39).
 */
export class HeldKey {
  /** Ready answers made from this entry (`answer-template.ts`), a list, dropped with it. */
  answers: AnswerTemplate | undefined = undefined;
  /** Whether `entry` is an absence's end, asked without reading `entry` itself. */
  readonly absent: boolean;

  constructor(readonly entry: Entry) {
    this.absent = typeof entry === 'number';
  }
}

export interface KeyCacheOptions {
  keys: Pick<DkimKeyStore, 'publishedKeys' | 'publishedPage'>;
  /** Most entries held, positive and negative together. */
  maxEntries?: number;
  negativeTtlMs?: number;
  timeoutMs?: number;
  /** Keys read per query of a zone transfer ({@link KeyCache.pages}). */
  pageSize?: number;
  now?: () => number;
}

export class KeyCache {
  private readonly entries = new Map<string, HeldKey>();
  private readonly loading = new Map<string, Promise<boolean>>();
  /** Tokens waiting for the next load query, with who waits. */
  private queued = new Map<string, { resolve: (loaded: boolean) => void }[]>();
  private flushScheduled = false;
  /** Raised by every invalidation: a load that saw it move stores nothing. */
  private epoch = 0;
  private readonly maxEntries: number;
  private readonly negativeTtlMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: KeyCacheOptions) {
    this.maxEntries = options.maxEntries ?? DEFAULT_KEY_CACHE_SIZE;
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1)
      throw new RangeError(`a key cache holds at least one entry, not ${this.maxEntries}`);
    this.negativeTtlMs = options.negativeTtlMs ?? NEGATIVE_TTL_MS;
    this.timeoutMs = options.timeoutMs ?? LOAD_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The key published at `token` (any case): its text, `null` when revoked, `undefined` when
   * it has none, or {@link NOT_CACHED} when that is not known here.
   */
  get(token: string): string | null | undefined | typeof NOT_CACHED {
    const held = this.held(token.toLowerCase());
    if (held === undefined) return NOT_CACHED;
    return typeof held.entry === 'number' ? undefined : held.entry;
  }

  /**
   * The entry held for `token` (lower case), now the most recently used, where answers made
   * from it are kept; `undefined` when none is (or its absence has run out).
   */
  held(token: string): HeldKey | undefined {
    const held = this.entries.get(token);
    if (held === undefined) return undefined;
    if (held.absent) {
      if ((held.entry as number) <= this.now()) {
        this.entries.delete(token);
        return undefined;
      }
      return held;
    }
    // most recently used: to the end
    this.entries.delete(token);
    this.entries.set(token, held);
    return held;
  }

  /**
   * Read `token` from the database into the cache; resolves `true` once it is there (as a key,
   * a revocation or an absence), `false` when the database did not answer in time.
   */
  load(token: string): Promise<boolean> {
    const lower = token.toLowerCase();
    const under = this.loading.get(lower);
    if (under) return under;
    if (this.loading.size >= MAX_LOADING) return Promise.resolve(false);
    const loaded = this.loadTries(lower).finally(() => this.loading.delete(lower));
    this.loading.set(lower, loaded);
    return loaded;
  }

  /** Forget these tokens (a change to each is known): the next question reads them again. */
  invalidate(tokens: Iterable<string>): void {
    this.epoch++;
    for (const token of tokens) this.entries.delete(token.toLowerCase());
  }

  /** Forget everything. */
  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** Every published key in token order, a page at a time, straight from the database (zone transfers). */
  async *pages(pageSize = this.options.pageSize ?? 1_000): AsyncGenerator<PublishedKey[]> {
    for (let after = ''; ; ) {
      const page = await this.options.keys.publishedPage(after, pageSize);
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      after = page[page.length - 1]!.token;
    }
  }

  private async loadTries(token: string): Promise<boolean> {
    for (let tries = 0; tries < LOAD_TRIES; tries++) {
      const epoch = this.epoch;
      const found = await this.enqueue(token);
      if (found === false) return false;
      // stored by the batch unless a change arrived meanwhile; then read again
      if (this.epoch === epoch || this.entries.has(token)) return true;
    }
    return false;
  }

  /** Ask for `token` in the next load query; resolves whether the query answered. */
  private enqueue(token: string): Promise<boolean> {
    return new Promise((resolve) => {
      const waiting = this.queued.get(token);
      if (waiting) waiting.push({ resolve });
      else this.queued.set(token, [{ resolve }]);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // the misses of one burst of datagrams share a query
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const queued = this.queued;
    this.queued = new Map();
    const tokens = [...queued.keys()];
    for (let i = 0; i < tokens.length; i += LOAD_BATCH) {
      const batch = tokens.slice(i, i + LOAD_BATCH);
      void this.query(batch).then((ok) => {
        for (const token of batch) for (const { resolve } of queued.get(token)!) resolve(ok);
      });
    }
  }

  /** One query for `tokens`; stores what it read unless a change arrived meanwhile. */
  private async query(tokens: string[]): Promise<boolean> {
    const epoch = this.epoch;
    let timer: NodeJS.Timeout | undefined;
    try {
      const keys = await Promise.race([
        this.options.keys.publishedKeys(tokens),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the key store did not answer in time')), this.timeoutMs);
        }),
      ]);
      if (this.epoch !== epoch) return true;
      const absentUntil = this.now() + this.negativeTtlMs;
      const byToken = new Map(keys.map((key) => [key.token.toLowerCase(), key.publicKey]));
      for (const token of tokens) this.store(token, byToken.has(token) ? byToken.get(token)! : absentUntil);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private store(token: string, entry: Entry): void {
    this.entries.delete(token);
    this.entries.set(token, new HeldKey(entry));
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
