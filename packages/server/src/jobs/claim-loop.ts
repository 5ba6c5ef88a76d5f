/**
 * The loop of a queue worker (webhook deliveries, outgoing mail): every `intervalMs` it runs a
 * tick that claims due work and attempts it; a tick that filled its batch runs the next one at
 * once; a nudge (new work written by this process) runs a tick now, or right after the
 * running one, whose claim may have missed the new work. Ticks never overlap.
 */
export abstract class ClaimLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** True until `start()`, and again from `stop()` on. */
  protected stopped = true;
  /** A nudge came during the running tick. */
  private again = false;

  constructor(private readonly loop: { intervalMs: number; onError?: (error: unknown) => void }) {}

  /** One tick: claim and attempt; resolves to whether more work is probably due now. */
  protected abstract tick(): Promise<boolean>;

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
      this.loop.onError?.(error);
    }
    if (!this.stopped) this.schedule(more || this.again ? 0 : this.loop.intervalMs);
  }
}
