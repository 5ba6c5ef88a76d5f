/**
 * The domain operations behind the HTTP routes: per-item validation, batching into the
 * store, and results in request order. One bad item never fails its neighbours.
 */
import { planRotation, type RotationPlan, type RotationSettings } from '../dkim/rotation-plan.js';
import { normalizeDomainName } from '../domain/domain-name.js';
import { type DomainType, parseDomainType } from '../domain/domain-type.js';
import { DEFAULT_RETURN_PATH_LABEL, DEFAULT_TRACKING_LABEL, type StoredDomain } from '../domain/model.js';
import { type DomainView, domainView, type RecordSettings, recordFqdn } from '../domain/records.js';
import { newToken } from '../domain/token.js';
import type { DomainConnect } from '../domain-connect/domain-connect.js';
import { SANDBOX_DOMAIN } from '../email/sandbox.js';
import { type Envelope, failed, ok } from '../envelope.js';
import { ApiError } from '../errors.js';
import type { DkimRotationStore, RotationDomain } from '../store/dkim-rotation-store.js';
import type { Store } from '../store/store.js';
import type { VerificationStore } from '../store/verification-store.js';
import type { ZoneFacts } from '../verify/authoritative.js';
import type { DkimStatusView, DomainHistoryView } from '../views.js';
import { checkedSince, type VerificationService } from './verification-service.js';

export type { DomainHistoryView };

export interface DomainServiceOptions {
  store: Store;
  records: RecordSettings;
  maxDomainsPerAccount: number;
  /** Real DNS verification; without it statuses stay as stored. */
  verification?: {
    service: VerificationService;
    store: VerificationStore;
    /** A status request re-checks domains last checked longer ago than this… */
    maxAgeMs: number;
    /** …waiting at most this long. */
    waitMs: number;
  };
  /** Called after a registration commits new domains (to check them at once). */
  onRegistered?: () => void;
  /**
   * The zone a name belongs to in DNS (the check's own walk, whose answers it shares), asked at
   * registration so the first answer names each record relative to the zone the customer
   * edits (issue 36 item 9), waiting at most `waitMs`; a name not found by then says its zone
   * is not confirmed (`zoneConfirmed: false`).
   */
  zoneAtRegistration?: { find: (name: string) => Promise<ZoneFacts | undefined>; waitMs: number };
  now?: () => number;
  /** Called after a registration or deletion commits (hosted DKIM generates keys, republishes). */
  onDomainsChanged?: () => void;
  /** Domain Connect (issue 23): setup links; absent when turned off. */
  domainConnect?: DomainConnect;
  /** DKIM rotation (issue 23): rotating on request; absent when turned off. */
  dkimRotation?: {
    store: DkimRotationStore;
    settings: RotationSettings;
    /** A rotation was asked for: let the worker take it now. */
    onRequested(): void;
  };
}

/** A signed Domain Connect link for one registration. */
export interface SetupLink {
  domain: string;
  providerName: string | null;
  url: string;
}

/**
 * Why a rotation asked for now cannot happen soon, or `null`: the keys are not made yet, a
 * CNAME is not in the customer's DNS, or both other selectors keep retired keys for mail in
 * flight (the switch would wait days).
 */
function rotationProblem(
  domain: StoredDomain,
  state: RotationDomain,
  plan: RotationPlan,
  now: number,
): string | null {
  if (state.selectors.some((s) => s.key === null))
    return `the DKIM keys of ${domain.name} are still being made; ask again in a few seconds`;
  if (state.selectors.some((s) => !s.inCustomerDns))
    return `${domain.name} has a DKIM CNAME that is not in its DNS: rotation needs all three published (see its status)`;
  if (plan.step?.kind === 'replace' || plan.step?.kind === 'switch' || plan.step?.kind === 'confirm')
    return null;
  if (plan.nextRotationAt === null) return `${domain.name} has no DKIM selector that can take over`;
  const hasNext = state.selectors.some((s) => !s.revoked && s.key?.state === 'next');
  if (!hasNext && plan.wakeAt > now)
    return `both other DKIM selectors of ${domain.name} keep retired keys for mail still in flight until ${new Date(plan.wakeAt).toISOString()}; rotate after that`;
  return null;
}

/** Most status changes returned per domain by `history`. */
const HISTORY_LIMIT = 200;

function fqdnAt(domain: StoredDomain, position: number): string | null {
  const record = domain.records.find((r) => r.position === position);
  return record ? recordFqdn(domain.name, record) : null;
}

/** A registration entry as the request carries it. */
export interface RegistrationEntry {
  domain: string;
  domainType: string;
  returnPath?: boolean | string;
  tracking?: boolean | string;
}

/** One DNS label, as a return path's is: letters, digits, inner hyphens. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The return-path or tracking label an entry asks for (`true` is `fallback`): `undefined` for
 * none, `null` when it is not one.
 */
function labelAsked(
  value: boolean | string | undefined,
  fallback: string,
  domain: string,
): string | undefined | null {
  if (value === undefined || value === false) return undefined;
  const label = value === true ? fallback : value.trim().toLowerCase();
  return LABEL.test(label) && label.length + 1 + domain.length <= 253 ? label : null;
}

export class DomainService {
  private readonly store: Store;
  private readonly records: RecordSettings;
  private readonly now: () => number;

  constructor(private readonly options: DomainServiceOptions) {
    this.store = options.store;
    this.records = options.records;
    this.now = options.now ?? Date.now;
  }

  /** `POST /api/public/domain`: register each entry, idempotently. */
  async register(accountId: string, entries: RegistrationEntry[]): Promise<Envelope<DomainView>[]> {
    const results: (Envelope<DomainView> | undefined)[] = new Array(entries.length);
    const valid: {
      index: number;
      name: string;
      type: DomainType;
      returnPath: string | undefined;
      tracking: string | undefined;
    }[] = [];
    const typeByName = new Map<string, string>();

    entries.forEach((entry, index) => {
      const name = normalizeDomainName(entry.domain);
      if (!name.ok) {
        results[index] = failed(name.code, name.message);
        return;
      }
      // The development sandbox's sender (email/sandbox.ts) is every account's to send from
      // outside production mode; registered, its mail would no longer be found by its domain.
      if (name.name === SANDBOX_DOMAIN || name.name.endsWith(`.${SANDBOX_DOMAIN}`)) {
        results[index] = failed(
          'DOMAIN_RESERVED',
          `"${name.name}" is the development sandbox's sender, which every account may use outside production mode; register a domain of your own`,
        );
        return;
      }
      const type = parseDomainType(entry.domainType);
      if (type === undefined) {
        results[index] = failed(
          'DOMAIN_TYPE_INVALID',
          `domainType "${entry.domainType.slice(0, 64)}" is not one of Transactional, Marketing`,
        );
        return;
      }
      const returnPath = labelAsked(entry.returnPath, DEFAULT_RETURN_PATH_LABEL, name.name);
      if (returnPath === null) {
        results[index] = failed(
          'RETURN_PATH_INVALID',
          `returnPath ${JSON.stringify(entry.returnPath).slice(0, 80)} is not one DNS label such as "bounces" (or true)`,
        );
        return;
      }
      const tracking = labelAsked(entry.tracking, DEFAULT_TRACKING_LABEL, name.name);
      if (tracking === null || (tracking !== undefined && tracking === returnPath)) {
        results[index] = failed(
          'TRACKING_INVALID',
          tracking === null
            ? `tracking ${JSON.stringify(entry.tracking).slice(0, 80)} is not one DNS label such as "track" (or true)`
            : `tracking and returnPath both name ${tracking}.${name.name}; one name holds one CNAME, so give them different labels`,
        );
        return;
      }
      const earlier = typeByName.get(name.name);
      if (earlier !== undefined && earlier !== type) {
        results[index] = failed(
          'DOMAIN_TYPE_CONFLICT',
          `${name.name} appears earlier in this request as ${earlier}; send each domain once`,
        );
        return;
      }
      typeByName.set(name.name, type);
      valid.push({ index, name: name.name, type, returnPath, tracking });
    });

    let freshRegistrations = false;
    if (valid.length > 0) {
      const zones = this.zonesOf(valid.map((v) => v.name));
      const outcomes = await this.store.registerDomains(
        accountId,
        valid.map((v) => ({
          name: v.name,
          type: v.type,
          ...(v.returnPath && { returnPath: v.returnPath }),
          ...(v.tracking && { tracking: v.tracking }),
        })),
        { maxDomains: this.options.maxDomainsPerAccount, now: this.now(), newToken: () => newToken() },
      );
      this.options.onDomainsChanged?.();
      const found = await zones;
      outcomes.forEach((outcome, i) => {
        const { index, name } = valid[i]!;
        if (outcome.ok && outcome.domain.checkCount === 0) freshRegistrations = true;
        const zone = outcome.ok && outcome.domain.zone === null ? found.get(name) : undefined;
        results[index] = outcome.ok
          ? ok(domainView(zone ? { ...outcome.domain, zone } : outcome.domain, this.records))
          : failed(
              'ACCOUNT_DOMAIN_LIMIT',
              `${name} was not registered: the account already holds ${this.options.maxDomainsPerAccount} domains`,
            );
      });
    }
    if (freshRegistrations) this.options.onRegistered?.();
    return results as Envelope<DomainView>[];
  }

  /**
   * The zone apex of each name that DNS shows within the registration's wait; the walk starts
   * before the store is written, so the two overlap. Names not found in time are left out.
   */
  private async zonesOf(names: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const lookup = this.options.zoneAtRegistration;
    if (lookup === undefined) return found;
    const all = Promise.all(
      names.map((name) =>
        lookup.find(name).then(
          (zone) => zone && found.set(name, zone.apex),
          () => undefined,
        ),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, lookup.waitMs)))]);
    clearTimeout(timer);
    return new Map(found);
  }

  /**
   * `POST /api/public/domain/status`: the current state of each named registration, checked
   * in DNS first when its last check is older than `maxAgeMs` (waiting at most `waitMs`).
   */
  async status(accountId: string, names: string[]): Promise<Envelope<DomainView>[]> {
    return this.forEachRegistered(accountId, names, async (found) => {
      const { verification } = this.options;
      const fresh = verification
        ? await verification.service.refresh([...found.values()], verification.maxAgeMs, verification.waitMs)
        : found;
      return new Map([...fresh].map(([name, domain]) => [name, ok(domainView(domain, this.records))]));
    });
  }

  /**
   * The answer `status` would give, made from this process's cache alone when it can be: every
   * valid name is a registration held in the cache and checked within `maxAgeMs`. `undefined`
   * otherwise (a name not cached, not registered or due a check): then `status` answers.
   */
  cachedStatus(accountId: string, names: string[]): Envelope<DomainView>[] | undefined {
    const { verification } = this.options;
    const since = verification ? this.now() - verification.maxAgeMs : -Infinity;
    const answer: Envelope<DomainView>[] = new Array(names.length);
    for (let i = 0; i < names.length; i++) {
      const name = normalizeDomainName(names[i]!);
      if (!name.ok) {
        answer[i] = failed(name.code, name.message);
        continue;
      }
      const domain = this.store.cachedDomain(accountId, name.name);
      if (domain === undefined || (verification && !checkedSince(domain, since))) return undefined;
      answer[i] = ok(domainView(domain, this.records));
    }
    return answer;
  }

  /** `POST /api/public/domain/history`: each named registration's status changes, newest first. */
  async history(accountId: string, names: string[]): Promise<Envelope<DomainHistoryView>[]> {
    return this.forEachRegistered(accountId, names, async (found) => {
      const store = this.options.verification?.store;
      // one query per domain, run together (a pool on PostgreSQL), not one after another
      const histories = await Promise.all(
        [...found.values()].map((domain) => (store ? store.history(domain.id, HISTORY_LIMIT) : [])),
      );
      const views = new Map<string, Envelope<DomainHistoryView>>();
      [...found].forEach(([name, domain], i) => {
        const events = histories[i]!;
        views.set(
          name,
          ok({
            domain: name,
            events: events.map((e) => ({
              at: new Date(e.at).toISOString(),
              record: e.position === null ? null : fqdnAt(domain, e.position),
              from: e.from,
              to: e.to,
              reason: e.reason,
              found: e.found,
            })),
          }),
        );
      });
      return views;
    });
  }

  /** `DELETE /api/public/domain`: delete each named registration. */
  async remove(accountId: string, names: string[]): Promise<Envelope<{ domain: string; deleted: true }>[]> {
    return this.forEachRegistered(accountId, names, async (found) => {
      const deleted = await this.store.deleteDomains(accountId, [...found.keys()]);
      if (deleted.size > 0) this.options.onDomainsChanged?.();
      return new Map([...deleted].map((name) => [name, ok({ domain: name, deleted: true as const })]));
    });
  }

  /**
   * One registration of the account as the API shows it, `undefined` when it has none by that
   * name. With `checkNow`, checked in DNS first whatever the age of its last check (waiting at
   * most `waitMs`): the development local DNS has just changed its records.
   */
  async current(accountId: string, name: string, checkNow = false): Promise<DomainView | undefined> {
    const normalized = normalizeDomainName(name);
    if (!normalized.ok) return undefined;
    let domain = (await this.store.findDomains(accountId, [normalized.name])).get(normalized.name);
    const { verification } = this.options;
    if (domain !== undefined && checkNow && verification)
      domain = await verification.service.checkAfterChange(domain, verification.waitMs);
    return domain && domainView(domain, this.records);
  }

  /**
   * `GET /api/public/domain/setup-link`: a signed Domain Connect apply URL for one
   * registration, returning to `redirectUri` with `state`. What its last check found decides
   * (a check older than `maxAgeMs` is run first, as for a status request).
   */
  async setupLink(
    accountId: string,
    name: string,
    redirect: { redirectUri?: string; state?: string },
  ): Promise<SetupLink> {
    const normalized = normalizeDomainName(name);
    const found = normalized.ok ? await this.store.findDomains(accountId, [normalized.name]) : new Map();
    let domain: StoredDomain | undefined = normalized.ok ? found.get(normalized.name) : undefined;
    if (domain === undefined)
      throw new ApiError('SETUP_LINK_DOMAIN_UNKNOWN', `${name} is not registered to this account`);
    const connect = this.options.domainConnect;
    if (connect === undefined)
      throw new ApiError(
        'SETUP_LINK_UNAVAILABLE',
        'Domain Connect is turned off on this service; publish the records by hand',
      );
    if (redirect.redirectUri !== undefined) {
      const problem = connect.redirectProblem(redirect.redirectUri);
      if (problem !== null) throw new ApiError('SETUP_LINK_REDIRECT_INVALID', problem);
    }
    const { verification } = this.options;
    if (verification)
      domain =
        (await verification.service.refresh([domain], verification.maxAgeMs, verification.waitMs)).get(
          domain.name,
        ) ?? domain;
    const setup = domain.domainConnect;
    if (!setup?.supported || setup.urlSyncUX === null)
      throw new ApiError(
        'SETUP_LINK_UNAVAILABLE',
        setup?.detail ?? `${domain.name} has not been checked yet; ask again in a few seconds`,
      );
    // the zone discovery was made for: the provider found hosts that one
    const url = await connect.link(domain, setup.zone, setup.urlSyncUX, redirect);
    return { domain: domain.name, providerName: setup.providerName, url };
  }

  /**
   * `POST /api/public/domain/dkim/rotate`: move signing to the next selector now (or as soon as
   * its key has been served long enough). Asking again before the switch changes nothing.
   */
  async rotateDkim(accountId: string, name: string): Promise<{ domain: string; dkim: DkimStatusView }> {
    const normalized = normalizeDomainName(name);
    const domain = normalized.ok
      ? (await this.store.findDomains(accountId, [normalized.name])).get(normalized.name)
      : undefined;
    if (domain === undefined)
      throw new ApiError('DKIM_ROTATION_DOMAIN_UNKNOWN', `${name} is not registered to this account`);
    const rotation = this.options.dkimRotation;
    if (rotation === undefined)
      throw new ApiError('DKIM_ROTATION_UNAVAILABLE', 'DKIM rotation is turned off on this service');
    const state = await rotation.store.load(domain.id);
    if (state === undefined)
      throw new ApiError('DKIM_ROTATION_DOMAIN_UNKNOWN', `${name} is not registered to this account`);
    const now = this.now();
    const requestedAt = state.requestedAt ?? now;
    const plan = planRotation(state.selectors, { now, requestedAt }, rotation.settings);
    const problem = rotationProblem(domain, state, plan, now);
    if (problem !== null) throw new ApiError('DKIM_ROTATION_UNAVAILABLE', problem);
    await rotation.store.request(domain, now);
    rotation.onRequested();
    const view = domainView(domain, this.records).dkim;
    return {
      domain: domain.name,
      dkim: {
        ...view,
        nextRotationAt: new Date(plan.nextRotationAt!).toISOString(),
        rotationRequestedAt: new Date(requestedAt).toISOString(),
      },
    };
  }

  /** `GET /api/public/domain`: one page of the account's registrations, by name. */
  async list(accountId: string, options: { after?: string; limit: number }) {
    const page = await this.store.listDomains(accountId, options);
    return { domains: page.domains.map((d) => domainView(d, this.records)), next: page.next };
  }

  /**
   * Normalise each name, load the account's registrations among them, and let `act` produce
   * the envelope of each found one; names never registered get DOMAIN_NOT_REGISTERED.
   */
  private async forEachRegistered<T>(
    accountId: string,
    names: string[],
    act: (found: Map<string, StoredDomain>) => Promise<Map<string, Envelope<T>>>,
  ): Promise<Envelope<T>[]> {
    const normalized = names.map((raw) => normalizeDomainName(raw));
    const wanted = [...new Set(normalized.flatMap((n) => (n.ok ? [n.name] : [])))];
    const found = await this.store.findDomains(accountId, wanted);
    const done = found.size > 0 ? await act(found) : new Map<string, Envelope<T>>();
    return normalized.map((n) => {
      if (!n.ok) return failed<T>(n.code, n.message);
      return (
        done.get(n.name) ?? failed<T>('DOMAIN_NOT_REGISTERED', `${n.name} is not registered to this account`)
      );
    });
  }
}
