/**
 * Keeps the served zone in step with the database: reloads when keys appear, are revoked or
 * vanish (a domain deletion cascades, possibly in another process), raises the SOA serial when
 * the content changed (compare-and-set in the database, so every process agrees on it), and
 * sends NOTIFY to the secondaries when the serial moved (RFC 1996).
 *
 * Change detection is a cheap aggregate query (`DkimKeyStore.fingerprint`) every `pollMs`,
 * plus nudges from this process (a key generated, a domain deleted) for immediacy; the full
 * key list is read only when the fingerprint moved.
 */
import { createHash } from 'node:crypto';
import type { HostPort } from '../config.js';
import type { DkimKeyStore } from '../store/dkim-key-store.js';
import { sendNotify } from './notify.js';
import { DkimZone, type ZoneContent } from './zone.js';

export interface ZonePublisherOptions {
  keys: DkimKeyStore;
  zone: Omit<ZoneContent, 'serial' | 'keys'>;
  /** Secondaries to NOTIFY when the serial moves. */
  secondaries: HostPort[];
  /** Fingerprint poll interval, ms (default 1000). */
  pollMs?: number;
  /** Shortest time between two reloads, so a burst of new keys costs a few reloads, not one each. */
  minReloadGapMs?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
  /** After each NOTIFY round: the serial and the secondaries that acknowledged. */
  onNotified?: (serial: number, acked: HostPort[]) => void;
}

export class ZonePublisher {
  private zone: DkimZone;
  private fingerprint: string | undefined;
  private reloading: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly notifying = new Set<Promise<void>>();
  private lastReload = 0;

  constructor(private readonly options: ZonePublisherOptions) {
    this.zone = new DkimZone({ ...options.zone, serial: 0, keys: [] });
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

  /** Reload now if the keys changed; resolves when the new zone is served (NOTIFY goes on in the background). */
  async reload(): Promise<void> {
    this.lastReload = Date.now();
    const fingerprint = await this.options.keys.fingerprint();
    if (fingerprint === this.fingerprint) return;
    const keys = await this.options.keys.publishedKeys();
    const digest = createHash('sha256');
    for (const key of keys) digest.update(`${key.token} ${key.publicKey ?? '-'}\n`);
    const now = (this.options.now ?? Date.now)();
    const serial = await this.options.keys.serialFor(this.zone.origin, digest.digest('hex'), now);
    const previous = this.zone.serial;
    this.zone = new DkimZone({ ...this.options.zone, serial, keys });
    this.fingerprint = fingerprint;
    if (this.zone.serial !== previous && this.options.secondaries.length > 0) this.notify(this.zone);
  }

  /** Stop polling and wait for NOTIFY rounds in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.reloading;
    await Promise.all(this.notifying);
  }

  private notify(zone: DkimZone): void {
    const round = sendNotify(zone, this.options.secondaries, { timeoutMs: 500, tries: 4 }).then((acked) =>
      this.options.onNotified?.(zone.serial, acked),
    );
    this.notifying.add(round);
    round.finally(() => this.notifying.delete(round));
  }
}
