/**
 * Fair queuing for one priority level (kube's fairqueuing/queueset): a concurrency limit in seats, and for a
 * Queue level `queues` FIFO queues. A flow is dealt `handSize` queues by shuffle sharding on its hash and waits in
 * the one of them with the least work waiting. Seats go to queues by virtual finish time in seat-seconds: the
 * virtual clock R advances at min(seats wanted, limit) / active queues per real second, each dispatch advances its
 * queue's next dispatch R by the request's work (seats × estimated service time, plus its final seats × their
 * additional latency), and the estimate is corrected by the real service time when it finishes. The estimated
 * service time follows the level's real ones (kube: a fixed 3 ms). A wide request
 * waits until its seats are free (nothing narrower overtakes it); one wider than the limit runs alone.
 */
import { maxSeatsOf, type WorkEstimate } from './flowcontrol.work-estimator';

/** Why a request was not executed: apiserver_flowcontrol_rejected_requests_total's `reason`. */
export type RejectReason = 'queue-full' | 'time-out' | 'concurrency-limit' | 'cancelled';

export interface QueueSetConfig {
  /** Seats executing at once (the level's current concurrency limit). */
  concurrencyLimit: number;
  /** 0 for a Reject level: over the limit means rejected at once. */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** Receives the level's queueing events, for metrics (the request's FlowSchema comes along as `tag`). */
export interface QueueSetObserver<T> {
  enqueued(tag: T, seats: number): void;
  /** Left its queue: dispatched (`executed`) or timed out/cancelled; `waitedMs` in the queue. */
  dequeued(tag: T, executed: boolean, waitedMs: number, seats: number): void;
  /** Seats taken (+) or given back (-), through every phase of execution. */
  seats(tag: T, delta: number): void;
  /** Seats in use plus seats waiting changed (the level's seat demand, which borrowing follows). */
  demand(seats: number): void;
}

/** kube's estimatedServiceDuration: the first guess of a request's service time, corrected when it finishes. */
export const ESTIMATED_SERVICE_SECONDS = 0.003;
/** Weight of one finished request in the level's moving average of service time. */
const SERVICE_TIME_WEIGHT = 0.1;
const MAX_SERVICE_SECONDS = 10;

class Queue<T> {
  readonly waiting: Array<Ticket<T>> = [];
  /** Requests in their initial phase. */
  executing = 0;
  /** Seats of requests in any phase. */
  seatsInUse = 0;
  /** Virtual time (seat-seconds) at which the queue's head may be dispatched. */
  nextDispatchR = 0;
  initialSeatsSum = 0;
  maxSeatsSum = 0;
  totalWorkSum = 0;
  constructor(public index: number) {}

  get active(): boolean {
    return this.waiting.length > 0 || this.executing > 0;
  }
}

/** A request admitted to, or waiting in, a queue set: hand it back to finish() when it is done. */
export class Ticket<T> {
  /** Initial work (seats × the service time estimated at admission) and initial plus final work, seat-seconds. */
  readonly initialWork: number;
  readonly totalWork: number;
  readonly maxSeats: number;
  arrivalR = 0;
  startedAt = 0;
  /** Seats released at the end (a wide request's final seats may be narrowed to the limit). */
  finalSeats: number;
  additionalLatencyMs: number;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  resolve: ((t: Ticket<T> | RejectReason) => void) | undefined = undefined;

  constructor(
    readonly estimate: WorkEstimate,
    readonly tag: T,
    /** What the caller said about the request, for the debug dump (/debug/api_priority_and_fairness/dump_requests). */
    readonly detail: unknown,
    readonly arrivedAt: number,
    public queue: Queue<T> | undefined,
    serviceSeconds: number,
  ) {
    this.maxSeats = maxSeatsOf(estimate);
    this.finalSeats = estimate.finalSeats;
    this.additionalLatencyMs = estimate.additionalLatencyMs;
    this.initialWork = estimate.initialSeats * serviceSeconds;
    this.totalWork = this.initialWork + (estimate.finalSeats * estimate.additionalLatencyMs) / 1000;
  }

  /** The queue's index (-1 for a request of a level without queues). */
  get queueIndex(): number {
    return this.queue ? this.queue.index : -1;
  }
}

/** A waiting request as /debug/api_priority_and_fairness/dump_requests prints it. */
export interface WaitingRequestDump<T> {
  tag: T;
  detail: unknown;
  /** Epoch ms it entered its queue. */
  arrivedAt: number;
  estimate: WorkEstimate;
}

/** One queue as dump_queues prints it. */
export interface QueueDump<T> {
  waiting: Array<WaitingRequestDump<T>>;
  executing: number;
  seatsInUse: number;
  /** Seat-seconds. */
  nextDispatchR: number;
  initialSeatsSum: number;
  maxSeatsSum: number;
  totalWorkSum: number;
}

export interface QueueSetDump<T> {
  queues: Array<QueueDump<T>>;
  waiting: number;
  executing: number;
  seatsInUse: number;
  seatsWaiting: number;
  dispatched: number;
  rejected: number;
  timedOut: number;
  cancelled: number;
}

export class QueueSet<T> {
  private config!: QueueSetConfig;
  private queues: Array<Queue<T>> = [];
  private readonly hand: number[] = [];
  private enqueues = 0;
  private robinIndex = -1;
  private activeQueues = 0;
  private executing = 0;
  private seatsInUse = 0;
  private waitingTotal = 0;
  private seatsWaiting = 0;
  /** Virtual time in seat-seconds, and the real time (ms) it was last advanced to. */
  private currentR = 0;
  private lastRealTime: number;
  /**
   * The service time a request is charged at dispatch, seconds: kube's 3 ms at first, then the moving average of
   * the level's real ones (never below 3 ms). Charging the real cost up front (kube corrects its fixed guess only
   * when a request finishes) keeps a flow whose requests run long from being owed the work it has in progress: a
   * flow that becomes active gets the next free seat instead of waiting for the busy flow's requests to finish.
   */
  private serviceSeconds = ESTIMATED_SERVICE_SECONDS;
  private dispatched = 0;
  private rejected = 0;
  private timedOut = 0;
  private cancelled = 0;

  constructor(
    config: QueueSetConfig,
    private readonly observer: QueueSetObserver<T>,
    private readonly now: () => number = Date.now,
  ) {
    this.lastRealTime = now();
    this.setConfig(config);
  }

  get executingRequests(): number {
    return this.executing;
  }

  get waitingRequests(): number {
    return this.waitingTotal;
  }

  get seatsExecuting(): number {
    return this.seatsInUse;
  }

  get concurrencyLimit(): number {
    return this.config.concurrencyLimit;
  }

  /** Virtual time now (seat-seconds). */
  get virtualTime(): number {
    this.syncTime();
    return this.currentR;
  }

  /** Whether nothing waits and nothing executes (kube's QueueSet.IsIdle). */
  get idle(): boolean {
    return this.waitingTotal === 0 && this.executing === 0;
  }

  /**
   * A new configuration: the limit applies at once; more queues are added, queues beyond a smaller number are
   * dropped once they are empty (kube lets them drain).
   */
  setConfig(config: QueueSetConfig): void {
    this.syncTime();
    const q = config.queues;
    // A level turned to Reject keeps draining the queues it had with their old limits (kube).
    this.config = q > 0 || !this.config ? config : { ...config, handSize: this.config.handSize, queueLengthLimit: this.config.queueLengthLimit };
    for (let i = this.queues.length; i < q; i++) this.queues.push(new Queue<T>(i));
    this.dropEmptyQueues();
    this.dispatchAsMuchAsPossible();
  }

  /**
   * Admits a request of the flow whose hash is `flowHash`: executing at once (its ticket, synchronously), rejected,
   * or, when it has to wait, a promise settled when it is dispatched, after `waitLimitMs`, or when the caller gives
   * up (`onCancel`, called only for a request that waits, receives the function that withdraws it).
   */
  admit(flowHash: number, estimate: WorkEstimate, tag: T, waitLimitMs: number, onCancel?: (cancel: () => void) => void, detail?: unknown): Ticket<T> | RejectReason | Promise<Ticket<T> | RejectReason> {
    this.syncTime();
    const now = this.lastRealTime;
    if (this.config.queues < 1) {
      const t = new Ticket(estimate, tag, detail, now, undefined, this.serviceSeconds);
      if (!this.canAccommodate(t.maxSeats)) {
        this.rejected++;
        return 'concurrency-limit';
      }
      this.dispatched++;
      this.start(t, now);
      return t;
    }
    const queue = this.shuffleShard(flowHash);
    if (this.seatsInUse >= this.config.concurrencyLimit && queue.waiting.length >= this.config.queueLengthLimit) {
      this.rejected++;
      return 'queue-full';
    }
    const t = new Ticket(estimate, tag, detail, now, queue, this.serviceSeconds);
    t.arrivalR = this.currentR;
    if (!queue.active) queue.nextDispatchR = this.currentR;
    // Nothing waits: the request would be the one dispatched next, so it is, without a promise.
    if (this.waitingTotal === 0 && this.canAccommodate(t.maxSeats)) {
      this.dispatched++;
      this.start(t, now);
      queue.nextDispatchR += t.totalWork;
      return t;
    }
    return new Promise<Ticket<T> | RejectReason>((resolve) => {
      t.resolve = resolve;
      this.enqueue(t, queue);
      t.timer = setTimeout(() => this.withdraw(t, 'time-out'), waitLimitMs);
      onCancel?.(() => this.withdraw(t, 'cancelled'));
      this.dispatchAsMuchAsPossible();
    });
  }

  /**
   * A request finished its initial phase: the queue's virtual clock is corrected by its real service time, its
   * seats go back now or, with final seats, after its additional latency, and the next requests are dispatched.
   */
  finish(t: Ticket<T>): void {
    this.syncTime();
    const q = t.queue;
    const wasActive = q ? q.active : false;
    this.executing--;
    const served = (this.lastRealTime - t.startedAt) / 1000;
    const g = this.serviceSeconds + SERVICE_TIME_WEIGHT * (served - this.serviceSeconds);
    this.serviceSeconds = g < ESTIMATED_SERVICE_SECONDS ? ESTIMATED_SERVICE_SECONDS : g > MAX_SERVICE_SECONDS ? MAX_SERVICE_SECONDS : g;
    if (q) {
      q.executing--;
      q.nextDispatchR -= t.initialWork - t.estimate.initialSeats * served;
      this.boundNextDispatch(q);
      if (wasActive !== q.active) this.activeQueues--;
    }
    if (t.additionalLatencyMs > 0 && t.finalSeats > 0) {
      // The request's watch events are still being sent: its seats stay taken a little longer (the client has its answer).
      const held = setTimeout(() => {
        this.syncTime();
        this.releaseSeats(t);
        this.dispatchAsMuchAsPossible();
      }, t.additionalLatencyMs);
      held.unref?.();
    } else this.releaseSeats(t);
    this.dispatchAsMuchAsPossible();
  }

  /** A snapshot of the queues, for the debug endpoints (never on a request's path). */
  dump(): QueueSetDump<T> {
    this.syncTime();
    return {
      waiting: this.waitingTotal,
      executing: this.executing,
      seatsInUse: this.seatsInUse,
      seatsWaiting: this.seatsWaiting,
      dispatched: this.dispatched,
      rejected: this.rejected,
      timedOut: this.timedOut,
      cancelled: this.cancelled,
      queues: this.queues.map((q) => ({
        executing: q.executing,
        seatsInUse: q.seatsInUse,
        nextDispatchR: q.nextDispatchR,
        initialSeatsSum: q.initialSeatsSum,
        maxSeatsSum: q.maxSeatsSum,
        totalWorkSum: q.totalWorkSum,
        waiting: q.waiting.map((w) => ({ tag: w.tag, detail: w.detail, arrivedAt: w.arrivedAt, estimate: w.estimate })),
      })),
    };
  }

  private start(t: Ticket<T>, now: number): void {
    t.startedAt = now;
    this.executing++;
    this.seatsInUse += t.maxSeats;
    const q = t.queue;
    if (q) {
      if (!q.active) this.activeQueues++;
      q.executing++;
      q.seatsInUse += t.maxSeats;
    }
    this.observer.seats(t.tag, t.maxSeats);
    this.observer.demand(this.seatsInUse + this.seatsWaiting);
  }

  private releaseSeats(t: Ticket<T>): void {
    this.seatsInUse -= t.maxSeats;
    if (t.queue) t.queue.seatsInUse -= t.maxSeats;
    this.observer.seats(t.tag, -t.maxSeats);
    this.observer.demand(this.seatsInUse + this.seatsWaiting);
    this.dropEmptyQueues();
  }

  private enqueue(t: Ticket<T>, q: Queue<T>): void {
    if (!q.active) this.activeQueues++;
    q.waiting.push(t);
    q.initialSeatsSum += t.estimate.initialSeats;
    q.maxSeatsSum += t.maxSeats;
    q.totalWorkSum += t.totalWork;
    this.waitingTotal++;
    this.seatsWaiting += t.maxSeats;
    this.observer.enqueued(t.tag, t.maxSeats);
    this.observer.demand(this.seatsInUse + this.seatsWaiting);
  }

  /** Takes `t` out of its queue's waiting list (the head when dispatched, anywhere when withdrawn). */
  private unqueue(t: Ticket<T>, q: Queue<T>, i: number): void {
    q.waiting.splice(i, 1);
    q.initialSeatsSum -= t.estimate.initialSeats;
    q.maxSeatsSum -= t.maxSeats;
    q.totalWorkSum -= t.totalWork;
    this.waitingTotal--;
    this.seatsWaiting -= t.maxSeats;
    clearTimeout(t.timer);
  }

  /** Takes a waiting request out of its queue (timed out or given up); nothing once it was dispatched. */
  private withdraw(t: Ticket<T>, why: RejectReason): void {
    const q = t.queue;
    const i = q ? q.waiting.indexOf(t) : -1;
    if (!q || i < 0) return;
    this.syncTime();
    this.unqueue(t, q, i);
    if (!q.active) this.activeQueues--;
    this.boundNextDispatch(q);
    this.rejected++;
    if (why === 'time-out') this.timedOut++;
    else this.cancelled++;
    this.observer.dequeued(t.tag, false, this.lastRealTime - t.arrivedAt, t.maxSeats);
    this.observer.demand(this.seatsInUse + this.seatsWaiting);
    t.resolve?.(why);
    this.dropEmptyQueues();
    this.dispatchAsMuchAsPossible();
  }

  private dispatchAsMuchAsPossible(): void {
    while (this.waitingTotal > 0 && this.seatsInUse < this.config.concurrencyLimit && this.dispatchOne());
  }

  /** kube's dispatchLocked with findDispatchQueueToBoundLocked: the queue whose head finishes first, round robin on ties. */
  private dispatchOne(): boolean {
    const queues = this.queues;
    const n = queues.length;
    let best: Queue<T> | undefined;
    let bestFinish = Infinity;
    let bestIndex = 0;
    let r = this.robinIndex;
    for (let k = 0; k < n; k++) {
      r = (r + 1) % n;
      const q = queues[r];
      const head = q.waiting[0];
      if (!head) continue;
      const finish = q.nextDispatchR + head.totalWork;
      if (finish < bestFinish) {
        bestFinish = finish;
        best = q;
        bestIndex = r;
      }
    }
    this.robinIndex = r;
    if (!best) return false;
    const t = best.waiting[0];
    if (!this.canAccommodate(t.maxSeats)) return false;
    this.unqueue(t, best, 0);
    // Final seats wider than the whole limit are narrowed to it, for longer (the same work).
    if (t.finalSeats > this.config.concurrencyLimit && this.config.concurrencyLimit > 0) {
      const work = t.finalSeats * t.additionalLatencyMs;
      t.finalSeats = this.config.concurrencyLimit;
      t.additionalLatencyMs = work / t.finalSeats;
    }
    this.robinIndex = bestIndex;
    this.dispatched++;
    const now = this.lastRealTime;
    this.observer.dequeued(t.tag, true, now - t.arrivedAt, t.maxSeats);
    // start() counts the queue active again: it was still active while its head waited.
    if (!best.active) this.activeQueues--;
    this.start(t, now);
    best.nextDispatchR += t.totalWork;
    this.boundNextDispatch(best);
    t.resolve?.(t);
    return true;
  }

  private canAccommodate(seats: number): boolean {
    const limit = this.config.concurrencyLimit;
    if (seats > limit) return this.executing === 0;
    return this.seatsInUse + seats <= limit;
  }

  /** A queue's next dispatch is never before its head arrived (kube's anti-windup). */
  private boundNextDispatch(q: Queue<T>): void {
    const head = q.waiting[0];
    if (head && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
  }

  /** Advances the virtual clock to now (kube's syncTimeLocked). */
  private syncTime(): void {
    const now = this.now();
    const dt = now - this.lastRealTime;
    this.lastRealTime = now;
    if (dt <= 0 || this.activeQueues === 0) return;
    const wanted = this.seatsInUse + this.seatsWaiting;
    const limit = this.config.concurrencyLimit;
    this.currentR += ((wanted < limit ? wanted : limit) / this.activeQueues) * (dt / 1000);
  }

  private dropEmptyQueues(): void {
    const keep = Math.max(this.config.queues, 0);
    while (this.queues.length > keep) {
      const last = this.queues[this.queues.length - 1];
      if (last.active || last.seatsInUse > 0) return;
      this.queues.pop();
      if (this.robinIndex >= this.queues.length) this.robinIndex = -1;
    }
  }

  /**
   * Shuffle sharding (k8s.io/apiserver pkg/util/shufflesharding Dealer.Deal): `handSize` distinct queues from the
   * hash; of them, from a rotating offset, the one with the least work waiting (kube's shuffleShardLocked).
   */
  private shuffleShard(flowHash: number): Queue<T> {
    const deck = this.config.queues;
    const handSize = Math.min(this.config.handSize, deck);
    const r = this.hand;
    let h = flowHash;
    for (let i = 0; i < handSize; i++) {
      const next = Math.floor(h / (deck - i));
      r[i] = h - (deck - i) * next;
      h = next;
    }
    for (let i = 0; i < handSize; i++) {
      let card = r[i];
      for (let j = i; j > 0; j--) if (card >= r[j - 1]) card++;
      r[i + handSize] = card;
    }
    const offset = this.enqueues % handSize;
    this.enqueues++;
    let best = this.queues[r[handSize + offset]];
    for (let i = 1; i < handSize; i++) {
      const q = this.queues[r[handSize + ((offset + i) % handSize)]];
      if (q.totalWorkSum < best.totalWorkSum) best = q;
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
