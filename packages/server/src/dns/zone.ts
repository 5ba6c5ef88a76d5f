/**
 * The provider zone `dkim.<DKIM_PROVIDER_HOST>` as data: SOA and NS at the apex, one TXT key
 * record per selector token below it. The development local DNS (`local-dns.ts`) serves its
 * customers' `.test` zones as zones of this kind too, with CNAME and address records. A zone object is one version: its keys table may be
 * shared with the versions after it (a change edits one entry, not millions), but each change
 * makes a new zone object, so caches keyed by the zone start afresh. Every query is answered
 * in one synchronous step, so it sees one consistent version.
 */
import { isIP } from 'node:net';
import type { Answer, MxAnswer, SoaAnswer, StringAnswer, TxtAnswer } from 'dns-packet';
import type { PublishedKey } from '../store/dkim-key-store.js';
import { type HeldKey, KeyCache, NOT_CACHED } from './key-cache.js';
import { dkimKeyRecord, txtStrings } from './key-record.js';
import { ZoneKeys } from './zone-keys.js';

/** What a zone is built from. */
export interface ZoneContent {
  /** The zone apex, e.g. `dkim.provider.example` (no trailing dot). */
  origin: string;
  /** RFC 1035 §3.3.13 SERIAL; reduced modulo 2^32 (RFC 1982). */
  serial: number;
  /** NS targets at the apex; the first is the SOA MNAME. */
  nameServers: string[];
  /** SOA RNAME, the contact mailbox in domain-name form. */
  soaContact: string;
  /** TTL of every record and the SOA MINIMUM (negative-caching TTL, RFC 2308 §4). */
  ttl: number;
  /**
   * The key records: a list, a table kept up to date, or (the provider zone, issue 39) a
   * bounded cache in front of the database, which a question may have to wait for.
   */
  keys: readonly PublishedKey[] | ZoneKeys | KeyCache;
  /**
   * Other TXT records by label below the apex, each text one record of one string (≤ 255
   * bytes): the Domain Connect signing key's pieces at `_dck1`, for one.
   */
  extraTxt?: ReadonlyMap<string, readonly string[]>;
  /** MX records by label below the apex: every return path's, at `return-path` (issue 34). */
  extraMx?: ReadonlyMap<string, readonly MxData[]>;
  /**
   * CNAME records by label below the apex (a name holding one holds nothing else, RFC 1034
   * §3.6.2): the development local DNS's customer zones (`local-dns.ts`), whose DKIM records
   * are aliases into the provider zone.
   */
  extraCname?: ReadonlyMap<string, string>;
  /** A and AAAA records by label below the apex: the local DNS's own name server, `ns`. */
  extraAddresses?: ReadonlyMap<string, readonly string[]>;
}

/** One MX record's data. */
export interface MxData {
  preference: number;
  exchange: string;
}

/** Where a query name falls relative to the zone. */
export type ZoneMatch =
  | { at: 'apex' }
  | { at: 'key'; strings: string[] }
  /** A name holding other records (`extraTxt`, `extraMx`). */
  | { at: 'txt'; records: string[][]; mx: readonly MxData[]; addresses: readonly string[] }
  /** An alias (`extraCname`): answered for every type, as RFC 1034 §3.6.2 asks. */
  | { at: 'alias'; target: string }
  | { at: 'none' }
  /** A key name whose record is not in the key cache: load `token` first (`DkimZone.load`). */
  | { at: 'unknown'; token: string }
  /** Not in this zone: we are not authoritative (answer REFUSED). */
  | { at: 'outside' };

/** SOA timers: NOTIFY carries changes at once, so refresh can be slow (values as RFC 1912 §2.2 suggests). */
const SOA_REFRESH = 3600;
const SOA_RETRY = 600;
const SOA_EXPIRE = 1_209_600;

export class DkimZone {
  readonly origin: string;
  readonly serial: number;
  readonly ttl: number;
  private readonly content: ZoneContent;
  private readonly keys: ZoneKeys | KeyCache;
  /** Every label holding other records (`extra*`): one lookup on a key's hot path, not four. */
  private readonly extraLabels: ReadonlySet<string>;

  constructor(content: ZoneContent) {
    if (content.nameServers.length === 0) throw new RangeError('a zone needs at least one name server');
    this.content = content;
    this.origin = content.origin.toLowerCase().replace(/\.$/, '');
    this.serial = ((content.serial % 2 ** 32) + 2 ** 32) % 2 ** 32;
    this.ttl = content.ttl;
    this.keys = Array.isArray(content.keys)
      ? ZoneKeys.of(content.keys)
      : (content.keys as ZoneKeys | KeyCache);
    const { extraCname, extraTxt, extraMx, extraAddresses } = content;
    this.extraLabels = new Set(
      [extraCname, extraTxt, extraMx, extraAddresses].flatMap((labels) => [...(labels?.keys() ?? [])]),
    );
  }

  /** Number of key records (with a key cache: the entries it holds). */
  get size(): number {
    return this.keys.size;
  }

  /**
   * Whether the keys are read from the database on demand: a question may match `unknown`
   * until {@link load}, and a transfer streams them ({@link transferKeyPages}).
   */
  get loadsKeys(): boolean {
    return !(this.keys instanceof ZoneKeys);
  }

  /** Make the key of `token` known to {@link match}; `false` when the database could not say. */
  load(token: string): Promise<boolean> {
    return this.keys instanceof ZoneKeys ? Promise.resolve(true) : this.keys.load(token);
  }

  /** Classify a query name (any case, with or without the trailing dot). */
  match(qname: string): ZoneMatch {
    const name = qname.toLowerCase().replace(/\.$/, '');
    if (name === this.origin) return { at: 'apex' };
    if (!name.endsWith(`.${this.origin}`)) return { at: 'outside' };
    const label = name.slice(0, -this.origin.length - 1);
    const target = this.content.extraCname?.get(label);
    if (target !== undefined) return { at: 'alias', target };
    const extra = this.content.extraTxt?.get(label);
    const mx = this.content.extraMx?.get(label);
    const addresses = this.content.extraAddresses?.get(label);
    if (extra !== undefined || mx !== undefined || addresses !== undefined)
      return {
        at: 'txt',
        records: (extra ?? []).map((text) => [text]),
        mx: mx ?? [],
        addresses: addresses ?? [],
      };
    const key = label.includes('.') ? undefined : this.keys.get(label);
    if (key === NOT_CACHED) return { at: 'unknown', token: label };
    return key === undefined ? { at: 'none' } : { at: 'key', strings: txtStrings(dkimKeyRecord(key)) };
  }

  /**
   * The key cache's entry for the key at `label` (lower case), where answers made from it are
   * kept so that they go with it (`answer-template.ts`): {@link NOT_CACHED} when the cache does
   * not hold it; `undefined` when the keys are a table, not a cache, or `label` names no key (it
   * holds other records, or has more than one label).
   */
  heldKey(label: string): HeldKey | typeof NOT_CACHED | undefined {
    if (!(this.keys instanceof KeyCache) || label.includes('.')) return undefined;
    if (this.extraLabels.has(label)) return undefined;
    return this.keys.held(label) ?? NOT_CACHED;
  }

  /** The apex SOA record, owned by `owner` (the question's spelling). */
  soa(owner: string = this.origin): SoaAnswer {
    return {
      name: owner,
      type: 'SOA',
      class: 'IN',
      ttl: this.ttl,
      data: {
        mname: this.content.nameServers[0]!,
        rname: this.content.soaContact,
        serial: this.serial,
        refresh: SOA_REFRESH,
        retry: SOA_RETRY,
        expire: SOA_EXPIRE,
        minimum: this.ttl,
      },
    };
  }

  /** The apex NS records. */
  ns(owner: string = this.origin): StringAnswer[] {
    return this.content.nameServers.map((data) => ({
      name: owner,
      type: 'NS',
      class: 'IN',
      ttl: this.ttl,
      data,
    }));
  }

  /** The TXT key record at `owner` from a `{at: 'key'}` match. */
  txt(owner: string, strings: string[]): TxtAnswer {
    return { name: owner, type: 'TXT', class: 'IN', ttl: this.ttl, data: strings };
  }

  /** MX records at `owner`. */
  mx(owner: string, records: readonly MxData[]): MxAnswer[] {
    return records.map((data) => ({
      name: owner,
      type: 'MX',
      class: 'IN',
      ttl: this.ttl,
      data: { ...data },
    }));
  }

  /** The CNAME record at `owner` from an `{at: 'alias'}` match. */
  cname(owner: string, target: string): StringAnswer {
    return { name: owner, type: 'CNAME', class: 'IN', ttl: this.ttl, data: target };
  }

  /** The A (or AAAA) records at `owner` among `addresses`. */
  addresses(owner: string, addresses: readonly string[], type: 'A' | 'AAAA'): StringAnswer[] {
    return addresses
      .filter((address) => isIP(address) === (type === 'A' ? 4 : 6))
      .map((data) => ({ name: owner, type, class: 'IN', ttl: this.ttl, data }));
  }

  /**
   * Every record of the zone in transfer order after the opening SOA: NS, the other records,
   * then keys by token; with keys read on demand, the keys come from {@link transferKeyPages}.
   */
  *transferRecords(): Generator<Answer> {
    yield* this.ns();
    for (const [label, texts] of this.content.extraTxt ?? [])
      for (const text of texts) yield this.txt(`${label}.${this.origin}`, [text]);
    for (const [label, records] of this.content.extraMx ?? [])
      yield* this.mx(`${label}.${this.origin}`, records);
    for (const [label, target] of this.content.extraCname ?? [])
      yield this.cname(`${label}.${this.origin}`, target);
    for (const [label, addresses] of this.content.extraAddresses ?? [])
      for (const type of ['A', 'AAAA'] as const)
        yield* this.addresses(`${label}.${this.origin}`, addresses, type);
    if (!(this.keys instanceof ZoneKeys)) return;
    // read in one synchronous step (transferMessages), so every token listed is still there
    for (const token of this.keys.tokens())
      yield this.txt(`${token}.${this.origin}`, txtStrings(dkimKeyRecord(this.keys.get(token)!)));
  }

  /** The key records, page by page from the database, in token order (a zone with a key cache). */
  async *transferKeyPages(): AsyncGenerator<TxtAnswer[]> {
    if (this.keys instanceof ZoneKeys) return;
    for await (const page of this.keys.pages())
      yield page.map((key) =>
        this.txt(`${key.token}.${this.origin}`, txtStrings(dkimKeyRecord(key.publicKey))),
      );
  }
}
