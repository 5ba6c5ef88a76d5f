/**
 * A budget of units per key and window: render work per API key (rendering a 1 KB template
 * or twenty 256 KB ones differs by orders of magnitude, and the request rate limit counts
 * requests, not work), failed authentications per client address. Fixed windows aligned to
 * the clock, so the whole table is dropped when a window ends and memory stays bounded by the
 * keys active in one window.
 */
import { ApiError } from '../errors.js';

export interface CostBudgetOptions {
  /** Units per key and window. */
  max: number;
  windowMs: number;
  /** What is being counted, in a sentence's words: `render units`, `failed authentications`. */
  units: string;
  /** Who spends them: `this key`, `this address`. */
  spender: string;
  now?: () => number;
}

export class CostBudget {
  private window = -1;
  private readonly spent = new Map<string, number>();
  /** Keys that have spent their whole budget in this window. */
  private exhausted = 0;
  private readonly now: () => number;

  constructor(private readonly options: CostBudgetOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Spends `units` of `key`'s budget, or throws RATE_LIMITED (429 with `Retry-After`: the
   * window's end) when the rest cannot cover them. A charge larger than the whole budget can
   * never succeed: REQUEST_TOO_COSTLY says so instead of asking the client to wait.
   */
  charge(key: string, units: number): void {
    const { max, units: what } = this.options;
    if (units > max) {
      throw new ApiError(
        'REQUEST_TOO_COSTLY',
        `this request costs ${units} ${what}; one request may cost at most ${max}`,
      );
    }
    const spent = this.spentBy(key);
    if (spent + units > max) this.refuse(spent, `and this request needs ${units}`);
    this.spend(key, spent, units);
  }

  /** Counts `units` against `key` without refusing anything (the refusal comes next time). */
  record(key: string, units = 1): void {
    this.spend(key, this.spentBy(key), units);
  }

  /** Whether some key has spent its whole budget in this window (and would be refused). */
  refusesAnyone(): boolean {
    this.rollWindow();
    return this.exhausted > 0;
  }

  private spend(key: string, spent: number, units: number): void {
    if (spent < this.options.max && spent + units >= this.options.max) this.exhausted += 1;
    this.spent.set(key, spent + units);
  }

  /** Throws RATE_LIMITED when `key` has spent its whole budget in this window. */
  refuseIfSpent(key: string): void {
    const spent = this.spentBy(key);
    if (spent >= this.options.max) this.refuse(spent, '');
  }

  private spentBy(key: string): number {
    this.rollWindow();
    return this.spent.get(key) ?? 0;
  }

  /** A new window starts with nothing spent. */
  private rollWindow(): void {
    const window = Math.floor(this.now() / this.options.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.spent.clear();
      this.exhausted = 0;
    }
  }

  private refuse(spent: number, detail: string): never {
    const { max, windowMs, units, spender } = this.options;
    const now = this.now();
    const retryAfter = Math.max(1, Math.ceil(((Math.floor(now / windowMs) + 1) * windowMs - now) / 1000));
    const error = new ApiError(
      'RATE_LIMITED',
      `${spender} has spent ${spent} of its ${max} ${units} in this window${detail ? ` ${detail}` : ''}; retry after ${retryAfter} seconds`,
    );
    error.retryAfter = retryAfter;
    throw error;
  }
}
