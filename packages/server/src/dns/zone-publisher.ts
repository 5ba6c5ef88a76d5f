/**
 * Keeps the served zone in step with the database: follows keys as they appear, are revoked or
 * vanish (a domain deletion, possibly in another process), raises the SOA serial when the
 * content changed (compare-and-set in the database, so every process agrees on it), and sends
 * NOTIFY to the secondaries when the serial moved (RFC 1996).
 *
 * The keys themselves are not held (issue 39): they are read on demand through a bounded
 * {@link KeyCache}, and this publisher only follows the change feed. Every `pollMs` and on
 * nudges from this process (a key generated, a domain deleted), it reads what changed: keys
 * stored or revoked, and tombstones of deleted ones, since a little before the newest change
 * seen ({@link CHANGE_OVERLAP_MS}), so a change committed late, or stamped by a process whose
 * clock is a little behind, is still seen. Each change not seen before drops its token from the
 * cache (a positive or a negative entry alike) and makes a new zone version.
 *
 * The serial follows a digest of the change feed, not of the content, which no process holds
 * any more: the newest change's time and every change within the overlap before it. Two
 * processes that read the same database compute the same digest, whatever they saw before, so
 * the compare-and-set raises the serial once per change, as the content digest did; a change
 * moves the digest, nothing else does, and a start with no change keeps the serial.
 */
import { createHash } from 'node:crypto';
import type { HostPort } from '../config.js';
import type { DkimKeyStore, KeyVersion } from '../store/dkim-key-store.js';
import type { KeyCache } from './key-cache.js';
import { sendNotify } from './notify.js';
import { DkimZone, type ZoneContent } from './zone.js';

/**
 * How far before the newest change seen each poll reads again: longer than a transaction
 * takes to commit and than the clocks of the processes sharing a database may differ.
 */
export const CHANGE_OVERLAP_MS = 30_000;

export interface ZonePublisherOptions {
  keys: DkimKeyStore;
  /** Where the zone's keys are read from on demand; the changes seen invalidate its entries. */
  cache: KeyCache;
  zone: Omit<ZoneContent, 'serial' | 'keys'>;
  /** Secondaries to NOTIFY when the serial moves. */
  secondaries: HostPort[];
  /** The address NOTIFY is sent from: the responder's listen address. */
  notifySource?: string;
  /** Fingerprint poll interval, ms (default 1000). */
  pollMs?: number;
  /** Shortest time between two reloads, so a burst of new keys costs a few reloads, not one each. */
  minReloadGapMs?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
  /** After each NOTIFY round: the serial and the secondaries that acknowledged. */
  onNotified?: (serial: number, acked: HostPort[]) => void;
  /**
   * Where the serial's compare-and-set is done; `keys.serialFor` by default. The responder's
   * thread hands it to the main thread on SQLite, whose one connection stays the only writer.
   */
  serialFor?: DkimKeyStore['serialFor'];
}

export class ZonePublisher {
  private zone: DkimZone;
  /** The version of each key applied from a change still inside the overlap, by token. */
  private readonly applied = new Map<string, KeyVersion>();
  /** Deletions applied still inside the overlap: `token@deleted_at` → when. */
  private readonly deletions = new Map<string, number>();
  /** The newest change seen (ms); `undefined` until the first read. */
  private seen: number | undefined;
  /** The digest the served serial was set or found for, and that serial as stored (`serialFor`). */
  private served: { digest: string; serial: number } | undefined;
  private reloading: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly notifying = new Set<Promise<void>>();
  private lastReload = 0;

  constructor(private readonly options: ZonePublisherOptions) {
    this.zone = new DkimZone({ ...options.zone, serial: 0, keys: options.cache });
  }

  /** The zone to answer from now. */
  current(): DkimZone {
    return this.zone;
  }

  /** Read the serial (the newest changes), then poll. No key is read. */
  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => this.nudge(), this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  /** Something changed: reload soon (coalesced). */
  nudge(): void {
    if (this.stopped) return;
    if (this.reloading) {
      this.again = true;
      return;
    }
    this.reloading = (async () => {
      const gap = (this.options.minReloadGapMs ?? 100) - (Date.now() - this.lastReload);
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      await this.reload().catch((error) => this.options.onError?.(error));
    })().finally(() => {
      this.reloading = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
  }

  /** Read what changed; resolves when the new zone is served (NOTIFY goes on in the background). */
  async reload(): Promise<void> {
    this.lastReload = Date.now();
    const first = this.seen === undefined;
    const seen = this.seen ?? (await this.options.keys.latestChange());
    const { changed, digest } = await this.applyChanges(seen);
    if (!changed && !first && (await this.agreesWithDatabase())) return;
    const now = (this.options.now ?? Date.now)();
    const serialFor = this.options.serialFor ?? ((...args) => this.options.keys.serialFor(...args));
    const served = this.withExtra(digest());
    const serial = await serialFor(this.zone.origin, served, now);
    this.served = { digest: served, serial };
    const previous = this.zone.serial;
    // a new version even when the serial stays: caches of the old one's answers go
    this.zone = new DkimZone({ ...this.options.zone, serial, keys: this.options.cache });
    if (this.zone.serial !== previous && this.options.secondaries.length > 0) this.notify(this.zone);
  }

  /**
   * Whether the database holds the serial served, for the digest served. Another process can
   * have moved it without a change this one has to read: its compare-and-set of a digest it made
   * before the last change came after ours (processes polling side by side on a loaded machine),
   * leaving the database with its older digest and a higher serial, and this process, seeing no
   * new change, would otherwise keep its serial while the other moved on. Then the digest served
   * is set again (or, equal, the database's serial is taken): the processes agree within a poll
   * of the last change.
   */
  private async agreesWithDatabase(): Promise<boolean> {
    const state = await this.options.keys.zoneState(this.zone.origin);
    // (the stored counter, not the zone's serial, which wraps at 2^32)
    return state?.digest === this.served?.digest && state?.serial === this.served?.serial;
  }

  /**
   * What the serial follows: the change feed's digest, and the other records' when there are
   * any (so a zone without them keeps the digest, and the serial, it had before they existed).
   */
  private withExtra(digest: string): string {
    const extra = this.options.zone.extraTxt;
    const mx = this.options.zone.extraMx;
    if ((extra === undefined || extra.size === 0) && (mx === undefined || mx.size === 0)) return digest;
    const hash = createHash('sha256');
    const byLabel = <T>(map: ReadonlyMap<string, T> | undefined) =>
      [...(map ?? [])].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [label, texts] of byLabel(extra)) hash.update(`${label} ${texts.join(' ')}\n`);
    // MX lines only when there are any, so a zone without them keeps the digest it had
    for (const [label, records] of byLabel(mx))
      hash.update(`${label} MX ${records.map((r) => `${r.preference} ${r.exchange}`).join(' ')}\n`);
    return `${digest}+${hash.digest('hex')}`;
  }

  /**
   * Reads the changes since `seen` less the overlap, drops every token whose change was not
   * seen before from the cache, and digests the feed: the newest change's time and the
   * changes within the overlap before it, which any process reading the database now reads.
   */
  private async applyChanges(seen: number): Promise<{ changed: boolean; digest: () => string }> {
    const changes = await this.options.keys.changesSince(seen - CHANGE_OVERLAP_MS);
    const latest = Math.max(seen, changes.latest);
    const fresh: string[] = [];
    for (const k of changes.keys) {
      if (this.applied.get(k.token)?.version === k.version) continue;
      fresh.push(k.token);
      this.applied.set(k.token, k);
    }
    for (const { token, deletedAt } of changes.deletions) {
      const key = `${token}@${deletedAt}`;
      if (this.deletions.has(key)) continue;
      fresh.push(token);
      this.deletions.set(key, deletedAt);
    }
    if (fresh.length > 0) this.options.cache.invalidate(fresh);
    this.seen = latest;
    const since = latest - CHANGE_OVERLAP_MS;
    // what is older than the overlap is not read again
    for (const [token, k] of this.applied) if (k.changedAt <= since) this.applied.delete(token);
    for (const [key, at] of this.deletions) if (at <= since) this.deletions.delete(key);
    // digested only when asked (a change, or the first read): the window is read every poll
    const digest = () => {
      const lines: string[] = [];
      for (const k of changes.keys) if (k.changedAt > since) lines.push(`${k.token} ${k.version}`);
      for (const d of changes.deletions) if (d.deletedAt > since) lines.push(`${d.token} -${d.deletedAt}`);
      const hash = createHash('sha256').update(`feed ${latest}\n`);
      for (const line of lines.sort()) hash.update(`${line}\n`);
      return hash.digest('hex');
    };
    return { changed: fresh.length > 0, digest };
  }

  /** Stop polling and wait for NOTIFY rounds in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.reloading;
    await Promise.all(this.notifying);
  }

  private notify(zone: DkimZone): void {
    const round = sendNotify(zone, this.options.secondaries, {
      timeoutMs: 500,
      tries: 4,
      ...(this.options.notifySource !== undefined && { source: this.options.notifySource }),
    }).then((acked) => this.options.onNotified?.(zone.serial, acked));
    this.notifying.add(round);
    round.finally(() => this.notifying.delete(round));
  }
}
