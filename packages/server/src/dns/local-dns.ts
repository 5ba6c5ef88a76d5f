/**
 * The development local DNS (issue 40): on this machine, it plays the customer's DNS provider
 * for names under `.test` (RFC 6761 §6.2: never delegated on the Internet, so nothing it says
 * can stand for a real domain), and plays our provider zone beside them, so that a newcomer can
 * watch a domain go `pending → verified` with no public DNS.
 *
 * A user publishes a registration's records here (the very records the API lists) and removes
 * them again; verification asks this server, over the wire, through the same authoritative path
 * as for any zone (`verify/local-routing.ts`). Nothing here marks a domain verified.
 *
 * Each published zone is served as a {@link DkimZone} (SOA and NS at the apex, `ns.<zone>` with
 * the listen address, the records below), with the responder's own answering code and sockets
 * (`answer.ts`, `responder.ts`). The provider zone holds the keys of the DKIM tokens the
 * published CNAMEs point at, read from the key store, so a resolver following a DKIM CNAME finds
 * the key the service signs with. Published zones are kept in `DATA_DIR/local-dns.json`, so
 * they survive a restart; a zone whose records were all removed stays, empty, so that its
 * records read "not found" rather than "no answer". One process: each process has its own.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HostPort } from '../config.js';
import type { PublishedKey } from '../store/dkim-key-store.js';
import { type DnsResponder, startDnsResponder } from './responder.js';
import { DkimZone } from './zone.js';
import { ZoneSet } from './zone-set.js';

/** One record as DNS holds it: a CNAME's target, a TXT record's text (no quotes). */
export interface LocalRecord {
  fqdn: string;
  type: 'CNAME' | 'TXT';
  value: string;
}

export interface LocalDnsOptions {
  listen: HostPort;
  /** When `listen`'s port is taken, listen on a free port instead of failing (the default address). */
  anyFreePort: boolean;
  /** The provider zone, `dkim.<DKIM_PROVIDER_HOST>`. */
  providerOrigin: string;
  /** The keys of these tokens, as the key store publishes them. */
  keys: (tokens: string[]) => Promise<PublishedKey[]>;
  /** Where the published zones are kept between starts; none: in memory only. */
  dataDir?: string;
  /** How often the provider zone's keys are read again while any are published (a rotation). */
  keyRefreshMs?: number;
}

/** The TLD whose names the local DNS serves for customers (RFC 6761 §6.2). */
export const LOCAL_TLD = 'test';
/** Short TTLs: a developer changes records and asks again at once. */
const TTL = 5;
const FILE = 'local-dns.json';

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');
const isAtOrBelow = (name: string, zone: string) => name === zone || name.endsWith(`.${zone}`);

/** Whether a zone may be published locally: a name under `.test` (at least two labels). */
export function isLocalZone(zone: string): boolean {
  const name = normalize(zone);
  return name.endsWith(`.${LOCAL_TLD}`) && name.length > LOCAL_TLD.length + 1;
}

export class LocalDns {
  /** Published records by zone, then by owner name. */
  private readonly zones = new Map<string, Map<string, LocalRecord>>();
  private keys: PublishedKey[] = [];
  private served: ZoneSet;
  private serial = Math.floor(Date.now() / 1000);
  private responder: DnsResponder | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Each key read's number, and the newest one applied: an older read finishing late is dropped. */
  private keyReads = 0;
  private keysApplied = 0;

  constructor(private readonly options: LocalDnsOptions) {
    this.load();
    this.served = this.build();
  }

  /** The address it answers on, once listening. */
  get address(): HostPort | undefined {
    return this.responder?.address;
  }

  /** Start answering; resolves with the address bound. */
  async listen(): Promise<HostPort> {
    const start = (listen: HostPort) =>
      startDnsResponder({
        listen,
        zone: () => this.served,
        transferAllowed: () => false,
        // one developer's machine: no client to limit
        responseRateLimit: false,
      });
    try {
      this.responder = await start(this.options.listen);
    } catch (error) {
      if (!this.options.anyFreePort || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      this.responder = await start({ ...this.options.listen, port: 0 });
    }
    this.served = this.build();
    await this.refreshKeys().catch(() => {});
    this.timer = setInterval(
      () => void this.refreshKeys().catch(() => {}),
      this.options.keyRefreshMs ?? 5_000,
    );
    this.timer.unref();
    return this.responder.address;
  }

  /** Whether `name` lies in a customer zone published here (the provider zone is not one). */
  serves(name: string): boolean {
    const lower = normalize(name);
    for (const zone of this.zones.keys()) if (isAtOrBelow(lower, zone)) return true;
    return false;
  }

  /** The records published in `zone`, by name. */
  records(zone: string): LocalRecord[] {
    return [...(this.zones.get(normalize(zone))?.values() ?? [])];
  }

  /**
   * Publish `records` in `zone` (each replaces what its name held), then read the keys their
   * DKIM CNAMEs point at. Throws a `RangeError` for a zone outside `.test` or a record outside
   * its zone: the caller checks both first.
   */
  async publish(zone: string, records: LocalRecord[]): Promise<void> {
    const origin = normalize(zone);
    if (!isLocalZone(origin)) throw new RangeError(`${zone} is not under .${LOCAL_TLD}`);
    const held = this.zones.get(origin) ?? new Map<string, LocalRecord>();
    for (const record of records) {
      const fqdn = normalize(record.fqdn);
      if (fqdn === origin || !isAtOrBelow(fqdn, origin))
        throw new RangeError(`${fqdn} is not below ${origin}`);
      held.set(fqdn, {
        fqdn,
        type: record.type,
        value: record.type === 'CNAME' ? normalize(record.value) : record.value,
      });
    }
    this.zones.set(origin, held);
    this.changed();
    await this.refreshKeys();
  }

  /** Remove the records at `names` from `zone` (all of them when `names` is absent); returns those removed. */
  remove(zone: string, names?: string[]): LocalRecord[] {
    const held = this.zones.get(normalize(zone));
    if (held === undefined) return [];
    const removed: LocalRecord[] = [];
    for (const name of names?.map(normalize) ?? [...held.keys()]) {
      const record = held.get(name);
      if (record === undefined) continue;
      held.delete(name);
      removed.push(record);
    }
    if (removed.length > 0) this.changed();
    return removed;
  }

  /**
   * Read the keys behind the published DKIM CNAMEs now. A key is made in the background, and
   * the timer sees it up to a few seconds later; whoever is about to ask for a key that already
   * signed mail (the sandbox's capture) calls this first, so the answer holds it.
   */
  async syncKeys(): Promise<void> {
    await this.refreshKeys();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.responder?.close();
    this.responder = undefined;
  }

  /** The DKIM tokens whose keys the provider zone must hold: the first label of each CNAME into it. */
  private tokens(): string[] {
    const suffix = `.${this.options.providerOrigin}`;
    const tokens = new Set<string>();
    for (const held of this.zones.values())
      for (const record of held.values())
        if (record.type === 'CNAME' && record.value.endsWith(suffix)) {
          const label = record.value.slice(0, -suffix.length);
          if (!label.includes('.')) tokens.add(label);
        }
    return [...tokens].sort();
  }

  private async refreshKeys(): Promise<void> {
    const read = ++this.keyReads;
    const tokens = this.tokens();
    const keys = tokens.length === 0 ? [] : await this.options.keys(tokens);
    // reads overlap (the timer, a publish, a capture): one begun earlier holds older keys
    if (read < this.keysApplied) return;
    this.keysApplied = read;
    // keys are made in the background seconds after a registration: look again soon
    if (keys.filter((key) => key.publicKey !== null).length < tokens.length && this.responder)
      setTimeout(() => void this.refreshKeys().catch(() => {}), 500).unref();
    keys.sort((a, b) => (a.token < b.token ? -1 : 1));
    const same =
      keys.length === this.keys.length &&
      keys.every((key, i) => key.token === this.keys[i]?.token && key.publicKey === this.keys[i]?.publicKey);
    if (same) return;
    this.keys = keys;
    this.serial++;
    this.served = this.build();
  }

  private changed(): void {
    this.serial++;
    this.served = this.build();
    this.save();
  }

  /** One version of every zone served, as {@link DkimZone}s. */
  private build(): ZoneSet {
    const host = this.responder?.address.host ?? this.options.listen.host;
    const server = (origin: string) => ({
      serial: this.serial,
      nameServers: [`ns.${origin}`],
      soaContact: `hostmaster.${origin}`,
      ttl: TTL,
      extraAddresses: new Map([['ns', [host]]]),
    });
    const zones = [...this.zones].map(([origin, held]) => {
      const label = (fqdn: string) => fqdn.slice(0, -origin.length - 1);
      const records = [...held.values()];
      return new DkimZone({
        origin,
        ...server(origin),
        keys: [],
        extraCname: new Map(records.filter((r) => r.type === 'CNAME').map((r) => [label(r.fqdn), r.value])),
        extraTxt: new Map(records.filter((r) => r.type === 'TXT').map((r) => [label(r.fqdn), [r.value]])),
      });
    });
    const provider = this.options.providerOrigin;
    zones.push(new DkimZone({ origin: provider, ...server(provider), keys: this.keys }));
    return new ZoneSet(zones);
  }

  private load(): void {
    if (this.options.dataDir === undefined) return;
    let saved: { zones?: Record<string, LocalRecord[]> };
    try {
      saved = JSON.parse(readFileSync(path.join(this.options.dataDir, FILE), 'utf8'));
    } catch {
      return;
    }
    for (const [zone, records] of Object.entries(saved.zones ?? {})) {
      if (!isLocalZone(zone) || !Array.isArray(records)) continue;
      const held = new Map<string, LocalRecord>();
      for (const r of records)
        if (
          (r.type === 'CNAME' || r.type === 'TXT') &&
          typeof r.fqdn === 'string' &&
          typeof r.value === 'string'
        )
          held.set(normalize(r.fqdn), { fqdn: normalize(r.fqdn), type: r.type, value: r.value });
      this.zones.set(normalize(zone), held);
    }
  }

  private save(): void {
    if (this.options.dataDir === undefined) return;
    const file = path.join(this.options.dataDir, FILE);
    const zones = Object.fromEntries([...this.zones].map(([zone, held]) => [zone, [...held.values()]]));
    writeFileSync(`${file}.tmp`, `${JSON.stringify({ zones }, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }
}
