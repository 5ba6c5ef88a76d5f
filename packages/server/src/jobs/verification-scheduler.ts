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
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.tick = this.runTick().finally(() => {
        this.tick = undefined;
      });
    }, delay);
    this.timer.unref();
  }

  private async runTick(): Promise<void> {
    const { store, service, batchSize, leaseMs } = this.options;
    const now = this.options.now ?? Date.now;
    let claimed: StoredDomain[] = [];
    try {
      claimed = await store.claimDue(now(), batchSize, leaseMs);
      await Promise.all(
        claimed.map((domain) =>
          service.checkClaimed(domain).catch((error: unknown) => this.options.onError?.(error, domain)),
        ),
      );
    } catch (error) {
      this.options.onError?.(error);
    }
    // A full batch means more may be due: go again at once.
    if (!this.stopped) this.schedule(claimed.length === batchSize ? 0 : this.options.intervalMs);
  }
}
