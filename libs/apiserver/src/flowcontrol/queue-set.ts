/**
 * Fair queuing for one priority level (kube's fairqueuing/queueset, simplified): a concurrency limit in seats
 * (one per request), and for a Queue level `queues` FIFO queues. A flow is dealt `handSize` queues by shuffle
 * sharding on its hash and waits in the shortest; seats go to queues in start-time fair queuing order (each
 * request's virtual start is max(virtual time, its queue's last finish), one unit of work each), so a flow that
 * floods its queues gets no more seats than any other busy queue.
 */

/** Why a request was not executed: apiserver_flowcontrol_rejected_requests_total's `reason`. */
export type RejectReason = 'queue-full' | 'time-out' | 'concurrency-limit' | 'cancelled';

export interface QueueSetConfig {
  /** Seats executing at once (the level's nominal concurrency limit). */
  concurrencyLimit: number;
  /** 0 for a Reject level: over the limit means rejected at once. */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** Receives the level's queueing events, for metrics (the request's FlowSchema comes along as `tag`). */
export interface QueueSetObserver<T> {
  enqueued(tag: T): void;
  /** Left its queue: dispatched (`executed`) or timed out/cancelled; `waitedMs` in the queue. */
  dequeued(tag: T, executed: boolean, waitedMs: number): void;
}

/** What a request got: the queue it executes from (release it when done), or why it was rejected. */
export type Admission = { queue: number; reason?: undefined } | { queue?: undefined; reason: RejectReason };

interface Waiter<T> {
  queue: Queue<T>;
  readonly start: number;
  readonly enqueuedAt: number;
  readonly tag: T;
  /** What the caller said about the request, for the debug dump (/debug/api_priority_and_fairness/dump_requests). */
  readonly detail: unknown;
  resolve(admission: Admission): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

class Queue<T> {
  readonly waiting: Array<Waiter<T>> = [];
  executing = 0;
  /** Virtual finish of the last request queued here. */
  lastFinish = 0;
  constructor(readonly index: number) {}
}

const EXECUTING_FROM: Admission[] = [];
function admitted(queue: number): Admission {
  // One frozen object per queue index: the hot path allocates nothing for a request that executes at once.
  return EXECUTING_FROM[queue] ?? (EXECUTING_FROM[queue] = Object.freeze({ queue }));
}

/** A waiting request as /debug/api_priority_and_fairness/dump_requests prints it. */
export interface WaitingRequestDump<T> {
  tag: T;
  detail: unknown;
  /** Epoch ms it entered its queue. */
  arrivedAt: number;
}

/** One queue as dump_queues prints it; work in units of one request (one seat for one estimated service time). */
export interface QueueDump<T> {
  waiting: Array<WaitingRequestDump<T>>;
  executing: number;
  /** Virtual time at which the queue's head is dispatched (the last finish when none waits). */
  nextDispatch: number;
}

export interface QueueSetDump<T> {
  queues: Array<QueueDump<T>>;
  waiting: number;
  executing: number;
}

export const REJECTED: Readonly<Record<RejectReason, Admission>> = {
  'queue-full': { reason: 'queue-full' },
  'time-out': { reason: 'time-out' },
  'concurrency-limit': { reason: 'concurrency-limit' },
  cancelled: { reason: 'cancelled' },
};

export class QueueSet<T> {
  private config!: QueueSetConfig;
  private queues: Array<Queue<T>> = [];
  private readonly remainders: number[] = [];
  private executing = 0;
  private waitingTotal = 0;
  /** Virtual time: the start of the request dispatched last. */
  private virtualTime = 0;

  constructor(
    config: QueueSetConfig,
    private readonly observer: QueueSetObserver<T>,
    private readonly now: () => number = Date.now,
  ) {
    this.setConfig(config);
  }

  get executingRequests(): number {
    return this.executing;
  }

  get waitingRequests(): number {
    return this.waitingTotal;
  }

  get concurrencyLimit(): number {
    return this.config.concurrencyLimit;
  }

  /**
   * A new configuration: the limit applies at once; when the queues change, waiting requests move to the
   * new queues in their order (kube lets old queues drain instead).
   */
  setConfig(config: QueueSetConfig): void {
    const reshape = !this.config || config.queues !== this.config.queues;
    this.config = config;
    if (reshape) {
      const old = this.queues;
      this.queues = Array.from({ length: Math.max(config.queues, 1) }, (_, i) => new Queue<T>(i));
      for (const q of old) {
        const target = this.queues[q.index % this.queues.length];
        target.executing += q.executing;
        for (const w of q.waiting) {
          w.queue = target;
          target.waiting.push(w);
        }
      }
    }
    this.dispatch();
  }

  /**
   * Admits a request of the flow whose hash is `flowHash`: executing at once (synchronously), rejected, or,
   * when it has to wait, a promise settled when it is dispatched, after `waitLimitMs`, or when the caller gives
   * up (`onCancel`, called only for a request that waits, receives the function that withdraws it).
   */
  admit(flowHash: number, tag: T, waitLimitMs: number, onCancel?: (cancel: () => void) => void, detail?: unknown): Admission | Promise<Admission> {
    const { queues, concurrencyLimit, queueLengthLimit } = this.config;
    if (queues === 0) {
      if (this.executing >= concurrencyLimit) return REJECTED['concurrency-limit'];
      this.executing++;
      this.queues[0].executing++;
      return admitted(0);
    }
    const queue = this.chooseQueue(flowHash);
    if (this.waitingTotal === 0 && this.executing < concurrencyLimit) {
      this.executing++;
      queue.executing++;
      return admitted(queue.index);
    }
    if (queue.waiting.length >= queueLengthLimit) return REJECTED['queue-full'];
    return new Promise<Admission>((resolve) => {
      const start = Math.max(this.virtualTime, queue.lastFinish);
      queue.lastFinish = start + 1;
      const waiter: Waiter<T> = { queue, start, enqueuedAt: this.now(), tag, detail, resolve, timer: undefined };
      waiter.timer = setTimeout(() => this.withdraw(waiter, REJECTED['time-out']), waitLimitMs);
      queue.waiting.push(waiter);
      this.waitingTotal++;
      this.observer.enqueued(tag);
      onCancel?.(() => this.withdraw(waiter, REJECTED.cancelled));
      this.dispatch();
    });
  }

  /** Whether nothing waits and nothing executes (kube's QueueSet.IsIdle). */
  get idle(): boolean {
    return this.waitingTotal === 0 && this.executing === 0;
  }

  /** A snapshot of the queues, for the debug endpoints (never on a request's path). */
  dump(): QueueSetDump<T> {
    return {
      waiting: this.waitingTotal,
      executing: this.executing,
      queues: this.config.queues === 0 ? [] : this.queues.map((q) => ({
        executing: q.executing,
        nextDispatch: q.waiting[0]?.start ?? Math.max(q.lastFinish, this.virtualTime),
        waiting: q.waiting.map((w) => ({ tag: w.tag, detail: w.detail, arrivedAt: w.enqueuedAt })),
      })),
    };
  }

  /** A request admitted from `queue` finished: its seat goes to the next request in fair order. */
  release(queue: number): void {
    this.executing--;
    const q = this.queues[queue] ?? this.queues[0];
    if (q.executing > 0) q.executing--;
    this.dispatch();
  }

  private dispatch(): void {
    while (this.waitingTotal > 0 && this.executing < this.config.concurrencyLimit) {
      let best: Queue<T> | undefined;
      for (const q of this.queues) {
        const head = q.waiting[0];
        if (!head) continue;
        // Equal starts: the queue with fewer requests executing goes first (a quiet flow before a busy one).
        if (!best || head.start < best.waiting[0].start || (head.start === best.waiting[0].start && q.executing < best.executing)) best = q;
      }
      if (!best) return;
      const w = best.waiting.shift() as Waiter<T>;
      this.waitingTotal--;
      this.virtualTime = Math.max(this.virtualTime, w.start);
      clearTimeout(w.timer);
      this.executing++;
      best.executing++;
      this.observer.dequeued(w.tag, true, this.now() - w.enqueuedAt);
      w.resolve(admitted(best.index));
    }
  }

  /** Takes a waiting request out of its queue (timed out or given up); nothing once it was dispatched. */
  private withdraw(w: Waiter<T>, why: Admission): void {
    const i = w.queue.waiting.indexOf(w);
    if (i < 0) return;
    w.queue.waiting.splice(i, 1);
    clearTimeout(w.timer);
    this.waitingTotal--;
    this.observer.dequeued(w.tag, false, this.now() - w.enqueuedAt);
    w.resolve(why);
  }

  /**
   * Shuffle sharding (k8s.io/apiserver pkg/util/shufflesharding Dealer.Deal): `handSize` distinct queues from
   * the hash, then the one with the fewest requests waiting and executing (kube's chooseQueueIndexLocked).
   */
  private chooseQueue(flowHash: number): Queue<T> {
    const deck = this.queues.length;
    const hand = Math.min(this.config.handSize, deck);
    const r = this.remainders;
    let h = flowHash;
    for (let i = 0; i < hand; i++) {
      const next = Math.floor(h / (deck - i));
      r[i] = h - (deck - i) * next;
      h = next;
    }
    let best = this.queues[0];
    let bestLoad = Infinity;
    for (let i = 0; i < hand; i++) {
      let card = r[i];
      for (let j = i; j > 0; j--) if (card >= r[j - 1]) card++;
      const q = this.queues[card];
      const load = q.waiting.length + q.executing;
      if (load < bestLoad) {
        best = q;
        bestLoad = load;
      }
    }
    return best;
  }
}

/** A 53-bit FNV-1a hash of a flow (FlowSchema name and distinguisher): two 32-bit lanes, exact in a double. */
export function flowHash(schema: string, distinguisher: string): number {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  const feed = (s: string): void => {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c, 0x01000193) >>> 0;
    }
  };
  feed(schema);
  a = Math.imul(a, 0x01000193) >>> 0;
  b = Math.imul(b ^ 0xff, 0x01000193) >>> 0;
  feed(distinguisher);
  return (a & 0x1fffff) * 0x100000000 + b;
}
