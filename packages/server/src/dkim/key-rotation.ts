/**
 * The rotation worker (issue 23): it claims the domains whose rotation is due (every process
 * may run one; a claim makes each domain's step run once), asks `planRotation` what to do,
 * does it, and asks again, until the plan says "nothing until then", which it records as the
 * domain's next wake-up. See `rotation-plan.ts` for the rules.
 */
import { ClaimLoop } from '../jobs/claim-loop.js';
import type { DkimRotationStore, RotationDomain, RotationSelector } from '../store/dkim-rotation-store.js';
import type { DkimKeyPair } from './key-pair.js';
import type { PublicationCheck } from './key-publication.js';
import { planRotation, type RotationSettings, UNCONFIRMED_RETRY_MS } from './rotation-plan.js';
import { seal } from './secret-box.js';

export interface KeyRotatorOptions {
  store: DkimRotationStore;
  settings: RotationSettings;
  /** Seals new private keys (AES-256-GCM), as the key generator does. */
  secretKey: Buffer;
  generate: () => Promise<DkimKeyPair>;
  isServed: PublicationCheck;
  /** Pause between claims when nothing was due. */
  intervalMs: number;
  batchSize: number;
  leaseMs: number;
  now?: () => number;
  /** A selector got a new key: republish the zone now. */
  onKeyReplaced?: () => void;
  /** Signing switched (its event is in the outbox): deliver it. */
  onRotated?: (domain: RotationDomain) => void;
  onError?: (error: unknown) => void;
}

/** Steps taken for one domain per claim at most: confirm, switch, replace, confirm. */
const MAX_STEPS = 4;

export class DkimKeyRotator extends ClaimLoop<RotationDomain> {
  private readonly now: () => number;
  /** Switches made by this process since start. */
  rotations = 0;

  constructor(private readonly options: KeyRotatorOptions) {
    super({
      intervalMs: options.intervalMs,
      batchSize: options.batchSize,
      ...(options.onError && { onError: options.onError }),
    });
    this.now = options.now ?? Date.now;
  }

  protected claim(limit: number): Promise<RotationDomain[]> {
    return this.options.store.claimDue(this.now(), limit, this.options.leaseMs);
  }

  /** Take the domain's due steps, then record when to look again. */
  protected async attempt(claimed: RotationDomain): Promise<void> {
    const { store, settings } = this.options;
    // The claim's lease, which `schedule` recognises (a re-read does not carry it).
    const lease = { id: claimed.id, leaseUntil: claimed.leaseUntil };
    let domain: RotationDomain | undefined = claimed;
    for (let steps = 0; domain !== undefined; steps++) {
      const now = this.now();
      const plan = planRotation(domain.selectors, { now, requestedAt: domain.requestedAt }, settings);
      if (plan.step === null || steps === MAX_STEPS) {
        await store.schedule(lease, plan.step === null ? plan.wakeAt : now, plan.nextRotationAt);
        return;
      }
      const step = plan.step;
      if (step.kind === 'confirm') {
        const selector = domain.selectors.find((s) => s.token === step.token)!;
        if (!(await this.options.isServed(selector.token, selector.publicKey!))) {
          // A key made a moment ago is usually still on its way to the secondaries.
          const young = now - selector.key!.createdAt < YOUNG_KEY_MS;
          await store.schedule(
            lease,
            now + (young ? CONFIRM_AFTER_REPLACE_MS : UNCONFIRMED_RETRY_MS),
            plan.nextRotationAt,
          );
          return;
        }
        await store.confirm(domain, step.token, now);
      } else if (step.kind === 'switch') {
        const after = planRotation(
          afterSwitch(domain.selectors, step.to, now),
          { now, requestedAt: null },
          settings,
        );
        // Usually nothing is due after a switch until the retired key's keeping ends: the
        // switch then writes that wake-up itself, and the domain is done.
        const wake = after.step === null ? { lease: lease.leaseUntil, at: after.wakeAt } : undefined;
        if (await store.switchActive(domain, step, now, after.nextRotationAt, wake)) {
          this.rotations += 1;
          this.options.onRotated?.(domain);
          if (wake) return;
        }
      } else {
        const pair = await this.options.generate();
        const key = {
          publicKey: pair.publicKey,
          privateKeyEnc: seal(this.options.secretKey, pair.privateKey, step.token),
        };
        pair.privateKey.fill(0);
        if (await store.replaceKey(domain, step.token, key, this.now())) this.options.onKeyReplaced?.();
        // The zone reloads in a moment and secondaries follow its NOTIFY: confirm after that.
        await store.schedule(lease, this.now() + CONFIRM_AFTER_REPLACE_MS, plan.nextRotationAt);
        return;
      }
      domain = await store.load(domain.id);
    }
  }
}

/** The selectors as a switch to `to` at `now` leaves them: it signs, the one that signed retires. */
function afterSwitch(selectors: RotationSelector[], to: string, now: number): RotationSelector[] {
  return selectors.map((s) =>
    s.token === to
      ? { ...s, key: { ...s.key!, state: 'active', since: now } }
      : s.key?.state === 'active'
        ? { ...s, key: { ...s.key, state: 'retired', since: now } }
        : s,
  );
}

/** From a new key to the first look at whether it is served everywhere, and between looks while it is young. */
export const CONFIRM_AFTER_REPLACE_MS = 2_000;
/** A key younger than this not served everywhere yet is looked at again every {@link CONFIRM_AFTER_REPLACE_MS}. */
const YOUNG_KEY_MS = 60_000;
