/**
 * The loop of a queue worker (webhook deliveries, outgoing mail): every `intervalMs` it runs a
 * tick that claims up to `batchSize` due items and attempts them at once, each failure reported
 * alone; a tick that filled its batch, or whose attempts made more work due, runs the next one
 * at once; a nudge (new work written by
 * this process) runs a tick now, or right after the running one, whose claim may have missed
 * the new work. Ticks never overlap.
 */
export abstract class ClaimLoop<Item> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** True until `start()`, and again from `stop()` on. */
  protected stopped = true;
  /** A nudge came during the running tick. */
  private again = false;

  constructor(
    private readonly loop: { intervalMs: number; batchSize: number; onError?: (error: unknown) => void },
  ) {}

  /** Claim up to `limit` due items for this process. */
  protected abstract claim(limit: number): Promise<Item[]>;
  /**
   * Attempt one claimed item and record what happened; resolves to `true` when that made more work due at
   * once (a webhook delivered lets its stream's next event go): the next tick then runs now.
   */
  protected abstract attempt(item: Item): Promise<unknown>;
  /** Housekeeping after each tick's attempts (its failures are reported, never thrown on). */
  protected async afterTick(): Promise<void> {}

  /** Report a failure that is no attempt's outcome (a database error, a bug). */
  protected reportError(error: unknown): void {
    this.loop.onError?.(error);
  }

  /** One tick: claim and attempt; resolves to whether more work is probably due now. */
  private async tick(): Promise<boolean> {
    const claimed = await this.claim(this.loop.batchSize);
    const unblocked = await Promise.all(
      claimed.map((item) =>
        this.attempt(item).catch((error) => {
          this.reportError(error);
          return false;
        }),
      ),
    );
    await this.afterTick().catch((error) => this.reportError(error));
    return claimed.length === this.loop.batchSize || unblocked.includes(true);
  }

  /**
   * Claim and attempt now, batch after batch, until a claim finds less than a full batch: for
   * tests and benchmarks that drive the worker with their own clock (never while started).
   */
  async drain(): Promise<void> {
    while (await this.tick()) {}
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Work now (this process just wrote some) instead of at the next tick. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Stop ticking and wait for the tick under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.run().finally(() => {
        this.running = undefined;
      });
    }, delay);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.again = false;
    let more = false;
    try {
      more = await this.tick();
    } catch (error) {
      this.reportError(error);
    }
    if (!this.stopped) this.schedule(more || this.again ? 0 : this.loop.intervalMs);
  }
}
