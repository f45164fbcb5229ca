import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flowHash, QueueSet, type Admission, type QueueSetObserver } from './queue-set';

interface Events {
  enqueued: string[];
  dequeued: Array<[string, boolean, number]>;
}


/** A recording observer: the queue set's events in order. */
function recorder(): { observer: QueueSetObserver<string>; events: Events } {
  const events: Events = { enqueued: [], dequeued: [] };
  return {
    events,
    observer: { enqueued: (tag) => events.enqueued.push(tag), dequeued: (tag, executed, waited) => events.dequeued.push([tag, executed, waited]) },
  };
}

describe('QueueSet', () => {
  let now = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    now = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('executes at once while seats are free, then queues, then rejects a full queue', () => {
    const { observer, events } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 2, queues: 1, handSize: 1, queueLengthLimit: 1 }, observer, () => now);
    expect(qs.admit(flowHash('fs', 'a'), 'a', 1000)).toEqual({ queue: 0 });
    expect(qs.admit(flowHash('fs', 'a'), 'a', 1000)).toEqual({ queue: 0 });
    const waiting = qs.admit(flowHash('fs', 'a'), 'a', 1000);
    expect(waiting).toBeInstanceOf(Promise);
    expect(qs.admit(flowHash('fs', 'a'), 'a', 1000)).toEqual({ reason: 'queue-full' });
    expect(qs.waitingRequests).toBe(1);
    expect(events.enqueued).toEqual(['a']);
  });

  it('dispatches a waiting request when a seat is released, and reports how long it waited', async () => {
    const { observer, events } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 4, handSize: 2, queueLengthLimit: 10 }, observer, () => now);
    const first = qs.admit(flowHash('fs', 'a'), 'a', 1000) as Admission;
    const second = qs.admit(flowHash('fs', 'b'), 'b', 1000) as Promise<Admission>;
    now = 250;
    qs.release(first.queue as number);
    expect((await second).queue).toBeGreaterThanOrEqual(0);
    expect(events.dequeued).toEqual([['b', true, 250]]);
    expect(qs.executingRequests).toBe(1);
  });

  it('rejects a request whose wait times out, and drops it from its queue', async () => {
    const { observer, events } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 1, handSize: 1, queueLengthLimit: 5 }, observer, () => now);
    qs.admit(1, 'a', 1000);
    const waiting = qs.admit(1, 'a', 1000) as Promise<Admission>;
    now = 1000;
    vi.advanceTimersByTime(1000);
    expect(await waiting).toEqual({ reason: 'time-out' });
    expect(qs.waitingRequests).toBe(0);
    expect(events.dequeued).toEqual([['a', false, 1000]]);
  });

  it('withdraws a waiting request its caller gave up on, and never one already dispatched', async () => {
    const { observer, events } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 1, handSize: 1, queueLengthLimit: 5 }, observer, () => now);
    const first = qs.admit(1, 'a', 1000) as Admission;
    let cancelWaiting = (): void => undefined;
    const waiting = qs.admit(1, 'b', 1000, (cancel) => (cancelWaiting = cancel)) as Promise<Admission>;
    let cancelDispatched = (): void => undefined;
    const dispatched = qs.admit(1, 'c', 1000, (cancel) => (cancelDispatched = cancel)) as Promise<Admission>;
    cancelWaiting();
    expect(await waiting).toEqual({ reason: 'cancelled' });
    qs.release(first.queue as number);
    expect(await dispatched).toEqual({ queue: 0 });
    cancelDispatched();
    expect(qs.executingRequests).toBe(1);
    expect(events.dequeued.map(([tag, executed]) => [tag, executed])).toEqual([['b', false], ['c', true]]);
  });

  it('rejects past the limit at once on a level without queues (Reject)', () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 0, handSize: 0, queueLengthLimit: 0 }, observer, () => now);
    const admitted = qs.admit(1, 'a', 1000) as Admission;
    expect(admitted).toEqual({ queue: 0 });
    expect(qs.admit(2, 'b', 1000)).toEqual({ reason: 'concurrency-limit' });
    qs.release(admitted.queue as number);
    expect(qs.admit(2, 'b', 1000)).toEqual({ queue: 0 });
  });

  it('serves a quiet flow before the backlog of a noisy one (fair queuing across queues)', async () => {
    const { observer } = recorder();
    // Two queues, hand of one: a hash deals queue hash % 2, so hashes 0 and 1 are two flows in two queues.
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 2, handSize: 1, queueLengthLimit: 100 }, observer, () => now);
    const order: string[] = [];
    const executing: Admission[] = [qs.admit(0, 'noisy', 10_000) as Admission];
    const track = (name: string, p: Promise<Admission>): Promise<void> => p.then((a) => void (order.push(name), executing.push(a)));
    const all = Array.from({ length: 10 }, (_, i) => track(`noisy-${i}`, qs.admit(0, 'noisy', 10_000) as Promise<Admission>));
    all.push(track('quiet', qs.admit(1, 'quiet', 10_000) as Promise<Admission>));
    while (order.length < 11) {
      qs.release(executing.shift()?.queue as number);
      for (let tick = 0; tick < 5; tick++) await Promise.resolve();
    }
    await Promise.all(all);
    // The quiet flow's one request goes no later than second, however long the noisy backlog; FIFO within a flow.
    expect(order.indexOf('quiet')).toBeLessThanOrEqual(1);
    expect(order.filter((n) => n !== 'quiet')).toEqual(Array.from({ length: 10 }, (_, i) => `noisy-${i}`));
  });

  it('moves waiting requests when the number of queues changes, and applies a new limit at once', async () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 8, handSize: 2, queueLengthLimit: 10 }, observer, () => now);
    qs.admit(5, 'a', 10_000);
    const waiting = qs.admit(5, 'a', 10_000) as Promise<Admission>;
    qs.setConfig({ concurrencyLimit: 2, queues: 2, handSize: 1, queueLengthLimit: 10 });
    expect((await waiting).queue).toBeLessThan(2);
    expect(qs.executingRequests).toBe(2);
    expect(qs.waitingRequests).toBe(0);
  });
});

describe('flowHash and shuffle sharding', () => {
  it('is deterministic, uses 53 bits and separates schema from distinguisher', () => {
    expect(flowHash('global-default', 'alice')).toBe(flowHash('global-default', 'alice'));
    expect(flowHash('global-default', 'alice')).not.toBe(flowHash('global-default', 'bob'));
    expect(flowHash('ab', 'c')).not.toBe(flowHash('a', 'bc'));
    expect(Number.isSafeInteger(flowHash('x', 'y'))).toBe(true);
  });

  it('deals a flow distinct queues: with every queue busy but one in its hand, it waits in that one', () => {
    vi.useFakeTimers();
    try {
      const { observer } = recorder();
      const qs = new QueueSet({ concurrencyLimit: 0, queues: 16, handSize: 4, queueLengthLimit: 1 }, observer, () => 0);
      // A flow with hand size 4 and queue length 1 can wait four times before its hand is full: its four queues are distinct.
      const h = flowHash('fs', 'u');
      const results = Array.from({ length: 5 }, () => qs.admit(h, 'u', 1000));
      expect(results.slice(0, 4).every((r) => r instanceof Promise)).toBe(true);
      expect(results[4]).toEqual({ reason: 'queue-full' });
    } finally {
      vi.useRealTimers();
    }
  });
});
