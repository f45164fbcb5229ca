/** client-go's workqueue.TypedRateLimiter (default_rate_limiters.go): how long an item waits before its retry. */
export interface RateLimiter<T> {
  /** The delay before the item's next attempt (each call counts one failure). */
  when(item: T): number;
  /** The item succeeded: its failure history is dropped. */
  forget(item: T): void;
  numRequeues(item: T): number;
}

/** baseMs · 2^failures, capped at maxMs: per-item exponential backoff. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseMs * 2 ** exp;
    return Number.isFinite(backoff) ? Math.min(backoff, this.maxMs) : this.maxMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** A token bucket over all items (qps refill, burst size): the overall retry rate limit. */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  when(_item: T): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    // Reserve a token; a negative balance is the wait until it is refilled.
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.qps) * 1000);
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest delay of several limiters (client-go's MaxOfRateLimiter). */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: ReadonlyArray<RateLimiter<T>>;

  constructor(...limiters: Array<RateLimiter<T>>) {
    this.limiters = limiters;
  }

  when(item: T): number {
    return Math.max(...this.limiters.map((l) => l.when(item)));
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    return Math.max(...this.limiters.map((l) => l.numRequeues(item)));
  }
}

/**
 * client-go's DefaultTypedControllerRateLimiter: per-item 5 ms · 2^n up to `maxMs` (kube: 1000 s), and 10 qps
 * with a burst of 100 over all items.
 */
export function defaultControllerRateLimiter<T>(maxMs = 1_000_000): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, maxMs), new BucketRateLimiter<T>(10, 100));
}
