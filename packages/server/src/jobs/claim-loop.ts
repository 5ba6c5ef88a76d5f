/**
 * The loop of a queue worker (webhook deliveries, outgoing mail): every `intervalMs` it runs a
 * tick that claims due work and attempts it; a tick that filled its batch runs the next one at
 * once; a nudge (new work written by this process) runs a tick now, or right after the
 * running one, whose claim may have missed the new work. Ticks never overlap.
 */
export interface ClaimLoopOptions {
  intervalMs: number;
  /** One tick: claim and attempt; resolves to whether more work is probably due now. */
  tick: () => Promise<boolean>;
  onError?: (error: unknown) => void;
}

export class ClaimLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** A nudge came during the running tick. */
  private again = false;

  constructor(private readonly options: ClaimLoopOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

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
      more = await this.options.tick();
    } catch (error) {
      this.options.onError?.(error);
    }
    if (!this.stopped) this.schedule(more || this.again ? 0 : this.options.intervalMs);
  }
}
