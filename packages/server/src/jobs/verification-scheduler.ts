/**
 * The background scheduler: every tick it claims the domains whose check is due and checks
 * them, a bounded number at a time. New registrations are due at once; later checks follow
 * `nextScheduledCheck`, counted from each domain's registration. Claims make each due check
 * run once across processes.
 */
import type { StoredDomain } from '../domain/model.js';
import type { VerificationService } from '../service/verification-service.js';
import type { VerificationStore } from '../store/verification-store.js';

export interface SchedulerOptions {
  store: VerificationStore;
  service: VerificationService;
  /** Pause between ticks when nothing was due. */
  intervalMs: number;
  /** Domains claimed per tick. */
  batchSize: number;
  leaseMs: number;
  now?: () => number;
  onError?: (error: unknown, domain?: StoredDomain) => void;
}

export class VerificationScheduler {
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> | undefined;
  private stopped = true;
  /** Checks claimed and not finished (waiting for a turn or running). */
  private readonly running = new Set<Promise<void>>();
  /** The last claim was full: more may be due, claimed as soon as half the batch is done. */
  private moreDue = false;
  constructor(private readonly options: SchedulerOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Run a tick now (e.g. right after a registration) instead of waiting for the next. */
  nudge(): void {
    if (this.stopped || this.tick) return;
    this.schedule(0);
  }

  /** Stop ticking and wait for the checks under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.tick;
    await Promise.all(this.running);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.tick = this.runTick().finally(() => {
        this.tick = undefined;
        this.refill();
      });
    }, delay);
    this.timer.unref();
  }

  /**
   * Claim what is due, up to the batch minus the checks still running, and start them. A
   * batch is not waited for as a whole: one slow check (a server that does not answer, retried
   * until its timeout) held back the next hundred, so the next claim comes once half the
   * batch is done.
   */
  private async runTick(): Promise<void> {
    const { store, service, batchSize, leaseMs } = this.options;
    const now = this.options.now ?? Date.now;
    const room = batchSize - this.running.size;
    let claimed: StoredDomain[] = [];
    if (room > 0) {
      try {
        claimed = await store.claimDue(now(), room, leaseMs);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
    for (const domain of claimed) {
      const check: Promise<void> = service
        .checkClaimed(domain)
        .then(
          () => {},
          (error: unknown) => this.options.onError?.(error, domain),
        )
        .finally(() => {
          this.running.delete(check);
          this.refill();
        });
      this.running.add(check);
    }
    this.moreDue = room > 0 && claimed.length === room;
    if (this.stopped) return;
    if (!this.moreDue) this.schedule(this.options.intervalMs);
    else if (this.running.size <= batchSize / 2) this.schedule(0);
  }

  /** A check finished: claim more when the last claim was full and half the batch is done. */
  private refill(): void {
    if (this.stopped || this.tick || !this.moreDue) return;
    if (this.running.size <= this.options.batchSize / 2) {
      this.moreDue = false;
      this.schedule(0);
    }
  }
}
