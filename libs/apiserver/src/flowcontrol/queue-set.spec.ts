import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkEstimate } from './flowcontrol.work-estimator';
import { flowHash, QueueSet, Ticket, type QueueSetObserver, type RejectReason } from './queue-set';

interface Events {
  enqueued: string[];
  dequeued: Array<[string, boolean, number]>;
  demand: number[];
}

const seats = (initialSeats: number, finalSeats = 0, additionalLatencyMs = 0): WorkEstimate => ({ initialSeats, finalSeats, additionalLatencyMs });
const ONE = seats(1);

/** A recording observer: the queue set's events in order. */
function recorder(): { observer: QueueSetObserver<string>; events: Events } {
  const events: Events = { enqueued: [], dequeued: [], demand: [] };
  return {
    events,
    observer: {
      enqueued: (tag) => events.enqueued.push(tag),
      dequeued: (tag, executed, waited) => events.dequeued.push([tag, executed, waited]),
      seats: () => undefined,
      demand: (n) => events.demand.push(n),
    },
  };
}

type Admitted = Ticket<string> | RejectReason;

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
    expect(qs.admit(flowHash('fs', 'a'), ONE, 'a', 1000)).toBeInstanceOf(Ticket);
    expect(qs.admit(flowHash('fs', 'a'), ONE, 'a', 1000)).toBeInstanceOf(Ticket);
    const waiting = qs.admit(flowHash('fs', 'a'), ONE, 'a', 1000);
    expect(waiting).toBeInstanceOf(Promise);
    expect(qs.admit(flowHash('fs', 'a'), ONE, 'a', 1000)).toBe('queue-full');
    expect(qs.waitingRequests).toBe(1);
    expect(events.enqueued).toEqual(['a']);
    // Seat demand: seats in use plus seats waiting.
    expect(events.demand).toEqual([1, 2, 3]);
  });

  it('dispatches a waiting request when a seat is released, and reports how long it waited', async () => {
    const { observer, events } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 4, handSize: 2, queueLengthLimit: 10 }, observer, () => now);
    const first = qs.admit(flowHash('fs', 'a'), ONE, 'a', 1000) as Ticket<string>;
    const second = qs.admit(flowHash('fs', 'b'), ONE, 'b', 1000) as Promise<Admitted>;
    now = 250;
    qs.finish(first);
    expect(await second).toBeInstanceOf(Ticket);
    expect(events.dequeued).toEqual([['b', true, 250]]);
    expect(qs.executingRequests).toBe(1);
  });

  it('rejects a request whose wait times out, and drops it from its queue', async () => {
    const { observer, events } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 1, handSize: 1, queueLengthLimit: 5 }, observer, () => now);
    qs.admit(1, ONE, 'a', 1000);
    const waiting = qs.admit(1, ONE, 'a', 1000) as Promise<Admitted>;
    now = 1000;
    vi.advanceTimersByTime(1000);
    expect(await waiting).toBe('time-out');
    expect(qs.waitingRequests).toBe(0);
    expect(events.dequeued).toEqual([['a', false, 1000]]);
    expect(qs.dump()).toMatchObject({ rejected: 1, timedOut: 1, cancelled: 0 });
  });

  it('withdraws a waiting request its caller gave up on, and never one already dispatched', async () => {
    const { observer, events } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 1, handSize: 1, queueLengthLimit: 5 }, observer, () => now);
    const first = qs.admit(1, ONE, 'a', 1000) as Ticket<string>;
    let cancelWaiting = (): void => undefined;
    const waiting = qs.admit(1, ONE, 'b', 1000, (cancel) => (cancelWaiting = cancel)) as Promise<Admitted>;
    let cancelDispatched = (): void => undefined;
    const dispatched = qs.admit(1, ONE, 'c', 1000, (cancel) => (cancelDispatched = cancel)) as Promise<Admitted>;
    cancelWaiting();
    expect(await waiting).toBe('cancelled');
    qs.finish(first);
    expect(await dispatched).toBeInstanceOf(Ticket);
    cancelDispatched();
    expect(qs.executingRequests).toBe(1);
    expect(events.dequeued.map(([tag, executed]) => [tag, executed])).toEqual([['b', false], ['c', true]]);
  });

  it('rejects past the limit at once on a level without queues (Reject), counting seats', () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 3, queues: 0, handSize: 0, queueLengthLimit: 0 }, observer, () => now);
    const wide = qs.admit(1, seats(2), 'a', 1000) as Ticket<string>;
    expect(wide.queueIndex).toBe(-1);
    expect(qs.admit(2, seats(2), 'b', 1000)).toBe('concurrency-limit');
    expect(qs.admit(2, ONE, 'b', 1000)).toBeInstanceOf(Ticket);
    qs.finish(wide);
    expect(qs.admit(2, seats(2), 'b', 1000)).toBeInstanceOf(Ticket);
  });

  it('serves a quiet flow before the backlog of a noisy one (fair queuing across queues)', async () => {
    const { observer } = recorder();
    // Two queues, hand of one: a hash deals queue hash % 2, so hashes 0 and 1 are two flows in two queues.
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 2, handSize: 1, queueLengthLimit: 100 }, observer, () => now);
    const order: string[] = [];
    const executing: Array<Ticket<string>> = [qs.admit(0, ONE, 'noisy', 10_000) as Ticket<string>];
    const track = (name: string, p: Promise<Admitted>): Promise<void> => p.then((a) => void (order.push(name), executing.push(a as Ticket<string>)));
    const all = Array.from({ length: 10 }, (_, i) => track(`noisy-${i}`, qs.admit(0, ONE, 'noisy', 10_000) as Promise<Admitted>));
    now += 1;
    all.push(track('quiet', qs.admit(1, ONE, 'quiet', 10_000) as Promise<Admitted>));
    while (order.length < 11) {
      now += 3;
      qs.finish(executing.shift() as Ticket<string>);
      for (let tick = 0; tick < 5; tick++) await Promise.resolve();
    }
    await Promise.all(all);
    // The quiet flow's one request goes no later than second, however long the noisy backlog; FIFO within a flow.
    expect(order.indexOf('quiet')).toBeLessThanOrEqual(1);
    expect(order.filter((n) => n !== 'quiet')).toEqual(Array.from({ length: 10 }, (_, i) => `noisy-${i}`));
  });

  it('holds a wide request until its seats are free, and lets nothing narrower overtake it (kube TestFindDispatchQueueLocked)', async () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 3, queues: 2, handSize: 1, queueLengthLimit: 10 }, observer, () => now);
    const running = [qs.admit(0, ONE, 'a', 10_000), qs.admit(0, ONE, 'a', 10_000)] as Array<Ticket<string>>;
    // One seat free, the request that finishes first wants two: it waits, and so does the narrow one queued after it.
    const wide = qs.admit(1, seats(2), 'wide', 10_000) as Promise<Admitted>;
    now += 1;
    const narrow = qs.admit(0, ONE, 'narrow', 10_000) as Promise<Admitted>;
    expect(qs.waitingRequests).toBe(2);
    expect(qs.seatsExecuting).toBe(2);
    now += 5;
    qs.finish(running[0]);
    expect(await wide).toBeInstanceOf(Ticket);
    expect(qs.seatsExecuting).toBe(3);
    expect(qs.waitingRequests).toBe(1);
    qs.finish(running[1]);
    expect(await narrow).toBeInstanceOf(Ticket);
  });

  it('runs a request wider than the whole limit alone (kube TestTooWide)', async () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 2, queues: 4, handSize: 2, queueLengthLimit: 10 }, observer, () => now);
    const one = qs.admit(5, ONE, 'a', 10_000) as Ticket<string>;
    const tooWide = qs.admit(9, seats(5), 'wide', 10_000) as Promise<Admitted>;
    expect(qs.waitingRequests).toBe(1);
    qs.finish(one);
    const t = (await tooWide) as Ticket<string>;
    expect(qs.seatsExecuting).toBe(5);
    expect(qs.admit(5, ONE, 'a', 10_000)).toBeInstanceOf(Promise);
    qs.finish(t);
    expect(qs.seatsExecuting).toBe(1);
  });

  it('keeps the final seats of a write for its additional latency after it finished', async () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 4, queues: 4, handSize: 2, queueLengthLimit: 10 }, observer, () => now);
    const write = qs.admit(3, seats(1, 3, 5), 'w', 10_000) as Ticket<string>;
    expect(qs.seatsExecuting).toBe(3);
    qs.finish(write);
    // The client has its answer; the seats stay taken for the watch events for 5 ms.
    expect(qs.executingRequests).toBe(0);
    expect(qs.seatsExecuting).toBe(3);
    now += 5;
    vi.advanceTimersByTime(5);
    expect(qs.seatsExecuting).toBe(0);
  });

  it("corrects a queue's virtual clock by the real service time when a request finishes (kube TestFinishRequestLocked)", () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 1, handSize: 1, queueLengthLimit: 10 }, observer, () => now);
    const t = qs.admit(1, seats(2), 'a', 10_000) as Ticket<string>;
    // Dispatched with its estimated work: 2 seats × 3 ms.
    expect(qs.dump().queues[0].nextDispatchR).toBeCloseTo(0.006, 9);
    now += 10;
    qs.finish(t);
    // It took 10 ms, not 3: the queue owes 2 seats × 7 ms more.
    expect(qs.dump().queues[0].nextDispatchR).toBeCloseTo(0.006 + 2 * 0.007, 9);
    expect(qs.dump().queues[0]).toMatchObject({ executing: 0, seatsInUse: 0, initialSeatsSum: 0, maxSeatsSum: 0, totalWorkSum: 0 });
  });

  it('advances virtual time at min(seats wanted, limit) / active queues', () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 4, queues: 8, handSize: 1, queueLengthLimit: 10 }, observer, () => now);
    qs.admit(0, seats(1), 'a', 10_000);
    qs.admit(1, seats(1), 'b', 10_000);
    expect(qs.virtualTime).toBe(0);
    now += 1000;
    // Two queues busy with one seat each: R advances one seat-second per second.
    expect(qs.virtualTime).toBeCloseTo(1, 9);
    qs.admit(1, seats(2), 'b', 10_000);
    now += 1000;
    // Four seats in use on two queues, the limit 4: two seat-seconds per second.
    expect(qs.virtualTime).toBeCloseTo(3, 9);
  });

  it('gives flows of different widths equal seat-seconds (kube TestDifferentWidths)', async () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 6, queues: 8, handSize: 1, queueLengthLimit: 100 }, observer, () => Date.now());
    const delivered = [0, 0];
    const width = [1, 2];
    let stop = false;
    // Each flow keeps ten requests outstanding; every request executes 10 ms.
    const client = async (flow: number): Promise<void> => {
      while (!stop) {
        let a = qs.admit(flow, seats(width[flow]), String(flow), 60_000);
        if (a instanceof Promise) a = await a;
        if (typeof a === 'string') throw new Error(a);
        await new Promise((r) => setTimeout(r, 10));
        delivered[flow] += width[flow] * 10;
        qs.finish(a);
      }
    };
    const clients = [0, 1].flatMap((flow) => Array.from({ length: 10 }, () => client(flow)));
    await vi.advanceTimersByTimeAsync(5_000);
    stop = true;
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(clients);
    // Six seats, both flows always waiting: three seats each, whatever the widths.
    expect(delivered[0] / delivered[1]).toBeGreaterThan(0.9);
    expect(delivered[0] / delivered[1]).toBeLessThan(1.1);
  });

  it('charges a flow its work in progress at dispatch: a flow that becomes active gets the first seat that frees, however long the busy flow\'s requests run', async () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 4, queues: 8, handSize: 1, queueLengthLimit: 100 }, observer, () => Date.now());
    const dispatched: string[] = [];
    let stop = false;
    let n = 0;
    // Forty requests of one flow always outstanding, each running 40-60 ms (far past kube's 3 ms guess).
    const noisy = async (): Promise<void> => {
      while (!stop) {
        let a = qs.admit(0, ONE, 'noisy', 60_000);
        if (a instanceof Promise) a = await a;
        if (typeof a === 'string') throw new Error(a);
        dispatched.push('noisy');
        await new Promise((r) => setTimeout(r, 40 + ((n++ * 7) % 21)));
        qs.finish(a);
      }
    };
    const clients = Array.from({ length: 40 }, noisy);
    await vi.advanceTimersByTimeAsync(2_000);
    const from = dispatched.length;
    const quiet = qs.admit(1, ONE, 'quiet', 60_000) as Promise<Admitted>;
    void quiet.then(() => dispatched.push('quiet'));
    await vi.advanceTimersByTimeAsync(200);
    stop = true;
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all(clients);
    // Nothing of the busy flow was dispatched between the quiet request's arrival and its own dispatch.
    expect(dispatched.slice(from)[0]).toBe('quiet');
    qs.finish((await quiet) as Ticket<string>);
  });

  it('adds queues when the configuration asks for more, drops extra ones once empty, and applies a new limit at once', async () => {
    const { observer } = recorder();
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 8, handSize: 2, queueLengthLimit: 10 }, observer, () => now);
    const first = qs.admit(5, ONE, 'a', 10_000) as Ticket<string>;
    const waiting = qs.admit(5, ONE, 'a', 10_000) as Promise<Admitted>;
    qs.setConfig({ concurrencyLimit: 2, queues: 2, handSize: 1, queueLengthLimit: 10 });
    expect(await waiting).toBeInstanceOf(Ticket);
    expect(qs.executingRequests).toBe(2);
    expect(qs.waitingRequests).toBe(0);
    qs.finish(first);
    qs.finish((await waiting) as Ticket<string>);
    expect(qs.dump().queues).toHaveLength(2);
    qs.setConfig({ concurrencyLimit: 2, queues: 16, handSize: 4, queueLengthLimit: 10 });
    expect(qs.dump().queues).toHaveLength(16);
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
      const qs = new QueueSet({ concurrencyLimit: 1, queues: 16, handSize: 4, queueLengthLimit: 1 }, observer, () => 0);
      // A flow with hand size 4 and queue length 1 can wait four times before its hand is full: its four queues are distinct.
      const h = flowHash('fs', 'u');
      expect(qs.admit(h, ONE, 'u', 1000)).toBeInstanceOf(Ticket);
      const results = Array.from({ length: 5 }, () => qs.admit(h, ONE, 'u', 1000));
      expect(results.slice(0, 4).every((r) => r instanceof Promise)).toBe(true);
      expect(results[4]).toBe('queue-full');
    } finally {
      vi.useRealTimers();
    }
  });
});
