import { Logger } from '@nestjs/common';
import { RateLimitingQueue } from '../workqueue/rate-limiting-queue';
import type { RateLimiter } from '../workqueue/rate-limiters';

/** What a reconcile asks for after it returned without error. */
export interface ReconcileResult {
  /** Look again after this long (a level not reached yet: content still being deleted, a backend down). */
  requeueAfterMs?: number;
  /** Retry with the rate limiter's backoff, without logging a failure (an expected conflict). */
  requeue?: boolean;
}

export type Reconcile = (key: string) => Promise<ReconcileResult | void>;

/** Anything with a sync state a controller waits for before its workers start (informers, a factory). */
export interface Syncable {
  waitForSync?(): Promise<void>;
  waitForCacheSync?(): Promise<void>;
}

export interface ControllerOptions {
  /** For logs: the controller's kube name. */
  name: string;
  reconcile: Reconcile;
  /** Parallel reconciles (different keys; one key is never reconciled twice at once). Default 1. */
  workers?: number;
  /** Default: client-go's default controller rate limiter. */
  rateLimiter?: RateLimiter<string>;
  /** Caches that must be synced before the first reconcile. */
  waitFor?: Syncable[];
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The loop every kube controller runs (a rate-limited queue of keys, N workers, reconcile(key), retry with
 * backoff on error, forget on success), plus what our callers need on top: `sync(key)` to wait for a pass that
 * started after the call, `settled(key)` to wait for the pass under way and the one queued behind it, and
 * `run()` resolving once every key queued before the caches synced was reconciled once (the controller's
 * post-start hook).
 */
export class Controller {
  readonly queue: RateLimitingQueue<string>;
  private readonly logger: Logger;
  private readonly pending = new Map<string, Waiter[]>();
  private readonly current = new Map<string, Waiter[]>();
  private firstPass?: Set<string> = new Set();
  private firstPassDone?: () => void;

  constructor(private readonly options: ControllerOptions) {
    this.queue = new RateLimitingQueue<string>(options.rateLimiter);
    this.logger = new Logger(options.name);
  }

  enqueue(key: string): void {
    this.firstPass?.add(key);
    this.queue.add(key);
  }

  enqueueAfter(key: string, delayMs: number): void {
    this.queue.addAfter(key, delayMs);
  }

  /**
   * Waits for the caches, starts the workers, and resolves once each key queued before the caches synced was
   * reconciled once (successfully or not: a failing key is retried, not waited for).
   */
  async run(): Promise<void> {
    for (const s of this.options.waitFor ?? []) await (s.waitForCacheSync?.() ?? s.waitForSync?.());
    if (this.queue.isShuttingDown) return;
    const done = new Promise<void>((resolve) => (this.firstPassDone = resolve));
    for (let i = 0; i < (this.options.workers ?? 1); i++) void this.work();
    this.checkFirstPass();
    await done;
  }

  /** Queues the key and resolves when a reconcile of it that starts after this call has finished (rejects with its error). */
  sync(key: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waitersOf(this.pending, key).push({ resolve, reject });
      this.enqueue(key);
    });
  }

  /** Resolves when the reconcile of the key under way and the one queued behind it (if any) are done. */
  settled(key: string): Promise<void> {
    const list = this.queue.isDirty(key) ? this.pending : this.queue.isProcessing(key) ? this.current : undefined;
    if (!list) return Promise.resolve();
    return new Promise<void>((resolve) => this.waitersOf(list, key).push({ resolve, reject: () => resolve() }));
  }

  /**
   * Stops taking keys and releases every waiter. Reconciles under way finish on their own: shutdown never waits
   * for one stuck on an unreachable backend or etcd.
   */
  async shutDown(): Promise<void> {
    this.queue.shutDown();
    for (const waiters of [...this.pending.values(), ...this.current.values()]) for (const w of waiters) w.resolve();
    this.pending.clear();
    this.current.clear();
    this.firstPassDone?.();
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      // settled() may have registered for this pass already: the queue hands a key to an idle worker at once.
      const waiters = this.current.get(key) ?? [];
      waiters.push(...(this.pending.get(key) ?? []));
      this.pending.delete(key);
      this.current.set(key, waiters);
      let failure: { err: unknown } | undefined;
      try {
        const result = await this.options.reconcile(key);
        if (result?.requeue) this.queue.addRateLimited(key);
        else {
          this.queue.forget(key);
          if (result?.requeueAfterMs !== undefined) this.queue.addAfter(key, result.requeueAfterMs);
        }
      } catch (err) {
        failure = { err };
        this.logger.warn(`${key}: ${(err as Error).message}`);
        this.queue.addRateLimited(key);
      } finally {
        this.current.delete(key);
        this.queue.done(key);
      }
      for (const w of waiters) if (failure) w.reject(failure.err); else w.resolve();
      this.firstPass?.delete(key);
      this.checkFirstPass();
    }
  }

  private checkFirstPass(): void {
    if (!this.firstPassDone || this.firstPass?.size) return;
    this.firstPass = undefined;
    this.firstPassDone();
  }

  private waitersOf(map: Map<string, Waiter[]>, key: string): Waiter[] {
    const list = map.get(key) ?? [];
    map.set(key, list);
    return list;
  }
}
