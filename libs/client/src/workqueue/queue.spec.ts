import { describe, expect, it } from 'vitest';
import { WorkQueue } from './queue';
import { RateLimitingQueue } from './rate-limiting-queue';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from './rate-limiters';

describe('WorkQueue (client-go queue.go semantics)', () => {
  it('hands out keys in FIFO order and de-duplicates keys not yet handed out', async () => {
    const q = new WorkQueue<string>();
    for (const k of ['a', 'b', 'a', 'c', 'b']) q.add(k);
    expect(q.len()).toBe(3);
    expect([await q.get(), await q.get(), await q.get()]).toEqual(['a', 'b', 'c']);
  });

  it('never hands a key out twice at once: added while processing, it is queued once more after done', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const first = await q.get();
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(0);
    expect(q.isProcessing('a') && q.isDirty('a')).toBe(true);
    q.done(first as string);
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('a');
    q.done('a');
    expect(q.has('a')).toBe(false);
    expect(q.len()).toBe(0);
  });

  it('wakes a waiting worker on add, and releases every waiter with undefined on shutDown', async () => {
    const q = new WorkQueue<string>();
    const waiting = q.get();
    q.add('x');
    expect(await waiting).toBe('x');
    const w1 = q.get();
    const w2 = q.get();
    q.shutDown();
    expect([await w1, await w2]).toEqual([undefined, undefined]);
    q.add('y');
    expect(q.len()).toBe(0);
    expect(await q.get()).toBeUndefined();
  });

  it('shutDownWithDrain waits for the keys being processed', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    q.done('a');
    await drain;
    expect(drained).toBe(true);
  });
});

describe('rate limiters (client-go default_rate_limiters.go)', () => {
  it('backs off exponentially per item up to the cap, and forget resets it', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 100);
    expect([l.when('a'), l.when('a'), l.when('a'), l.when('a'), l.when('a'), l.when('a')]).toEqual([5, 10, 20, 40, 80, 100]);
    expect(l.when('b')).toBe(5);
    expect(l.numRequeues('a')).toBe(6);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(l.when('a')).toBe(5);
  });

  it('limits the overall rate with a token bucket once its burst is spent', () => {
    let now = 0;
    const l = new BucketRateLimiter<string>(10, 2, () => now);
    expect([l.when('a'), l.when('b')]).toEqual([0, 0]);
    expect(l.when('c')).toBe(100);
    expect(l.when('d')).toBe(200);
    now = 1000;
    expect(l.when('e')).toBe(0);
  });

  it('MaxOf takes the longest delay', () => {
    let now = 0;
    const l = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 1000), new BucketRateLimiter(10, 1, () => now));
    expect(l.when('a')).toBe(5);
    expect(l.when('a')).toBe(100);
    now = 10_000;
    expect(l.when('a')).toBe(20);
  });
});

describe('RateLimitingQueue', () => {
  it('adds a key after its delay, keeping the earliest of two pending delays', async () => {
    const q = new RateLimitingQueue<string>();
    q.addAfter('a', 10_000);
    q.addAfter('a', 20);
    q.addAfter('a', 30_000);
    expect(q.len()).toBe(0);
    expect(await q.get()).toBe('a');
    q.shutDown();
  });

  it('delays rate-limited retries by the per-item backoff until forgotten', async () => {
    const q = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(30, 1000));
    q.addRateLimited('a');
    q.addRateLimited('a');
    expect(q.numRequeues('a')).toBe(2);
    expect(q.len()).toBe(0);
    expect(await q.get()).toBe('a');
    q.forget('a');
    expect(q.numRequeues('a')).toBe(0);
    q.shutDown();
  });
});
