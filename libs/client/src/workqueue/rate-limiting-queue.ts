import { WorkQueue } from './queue';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters';

/**
 * client-go's delaying + rate-limiting queue (delaying_queue.go, rate_limiting_queue.go): `addAfter` adds a key
 * once its delay has passed (an earlier pending time wins), `addRateLimited` delays it by the rate limiter's
 * backoff, `forget` clears that backoff after a success.
 */
export class RateLimitingQueue<T> extends WorkQueue<T> {
  private readonly timers = new Map<T, { at: number; timer: NodeJS.Timeout }>();

  constructor(private readonly rateLimiter: RateLimiter<T> = defaultControllerRateLimiter<T>()) {
    super();
  }

  addAfter(item: T, delayMs: number): void {
    if (this.isShuttingDown) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const at = Date.now() + delayMs;
    const waiting = this.timers.get(item);
    if (waiting && waiting.at <= at) return;
    if (waiting) clearTimeout(waiting.timer);
    const timer = setTimeout(() => {
      this.timers.delete(item);
      this.add(item);
    }, delayMs);
    timer.unref();
    this.timers.set(item, { at, timer });
  }

  addRateLimited(item: T): void {
    this.addAfter(item, this.rateLimiter.when(item));
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  override shutDown(): void {
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    super.shutDown();
  }
}
