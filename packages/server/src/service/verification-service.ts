/**
 * Checking registrations against real DNS: run a check, apply the fault rules, store the
 * result. Used by the background scheduler and by status requests, which share one check
 * of a domain when several ask at once.
 */
import pLimit from 'p-limit';
import type { DnsProvider } from '../domain/dns-providers.js';
import { organisationalDomain } from '../domain/domain-name.js';
import type { DomainConnectSetup, RecordCheckState, StoredDomain } from '../domain/model.js';
import { identifyProviders } from '../domain/provider-detection.js';
import { providersById } from '../domain/provider-hints.js';
import {
  customerZone,
  dkimTarget,
  type RecordSettings,
  recordFqdn,
  returnPathTarget,
  trackingTarget,
} from '../domain/records.js';
import {
  applyObservation,
  domainStatusOf,
  nextScheduledCheck,
  type Observation,
} from '../domain/verification.js';
import type { DomainConnect } from '../domain-connect/domain-connect.js';
import type { StatusEvent, VerificationStore } from '../store/verification-store.js';
import type { ZoneFacts } from '../verify/authoritative.js';
import { checkRecords, type ExpectedRecord, type Misplacement } from '../verify/check-records.js';
import type { DnsResolve } from '../verify/resolver.js';

export interface VerificationSettings {
  providerHost: string;
  /** Where tracking hosts' CNAMEs point (`TRACKING_CNAME_TARGET`). */
  trackingTarget?: string;
  /** How long a verified record may be definitively missing before it is pending again. */
  graceMs: number;
  /** How long a claim holds a domain; a check that dies is retried after it. */
  leaseMs: number;
}

export interface VerificationServiceOptions {
  store: VerificationStore;
  resolve: DnsResolve;
  settings: VerificationSettings;
  /** Domains checked at once; further checks wait their turn (already tracked, so shared). */
  concurrency?: number;
  now?: () => number;
  /** Where failures of background checks are reported. */
  onError?: (error: unknown, domain: StoredDomain) => void;
  /**
   * Our key record for a DKIM token (`v=DKIM1; k=rsa; p=…`), so a provider that flattens the
   * CNAME (answering our key at the customer's name) is recognised; asked only in that case.
   */
  keyRecordOf?: (token: string) => Promise<string | undefined>;
  /**
   * The zone a domain belongs to in DNS (its deepest zone cut) and its NS names, kept with each
   * check: the NS names tell the customer's DNS provider.
   */
  findZone?: (name: string) => Promise<ZoneFacts | undefined>;
  /** Domain Connect: whether the zone's DNS provider can set the domain up, kept with each check. */
  domainConnect?: DomainConnect;
  /**
   * Called after a check that changed a status was saved: its webhook events are in the
   * outbox, and the delivery worker can send them now instead of at its next tick.
   */
  onStatusChanged?: () => void;
  /**
   * Called after each check with its outcome, the domain's status after it (`verified`,
   * `pending`, …) or `error` when it could not run, and how long it took: the metrics (issue 39).
   */
  onChecked?: (outcome: string, ms: number) => void;
}

export class VerificationService {
  /** Checks running in this process, by domain id. */
  private readonly inFlight = new Map<string, Promise<StoredDomain>>();
  /** Status requests trying to claim (or waiting for) a check, by domain id: shared by polls. */
  private readonly attempts = new Map<string, Promise<StoredDomain>>();
  private readonly now: () => number;
  private readonly limit: ReturnType<typeof pLimit>;

  constructor(private readonly options: VerificationServiceOptions) {
    this.now = options.now ?? Date.now;
    this.limit = pLimit(options.concurrency ?? 32);
  }

  /** Wait for every check under way (at shutdown, before the database closes). */
  async idle(): Promise<void> {
    while (this.inFlight.size + this.attempts.size > 0) {
      await Promise.allSettled([...this.inFlight.values(), ...this.attempts.values()]);
    }
  }

  /**
   * Check a domain this process has claimed; concurrent calls for the same domain share
   * one check. Resolves with the domain's new state.
   */
  checkClaimed(domain: StoredDomain): Promise<StoredDomain> {
    // Tracked at once, before it waits for a turn: a status request arriving meanwhile finds
    // this check and waits for it, instead of answering the state from before it.
    return (
      this.inFlight.get(domain.id) ??
      track(
        this.inFlight,
        domain.id,
        this.limit(() => this.run(domain)),
      )
    );
  }

  /**
   * Fresh state for a status request: each domain last checked more than `maxAgeMs` ago is
   * checked now, waiting at most `waitMs`; whatever has not finished by then is answered
   * from the state before, and its check completes in the background. Concurrent requests
   * share one check: in this process through `inFlight` and `attempts`, across processes
   * because a claim succeeds only while the domain is unclaimed and still stale.
   */
  async refresh(
    domains: StoredDomain[],
    maxAgeMs: number,
    waitMs: number,
  ): Promise<Map<string, StoredDomain>> {
    const now = this.now();
    const staleBefore = now - maxAgeMs;
    const deadline = now + waitMs;
    const result = new Map(domains.map((d) => [d.name, d]));
    const checks: Promise<void>[] = [];
    for (const domain of domains) {
      if (checkedSince(domain, staleBefore)) continue;
      const check =
        this.inFlight.get(domain.id) ??
        this.attempts.get(domain.id) ??
        track(this.attempts, domain.id, this.claimOrWait(domain, staleBefore, deadline));
      checks.push(
        // The check ran on the state it loaded; anything else may have changed meanwhile (a
        // new type, another process's check), so answer what the database holds now.
        check.then(
          async () => {
            result.set(domain.name, (await this.options.store.load(domain.id)) ?? domain);
          },
          () => {},
        ),
      );
    }
    if (checks.length === 0) return result;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(checks),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
    return new Map(result);
  }

  /**
   * A check that starts after any under way for the domain has ended, waiting at most `waitMs`:
   * what DNS holds after a change made a moment ago (the development local DNS, issue 40),
   * which a check already running may have asked before it.
   */
  async checkAfterChange(domain: StoredDomain, waitMs: number): Promise<StoredDomain> {
    const running = this.inFlight.get(domain.id) ?? this.attempts.get(domain.id);
    if (running) await running.catch(() => {});
    // Stale is "checked at or before now", not "before now": the check awaited above may have
    // been saved in this very millisecond, and with a maximum age of 0 it counted as fresh (the
    // local DNS's publish then answered what DNS held before it).
    return (await this.refresh([domain], -1, waitMs)).get(domain.name) ?? domain;
  }

  /**
   * Check the domain if it can be claimed. If it cannot, a check holds it (the scheduler here,
   * just before it starts, or another process): wait, until the deadline, for that check to
   * land, so the poll still answers fresh truth.
   */
  private async claimOrWait(
    domain: StoredDomain,
    staleBefore: number,
    deadline: number,
  ): Promise<StoredDomain> {
    const claimed = await this.options.store.claimStale(
      domain.id,
      this.now(),
      this.options.settings.leaseMs,
      staleBefore,
    );
    if (claimed) return this.checkClaimed(claimed);
    while (this.now() < deadline) {
      const running = this.inFlight.get(domain.id);
      if (running) return running;
      const current = await this.options.store.load(domain.id);
      if (current === undefined || (current.lastCheckedAt ?? -1) > (domain.lastCheckedAt ?? -1))
        return current ?? domain;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
    return domain;
  }

  private async run(domain: StoredDomain): Promise<StoredDomain> {
    const started = performance.now();
    try {
      const checked = await this.checkOnce(domain);
      this.options.onChecked?.(checked.status, performance.now() - started);
      return checked;
    } catch (error) {
      this.options.onChecked?.('error', performance.now() - started);
      throw error;
    }
  }

  private async checkOnce(domain: StoredDomain): Promise<StoredDomain> {
    const { settings } = this.options;
    let observations: Observation[];
    let zone: ZoneFacts | undefined;
    let providers: DnsProvider[];
    let setup: DomainConnectSetup | undefined;
    try {
      // The zone and its provider are only a description (record names, advice): a failure
      // keeps the ones stored before. Found alongside the records; a diagnosis that names the
      // provider waits for it.
      const zoneFound =
        this.options.findZone?.(domain.name).catch(() => undefined) ?? Promise.resolve(undefined);
      const providerFound = zoneFound.then((found) =>
        found ? identifyProviders(found.nameServers) : providersById(domain.dnsProviders),
      );
      const { domainConnect } = this.options;
      // Domain Connect, while a record is still to be published (a verified domain needs no
      // setup link): from the zone known before this check (the registrable domain at first),
      // so it runs beside the record lookups, not after the zone walk; a zone that moved is
      // used from the next check on. Bounded by its own budget, so a provider cannot hold it.
      const setupFound = domain.records.some((r) => r.status !== 'verified')
        ? domainConnect?.setupFor(domain, customerZone(domain.name, domain.zone)).catch(() => undefined)
        : undefined;
      [observations, zone, providers, setup] = await Promise.all([
        checkRecords(
          expectedRecords(domain, settings, this.options.keyRecordOf, () => providerFound),
          this.options.resolve,
        ),
        zoneFound,
        providerFound,
        setupFound,
      ]);
    } catch (error) {
      await this.options.store.release(domain.id);
      throw error;
    }
    const now = this.now();
    const states = new Map<number, RecordCheckState>();
    const events: StatusEvent[] = [];
    const records = domain.records.map((record, i) => {
      const next = applyObservation(record, observations[i]!, now, settings.graceMs);
      states.set(record.position, next);
      if (next.status !== record.status) {
        events.push({
          position: record.position,
          from: record.status,
          to: next.status,
          reason: next.reason,
          found: next.found,
          at: now,
        });
      }
      return { ...record, ...next };
    });
    const status = domainStatusOf(records);
    if (status !== domain.status) {
      events.unshift({ position: null, from: domain.status, to: status, reason: null, found: null, at: now });
    }
    // From the registration time, not the number of checks: status polls check far more
    // often than the schedule, and must not use up its early points.
    const nextCheckAt = nextScheduledCheck({ status, createdAt: domain.createdAt }, now);
    await this.options.store.saveCheck(domain, {
      records: states,
      status,
      events,
      checkedAt: now,
      nextCheckAt,
      ...(zone !== undefined && { zone: zone.apex, dnsProviders: providers.map((p) => p.id) }),
      ...(setup !== undefined && { domainConnect: setup }),
    });
    if (events.length > 0) this.options.onStatusChanged?.();
    return {
      ...domain,
      status,
      records,
      lastCheckedAt: now,
      nextCheckAt,
      checkCount: domain.checkCount + 1,
      zone: zone?.apex ?? domain.zone,
      dnsProviders: zone ? providers.map((p) => p.id) : domain.dnsProviders,
      domainConnect: setup ?? domain.domainConnect,
    };
  }
}

/** How often a poll waiting for another worker's check looks at the database. */
const WAIT_POLL_MS = 25;

/** Keep `promise` in `map` under `id` until it settles. */
function track(
  map: Map<string, Promise<StoredDomain>>,
  id: string,
  promise: Promise<StoredDomain>,
): Promise<StoredDomain> {
  const tracked = promise.finally(() => {
    if (map.get(id) === tracked) map.delete(id);
  });
  map.set(id, tracked);
  return tracked;
}

/** What each record of a registration should be in DNS, in record order, and where it is often misplaced. */
export function expectedRecords(
  domain: StoredDomain,
  settings: Pick<RecordSettings, 'providerHost' | 'trackingTarget'>,
  keyRecordOf?: (token: string) => Promise<string | undefined>,
  providersOf?: () => Promise<readonly DnsProvider[]>,
): ExpectedRecord[] {
  const organisational = organisationalDomain(domain.name);
  const sub = organisational !== domain.name;
  // a provider that appends its zone to a pasted full name makes `<name>.<zone>`
  const zone = customerZone(domain.name, domain.zone);
  const doubled = (fqdn: string): Misplacement => ({
    fqdn: `${fqdn}.${zone}`,
    within: `${domain.name}.${zone}`,
    why: `your DNS provider added ${zone} to the name entered; enter the name shown in "name", without ${zone}`,
  });
  return domain.records.map((record) => {
    const fqdn = recordFqdn(domain.name, record);
    if (record.kind === 'dmarc')
      // receivers look for a policy at the organisational domain when the domain has none
      return {
        kind: 'dmarc',
        fqdn,
        misplaced: [doubled(fqdn)],
        ...(sub && { inheritFrom: recordFqdn(organisational, record) }),
      };
    if (record.kind === 'return_path' || record.kind === 'tracking')
      return {
        kind: record.kind,
        fqdn,
        target:
          record.kind === 'return_path' ? returnPathTarget(settings.providerHost) : trackingTarget(settings),
        misplaced: [doubled(fqdn)],
      };
    const atApex: Misplacement[] = sub
      ? [
          {
            fqdn: recordFqdn(organisational, record),
            why: `it is on ${organisational} instead of ${domain.name}; add it at ${fqdn}`,
          },
        ]
      : [];
    return {
      kind: 'dkim',
      fqdn,
      target: dkimTarget(record.token!, settings.providerHost),
      misplaced: [doubled(fqdn), ...atApex],
      ...(keyRecordOf && { keyRecord: () => keyRecordOf(record.token!) }),
      ...(providersOf && {
        proxy: async () => {
          // of the providers serving the zone, the one that can proxy (Cloudflare)
          const provider = (await providersOf()).find((p) => p.hints.cnameProxy);
          const proxy = provider?.hints.cnameProxy;
          return proxy && { provider: provider.name, setting: proxy.requiredSetting };
        },
      }),
    };
  });
}

/** Whether `domain` was last checked at or after `since` (a status answer needs no new check). */
export function checkedSince(domain: StoredDomain, since: number): boolean {
  return domain.lastCheckedAt !== null && domain.lastCheckedAt >= since;
}
