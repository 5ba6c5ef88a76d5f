/**
 * A budget of work units per key and window, for routes whose cost varies by orders of
 * magnitude between requests (rendering a 1 KB template or twenty 256 KB ones). The request
 * rate limit counts requests; this counts what they make the server do. Fixed windows aligned
 * to the clock, so the whole table is dropped when a window ends and memory stays bounded by
 * the keys active in one window.
 */
import { ApiError } from './errors.js';

export class CostBudget {
  private window = -1;
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Spends `units` of `key`'s budget, or throws RATE_LIMITED (429, with `retryAfter` seconds to
   * the window's end) when the rest of the budget cannot cover them. A charge larger than the
   * whole budget can never succeed and says so.
   */
  charge(key: string, units: number): void {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.spent.clear();
    }
    const spent = this.spent.get(key) ?? 0;
    if (units > this.max) {
      throw new ApiError(
        'REQUEST_TOO_COSTLY',
        `this request costs ${units} ${this.what} units; one request may cost at most ${this.max}`,
      );
    }
    if (spent + units > this.max) {
      const retryAfter = Math.ceil(((window + 1) * this.windowMs - now) / 1000);
      throw Object.assign(
        new ApiError(
          'RATE_LIMITED',
          `this key has spent ${spent} of its ${this.max} ${this.what} units in this window and this request needs ${units}; retry after ${retryAfter} seconds`,
        ),
        { retryAfter },
      );
    }
    this.spent.set(key, spent + units);
  }
}
