import { describe, expect, it } from 'vitest';
import { ItemExponentialFailureRateLimiter } from '../workqueue/rate-limiters';
import { Controller } from './controller.runner';

const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('Controller', () => {
  it('reconciles each queued key, never one key on two workers, and once more for a key queued while it ran', async () => {
    const runs: string[] = [];
    const inFlight = new Map<string, number>();
    let maxSameKey = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const c = new Controller({
      name: 'test',
      workers: 3,
      reconcile: async (key) => {
        inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
        maxSameKey = Math.max(maxSameKey, inFlight.get(key) as number);
        runs.push(key);
        if (runs.length === 1) await gate;
        inFlight.set(key, (inFlight.get(key) as number) - 1);
      },
    });
    c.enqueue('a');
    const firstPass = c.run();
    while (runs.length === 0) await tick(1);
    // 'a' is being reconciled: queued again (twice) it waits for that pass, then runs once more.
    c.enqueue('a');
    c.enqueue('a');
    c.enqueue('b');
    await tick(10);
    expect(runs).toEqual(['a', 'b']);
    release();
    await firstPass;
    await c.settled('a');
    expect(runs).toEqual(['a', 'b', 'a']);
    expect(maxSameKey).toBe(1);
    await c.shutDown();
  });

  it('settled() right after enqueue waits for that pass, even when an idle worker took the key at once', async () => {
    let release!: () => void;
    const c = new Controller({ name: 'test', reconcile: () => new Promise<void>((r) => (release = r)) });
    await c.run();
    await tick(1);
    c.enqueue('k');
    let settled = false;
    const wait = c.settled('k').then(() => (settled = true));
    await tick(5);
    expect(settled).toBe(false);
    release();
    await wait;
    expect(settled).toBe(true);
    await c.shutDown();
  });

  it('run() resolves once every key queued before the caches synced was reconciled once', async () => {
    let synced!: () => void;
    const cache = { waitForSync: () => new Promise<void>((r) => (synced = r)) };
    const done: string[] = [];
    const c = new Controller({ name: 'test', workers: 2, waitFor: [cache], reconcile: async (key) => void (await tick(5), done.push(key)) });
    let ran = false;
    const run = c.run().then(() => (ran = true));
    c.enqueue('x');
    c.enqueue('y');
    await tick(20);
    expect(done).toEqual([]);
    synced();
    await run;
    expect(ran).toBe(true);
    expect(done.sort()).toEqual(['x', 'y']);
    await c.shutDown();
  });

  it('retries a failing key with backoff until it succeeds, and sync() rejects with the failure of its pass', async () => {
    let failures = 2;
    const attempts: number[] = [];
    const c = new Controller({
      name: 'test',
      rateLimiter: new ItemExponentialFailureRateLimiter(10, 100),
      reconcile: async () => {
        attempts.push(Date.now());
        if (failures-- > 0) throw new Error('conflict');
      },
    });
    await c.run();
    await expect(c.sync('k')).rejects.toThrow('conflict');
    const deadline = Date.now() + 20_000;
    while (attempts.length < 3 && Date.now() < deadline) await tick(5);
    expect(attempts.length).toBe(3);
    expect(c.queue.numRequeues('k')).toBe(0);
    await c.sync('k');
    expect(attempts.length).toBe(4);
    await c.shutDown();
  });

  it('requeues after the asked delay, and shutDown stops taking keys', async () => {
    const runs: number[] = [];
    const c = new Controller({ name: 'test', reconcile: async () => (runs.push(Date.now()), runs.length < 3 ? { requeueAfterMs: 30 } : undefined) });
    await c.run();
    c.enqueue('k');
    const deadline = Date.now() + 20_000;
    while (runs.length < 3 && Date.now() < deadline) await tick(5);
    expect(runs.length).toBe(3);
    expect(runs[1] - runs[0]).toBeGreaterThanOrEqual(25);
    await c.shutDown();
    c.enqueue('k');
    await tick(50);
    expect(runs.length).toBe(3);
  });
});
