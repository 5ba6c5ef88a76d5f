/**
 * Keeps the served zone in step with the database: follows keys as they appear, are revoked or
 * vanish (a domain deletion, possibly in another process), raises the SOA serial when the
 * content changed (compare-and-set in the database, so every process agrees on it), and sends
 * NOTIFY to the secondaries when the serial moved (RFC 1996).
 *
 * The keys are read in full once, page by page, at start. After that, every `pollMs` and on
 * nudges from this process (a key generated, a domain deleted), only what changed is read:
 * keys stored or revoked, and tombstones of deleted ones, since a little before the newest
 * change seen ({@link CHANGE_OVERLAP_MS}), so a change committed late, or stamped by a process
 * whose clock is a little behind, is still seen. Applying a change twice does nothing.
 */
import { createHash } from 'node:crypto';
import type { HostPort } from '../config.js';
import type { DkimKeyStore, KeyVersion } from '../store/dkim-key-store.js';
import { sendNotify } from './notify.js';
import { DkimZone, type ZoneContent } from './zone.js';
import { ZoneKeys } from './zone-keys.js';

/**
 * How far before the newest change seen each poll reads again: longer than a transaction
 * takes to commit and than the clocks of the processes sharing a database may differ.
 */
export const CHANGE_OVERLAP_MS = 30_000;
/** Keys read per query of the full load at start. */
const PAGE = 10_000;

export interface ZonePublisherOptions {
  keys: DkimKeyStore;
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
  private readonly keys = new ZoneKeys();
  /** The version of each key applied from a change still inside the overlap, by token. */
  private readonly applied = new Map<string, KeyVersion>();
  /** The newest change seen (ms); `undefined` until the full load. */
  private seen: number | undefined;
  private reloading: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly notifying = new Set<Promise<void>>();
  private lastReload = 0;

  constructor(private readonly options: ZonePublisherOptions) {
    this.zone = new DkimZone({ ...options.zone, serial: 0, keys: this.keys });
  }

  /** The zone to answer from now. */
  current(): DkimZone {
    return this.zone;
  }

  /** Load the zone, then poll. Resolves once the first version is loaded. */
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

  /** Read what changed (everything, the first time); resolves when the new zone is served (NOTIFY goes on in the background). */
  async reload(): Promise<void> {
    this.lastReload = Date.now();
    const first = this.seen === undefined;
    const changed = first ? await this.loadAll() : await this.applyChanges(this.seen!);
    if (!changed && !first) return;
    const now = (this.options.now ?? Date.now)();
    const serialFor = this.options.serialFor ?? ((...args) => this.options.keys.serialFor(...args));
    const serial = await serialFor(this.zone.origin, this.digest(), now);
    const previous = this.zone.serial;
    // a new version even when the serial stays (the content went back): caches of the old one go
    this.zone = new DkimZone({ ...this.options.zone, serial, keys: this.keys });
    if (this.zone.serial !== previous && this.options.secondaries.length > 0) this.notify(this.zone);
  }

  /**
   * What the serial follows: the keys' digest, and the other records' when there are any (so
   * a zone without them keeps the digest, and the serial, it had before they existed).
   */
  private digest(): string {
    const extra = this.options.zone.extraTxt;
    const mx = this.options.zone.extraMx;
    if ((extra === undefined || extra.size === 0) && (mx === undefined || mx.size === 0))
      return this.keys.digest();
    const hash = createHash('sha256');
    const byLabel = <T>(map: ReadonlyMap<string, T> | undefined) =>
      [...(map ?? [])].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [label, texts] of byLabel(extra)) hash.update(`${label} ${texts.join(' ')}\n`);
    // MX lines only when there are any, so a zone without them keeps the digest it had
    for (const [label, records] of byLabel(mx))
      hash.update(`${label} MX ${records.map((r) => `${r.preference} ${r.exchange}`).join(' ')}\n`);
    return `${this.keys.digest()}+${hash.digest('hex')}`;
  }

  /** Every key, page by page; changes made meanwhile are read by the next poll. */
  private async loadAll(): Promise<boolean> {
    const started = Date.now();
    for (let after = ''; ; ) {
      const page = await this.options.keys.publishedPage(after, PAGE);
      for (const key of page) this.keys.set(key);
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.token;
    }
    this.seen = started;
    return true;
  }

  private async applyChanges(seen: number): Promise<boolean> {
    const { keys } = this.options;
    const changes = await keys.changesSince(seen - CHANGE_OVERLAP_MS);
    // The overlap reads the same changes again at every poll: only versions not applied yet
    // are fetched whole (a key's text is 400 bytes; re-reading the last 30 s of keys at every
    // nudge made enough garbage to set the registration p99 while keys were being made).
    const fresh = changes.keys.filter((k) => this.applied.get(k.token)?.version !== k.version);
    let changed = false;
    if (fresh.length > 0) {
      for (const key of await keys.publishedKeys(fresh.map((k) => k.token)))
        changed = this.keys.set(key) || changed;
      // A key changed again since its version was read is read again at the next poll.
      for (const k of fresh) this.applied.set(k.token, k);
    }
    for (const token of changes.deleted) changed = this.keys.delete(token) || changed;
    this.seen = Math.max(seen, changes.latest);
    // versions older than the overlap are not read again
    for (const [token, k] of this.applied)
      if (k.changedAt <= this.seen - CHANGE_OVERLAP_MS) this.applied.delete(token);
    return changed;
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
