/**
 * The loop of a queue worker (webhook deliveries, outgoing mail): it claims up to `batchSize`
 * due items and attempts them at once, each failure reported alone. A batch is not waited for
 * as a whole: one slow attempt (an MX that takes minutes to answer the final ".") held back
 * every delivery to every other destination, so once a claim filled its room, or an attempt
 * made more work due (a webhook delivered lets its stream's next event go), the next claim
 * comes as soon as half the batch is done, for the room then free. Otherwise the next claim
 * comes after `intervalMs`. A nudge (new work written by this process) claims now, or right
 * after the claim under way, which may have missed the new work. Claims never overlap.
 */
export abstract class ClaimLoop<Item> {
  private timer: NodeJS.Timeout | undefined;
  /** The claim (and housekeeping) under way. */
  private running: Promise<void> | undefined;
  /** True until `start()`, and again from `stop()` on. */
  protected stopped = true;
  /** A nudge came during the running claim. */
  private again = false;
  /** Attempts claimed and not finished. */
  private readonly inFlight = new Set<Promise<void>>();
  /** More is probably due: claimed once half the batch is done. */
  private moreDue = false;

  constructor(
    private readonly loop: { intervalMs: number; batchSize: number; onError?: (error: unknown) => void },
  ) {}

  /** Claim up to `limit` due items for this process. */
  protected abstract claim(limit: number): Promise<Item[]>;
  /**
   * Attempt one claimed item and record what happened; resolves to `true` when that made more work due at
   * once (a webhook delivered lets its stream's next event go): the next claim then comes soon.
   */
  protected abstract attempt(item: Item): Promise<unknown>;
  /** Housekeeping after each claim (its failures are reported, never thrown on). */
  protected async afterTick(): Promise<void> {}

  /** Report a failure that is no attempt's outcome (a database error, a bug). */
  protected reportError(error: unknown): void {
    this.loop.onError?.(error);
  }

  /**
   * Claim and attempt now, batch after batch, each waited for whole, until a claim finds less
   * than a full batch: for tests and benchmarks that drive the worker with their own clock
   * (never while started).
   */
  async drain(): Promise<void> {
    for (;;) {
      const claimed = await this.claim(this.loop.batchSize);
      const unblocked = await Promise.all(claimed.map((item) => this.attemptReported(item)));
      await this.afterTick().catch((error) => this.reportError(error));
      if (claimed.length < this.loop.batchSize && !unblocked.includes(true)) return;
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Work now (this process just wrote some) instead of at the next claim. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Stop claiming and wait for the claim and the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await Promise.all(this.inFlight);
  }

  private attemptReported(item: Item): Promise<boolean> {
    return this.attempt(item).then(
      (unblocked) => unblocked === true,
      (error) => {
        this.reportError(error);
        return false;
      },
    );
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.run().finally(() => {
        this.running = undefined;
        this.next();
      });
    }, delay);
    this.timer.unref();
  }

  /** Claim for the room free in the batch, and start those attempts without waiting for them. */
  private async run(): Promise<void> {
    this.again = false;
    const room = this.loop.batchSize - this.inFlight.size;
    if (room > 0) {
      try {
        const claimed = await this.claim(room);
        if (claimed.length === room) this.moreDue = true;
        for (const item of claimed) {
          const attempt: Promise<void> = this.attemptReported(item).then((unblocked) => {
            if (unblocked) this.moreDue = true;
            this.inFlight.delete(attempt);
            this.next(true);
          });
          this.inFlight.add(attempt);
        }
      } catch (error) {
        this.reportError(error);
      }
    }
    await this.afterTick().catch((error) => this.reportError(error));
  }

  /**
   * After a claim: the next one now, or after the interval. After an attempt: now, or leave
   * the interval's claim (always set while no claim runs) where it is.
   */
  private next(afterAttempt = false): void {
    if (this.stopped || this.running) return;
    if (this.again || (this.moreDue && this.inFlight.size <= this.loop.batchSize / 2)) {
      this.moreDue = false;
      this.schedule(0);
    } else if (!afterAttempt) this.schedule(this.loop.intervalMs);
  }
}
