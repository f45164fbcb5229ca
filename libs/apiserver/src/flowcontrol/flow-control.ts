/**
 * API Priority and Fairness (kube's apf_controller): the FlowSchemas and PriorityLevelConfigurations digested
 * into a classifier and one queue set per priority level. Built again on every configuration change (the
 * "schema set version"); a request only walks the compiled schemas and its level's queues. Every 10 s the levels'
 * current concurrency limits are solved again from their seat demand (borrowing, kube ≥ 1.26).
 */
import type { UserInfo } from '@kube/apimachinery';
import type { RequestInfo } from '../request-info';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from './flowcontrol.bootstrap';
import { BORROWING_ADJUSTMENT_PERIOD_MS, Integrator, SeatDemandStats, updateBorrowing, goRound, type BorrowingLevel } from './flowcontrol.borrowing';
import { byMatchingPrecedence, flowDistinguisher, flowSchemaMatcher } from './flowcontrol.classifier';
import { defaultFlowSchema, defaultPriorityLevel } from './flowcontrol.defaults';
import {
  currentExecutingRequests,
  currentExecutingSeats,
  currentInqueueRequests,
  currentInqueueSeats,
  currentLimitSeats,
  demandSeatsAverage,
  demandSeatsHighWatermark,
  demandSeatsSmoothed,
  demandSeatsStdev,
  dispatchedRequestsTotal,
  lowerLimitSeats,
  nominalLimitSeats,
  rejectedRequestsTotal,
  requestExecutionSeconds,
  requestWaitDurationSeconds,
  seatFairFrac,
  targetSeats,
  upperLimitSeats,
  watchCountSamples,
  workEstimatedSeats,
} from './flowcontrol.metrics';
import { ObjectCountTracker, WatchTracker } from './flowcontrol.trackers';
import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol.types';
import { DEFAULT_WORK_ESTIMATOR_CONFIG, WorkEstimator, type WorkEstimate, type WorkEstimatorConfig } from './flowcontrol.work-estimator';
import { flowHash, QueueSet, type QueueSetConfig, type QueueSetObserver, type RejectReason } from './queue-set';

export interface FlowControlOptions {
  /** Seats of the whole server, shared by the levels in proportion to their nominalConcurrencyShares (kube: --max-requests-inflight + --max-mutating-requests-inflight). */
  serverConcurrencyLimit: number;
  /** How long a request may wait in a queue before 429 (kube: a quarter of the request timeout, at most a minute). */
  requestWaitLimitMs: number;
  /** How often the current limits are solved again from seat demand (kube: 10 s); 0: only when updateBorrowing() is called. */
  borrowingPeriodMs?: number;
  /** kube's work estimator parameters (tests). */
  workEstimator?: Partial<WorkEstimatorConfig>;
  /** Injected for tests. */
  now?: () => number;
}

type Counter = { inc(): void };
type GaugeChild = { inc(v?: number): void; dec(v?: number): void };
type HistogramChild = { observe(v: number): void };

/** The metric series of one (priority level, FlowSchema) pair, bound once per configuration. */
export class FlowMetrics {
  readonly inqueue: GaugeChild;
  readonly inqueueSeats: GaugeChild;
  readonly executing: GaugeChild;
  readonly executingSeats: GaugeChild;
  readonly dispatched: Counter;
  readonly waitedExecuted: HistogramChild;
  readonly waitedRejected: HistogramChild;
  readonly executionRegular: HistogramChild;
  readonly executionWatch: HistogramChild;
  readonly estimatedSeats: HistogramChild;
  readonly watchCount: HistogramChild;
  private readonly rejected = new Map<RejectReason, Counter>();

  constructor(
    readonly priorityLevel: string,
    readonly flowSchema: string,
  ) {
    const labels = { priority_level: priorityLevel, flow_schema: flowSchema };
    this.inqueue = currentInqueueRequests.labels(labels);
    this.inqueueSeats = currentInqueueSeats.labels(labels);
    this.executing = currentExecutingRequests.labels(labels);
    this.executingSeats = currentExecutingSeats.labels(labels);
    this.dispatched = dispatchedRequestsTotal.labels(labels);
    this.waitedExecuted = requestWaitDurationSeconds.labels({ ...labels, execute: 'true' });
    this.waitedRejected = requestWaitDurationSeconds.labels({ ...labels, execute: 'false' });
    this.executionRegular = requestExecutionSeconds.labels({ ...labels, type: 'regular' });
    this.executionWatch = requestExecutionSeconds.labels({ ...labels, type: 'watch' });
    this.estimatedSeats = workEstimatedSeats.labels(labels);
    this.watchCount = watchCountSamples.labels(labels);
  }

  reject(reason: RejectReason): void {
    let c = this.rejected.get(reason);
    if (!c) this.rejected.set(reason, (c = rejectedRequestsTotal.labels({ priority_level: this.priorityLevel, flow_schema: this.flowSchema, reason })));
    c.inc();
  }
}

/** The queue set's events into the level's metrics and seat demand. */
function queueObserver(level: PriorityLevel): QueueSetObserver<FlowMetrics> {
  return {
    enqueued: (m, seats) => {
      m.inqueue.inc();
      m.inqueueSeats.inc(seats);
    },
    dequeued: (m, executed, waitedMs, seats) => {
      m.inqueue.dec();
      m.inqueueSeats.dec(seats);
      (executed ? m.waitedExecuted : m.waitedRejected).observe(waitedMs / 1000);
    },
    seats: (m, delta) => m.executingSeats.inc(delta),
    demand: (seats) => level.seatDemand.set(seats),
  };
}

/** A priority level as configured now; its queue set and seat demand outlive reconfigurations. */
export class PriorityLevel implements BorrowingLevel {
  uid = '';
  exempt = false;
  /** kube's nominalCL: ceil(server limit × shares / all shares). */
  nominalCL = 0;
  /** nominalCL less what it lends. */
  minCL = 0;
  /** nominalCL plus what it may borrow. */
  maxCL = 0;
  /** The limit in force now, solved from seat demand every adjustment period. */
  currentCL = 0;
  /** updateBorrowing's target. */
  target = 0;
  /** The most seats one request may take here (kube's MaxSeatsTracker: max(1, min(ceil(15% nominal), nominal / handSize))). */
  maxSeats = 0;
  /** Gone from the configuration, kept until its executing requests finish (kube's IsQuiescing). */
  quiescing = false;
  queueSet: QueueSet<FlowMetrics> | undefined;
  readonly seatDemand: Integrator;
  readonly seatDemandStats = new SeatDemandStats();
  /** Exempt requests executing and their seats (no queue set counts them). */
  exemptExecuting = 0;

  constructor(
    readonly name: string,
    now: () => number,
  ) {
    this.seatDemand = new Integrator(now);
  }

  /** The nominal limit, as before borrowing (kept for callers of the old name). */
  get nominalConcurrencyLimit(): number {
    return this.nominalCL;
  }
}

/** One FlowSchema of the current configuration, with its level and metric series. */
export class CompiledFlowSchema {
  readonly name: string;
  readonly uid: string;
  readonly matches: (user: UserInfo, info: RequestInfo) => boolean;
  private readonly hashes = new Map<string, number>();

  constructor(
    private readonly fs: FlowSchema,
    readonly level: PriorityLevel,
    readonly metrics: FlowMetrics,
  ) {
    this.name = fs.metadata.name ?? '';
    this.uid = fs.metadata.uid ?? '';
    this.matches = flowSchemaMatcher(fs);
  }

  /** The request's flow distinguisher (user or namespace, by the schema's distinguisherMethod; "" without one). */
  distinguisher(user: UserInfo, info: RequestInfo): string {
    return flowDistinguisher(this.fs, user, info);
  }

  /** The hash of the request's flow, remembered per distinguisher (users and namespaces are few). */
  flowHash(user: UserInfo, info: RequestInfo): number {
    const d = flowDistinguisher(this.fs, user, info);
    let h = this.hashes.get(d);
    if (h === undefined) {
      if (this.hashes.size >= 4096) this.hashes.clear();
      h = flowHash(this.name, d);
      this.hashes.set(d, h);
    }
    return h;
  }
}

function queueSetConfig(pl: PriorityLevelConfiguration, concurrencyLimit: number): QueueSetConfig {
  const lr = pl.spec.limited?.limitResponse;
  const q = lr?.type === 'Queue' ? lr.queuing : undefined;
  return { concurrencyLimit, queues: q?.queues ?? 0, handSize: q?.handSize ?? 0, queueLengthLimit: q?.queueLengthLimit ?? 0 };
}

/** kube's plSpecCommons: shares, lendablePercent, borrowingLimitPercent (null: unlimited). */
function specCommons(pl: PriorityLevelConfiguration): { shares: number; lendablePercent: number; borrowingLimitPercent: number | null } {
  if (pl.spec.type === 'Exempt') return { shares: pl.spec.exempt?.nominalConcurrencyShares ?? 0, lendablePercent: pl.spec.exempt?.lendablePercent ?? 0, borrowingLimitPercent: null };
  const l = pl.spec.limited;
  return { shares: l?.nominalConcurrencyShares ?? 0, lendablePercent: l?.lendablePercent ?? 0, borrowingLimitPercent: l?.borrowingLimitPercent ?? null };
}

/** kube's priorityLevelMaxSeatsPercent. */
const MAX_SEATS_PERCENT = 0.15;

export class FlowControl {
  private schemas: CompiledFlowSchema[] = [];
  private catchAll!: CompiledFlowSchema;
  private readonly levels = new Map<string, PriorityLevel>();
  private readonly metrics = new Map<string, FlowMetrics>();
  private readonly now: () => number;
  private nominalCLSum = 0;
  private borrowingTimer: ReturnType<typeof setInterval> | undefined;
  /** The last configuration of each level, kept while a level that left the configuration drains. */
  private readonly specs = new Map<string, PriorityLevelConfiguration>();
  /** The objects each resource stores, learned from the LISTs answered through here. */
  readonly objectCounts: ObjectCountTracker;
  /** The watches open through here, by what they watch. */
  readonly watches = new WatchTracker();
  readonly workEstimator: WorkEstimator;
  /** The last adjustment's fair fraction (seat_fair_frac). */
  fairFrac = 0;
  /** Bumped by every configure(): what the classifier was compiled from. */
  generation = 0;

  constructor(readonly options: FlowControlOptions) {
    this.now = options.now ?? Date.now;
    this.objectCounts = new ObjectCountTracker(this.now);
    this.workEstimator = new WorkEstimator(
      (gr) => this.objectCounts.get(gr),
      (info) => this.watches.interestedWatchCount(info),
      (pl) => this.levels.get(pl)?.maxSeats ?? 0,
      { ...DEFAULT_WORK_ESTIMATOR_CONFIG, ...options.workEstimator },
    );
    this.configure(BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS);
    const period = options.borrowingPeriodMs ?? BORROWING_ADJUSTMENT_PERIOD_MS;
    if (period > 0) {
      this.borrowingTimer = setInterval(() => this.updateBorrowing(), period);
      this.borrowingTimer.unref?.();
    }
  }

  get requestWaitLimitMs(): number {
    return this.options.requestWaitLimitMs;
  }

  /** Stops the periodic borrowing adjustment. */
  stop(): void {
    clearInterval(this.borrowingTimer);
    this.borrowingTimer = undefined;
  }

  /** The request's work (kube's WorkEstimator), observed in work_estimated_seats. */
  estimate(schema: CompiledFlowSchema, info: RequestInfo, query: URLSearchParams): WorkEstimate {
    const we = this.workEstimator.estimate(info, query, schema.level.name);
    schema.metrics.estimatedSeats.observe(we.initialSeats >= we.finalSeats ? we.initialSeats : we.finalSeats);
    return we;
  }

  /**
   * Digests a configuration: the mandatory objects are supplied when missing (as kube's controller does), a
   * FlowSchema whose level does not exist is skipped (Dangling), each Limited level gets
   * ceil(serverConcurrencyLimit × its shares / all shares) nominal seats, lends lendablePercent of them and may
   * borrow borrowingLimitPercent more (unlimited when unset).
   */
  configure(flowSchemas: readonly FlowSchema[], priorityLevels: readonly PriorityLevelConfiguration[]): void {
    const pls = new Map<string, PriorityLevelConfiguration>();
    for (const pl of [...MANDATORY_PRIORITY_LEVELS, ...priorityLevels]) pls.set(pl.metadata.name ?? '', withDefaults(pl, defaultPriorityLevel));
    const fss = new Map<string, FlowSchema>();
    for (const fs of [...MANDATORY_FLOW_SCHEMAS, ...flowSchemas]) fss.set(fs.metadata.name ?? '', withDefaults(fs, defaultFlowSchema));

    // Levels gone keep their queue set until it drains (requests admitted by it still release into it), and
    // their share of the server meanwhile (kube's lingering levels).
    for (const [name, level] of [...this.levels]) {
      if (pls.has(name)) continue;
      if (level.queueSet && !level.queueSet.idle) level.quiescing = true;
      else this.levels.delete(name);
    }
    const specOf = (level: PriorityLevel): PriorityLevelConfiguration | undefined => pls.get(level.name) ?? this.specs.get(level.name);
    let shares = 0;
    for (const pl of pls.values()) shares += specCommons(pl).shares;
    for (const [name, pl] of this.specs) if (!pls.has(name) && this.levels.has(name)) shares += specCommons(pl).shares;
    nominalLimitSeats.reset();
    lowerLimitSeats.reset();
    upperLimitSeats.reset();
    let nominalCLSum = 0;
    for (const name of pls.keys()) {
      let level = this.levels.get(name);
      if (!level) this.levels.set(name, (level = new PriorityLevel(name, this.now)));
      level.quiescing = false;
    }
    for (const level of this.levels.values()) {
      const pl = specOf(level);
      if (!pl) continue;
      const name = level.name;
      const c = specCommons(pl);
      level.uid = pl.metadata.uid ?? '';
      level.exempt = pl.spec.type === 'Exempt';
      const nominalCL = shares > 0 ? Math.ceil((this.options.serverConcurrencyLimit * c.shares) / shares) : 0;
      const lendableCL = goRound((nominalCL * c.lendablePercent) / 100);
      const borrowingCL = c.borrowingLimitPercent === null ? this.options.serverConcurrencyLimit : goRound((nominalCL * c.borrowingLimitPercent) / 100);
      const fresh = level.queueSet === undefined && level.currentCL === 0 && level.nominalCL === 0;
      level.nominalCL = nominalCL;
      level.minCL = nominalCL - lendableCL;
      level.maxCL = nominalCL + borrowingCL;
      nominalCLSum += nominalCL;
      nominalLimitSeats.set({ priority_level: name }, nominalCL);
      lowerLimitSeats.set({ priority_level: name }, level.minCL);
      upperLimitSeats.set({ priority_level: name }, level.maxCL);
      // A new level starts halfway into what it may lend (kube's initialCL), until the first adjustment.
      if (fresh) level.currentCL = nominalCL - Math.trunc(lendableCL / 2);
      const q = pl.spec.limited?.limitResponse?.type === 'Queue' ? pl.spec.limited.limitResponse.queuing : undefined;
      level.maxSeats = q?.handSize ? Math.max(1, Math.min(Math.ceil(nominalCL * MAX_SEATS_PERCENT), Math.trunc(nominalCL / q.handSize))) : 0;
      if (level.exempt) continue;
      const config = queueSetConfig(pl, level.currentCL);
      if (level.queueSet) level.queueSet.setConfig(config);
      else level.queueSet = new QueueSet(config, queueObserver(level), this.now);
    }
    this.nominalCLSum = nominalCLSum;
    for (const [name, pl] of pls) this.specs.set(name, pl);
    for (const name of [...this.specs.keys()]) if (!this.levels.has(name)) this.specs.delete(name);

    const compiled: CompiledFlowSchema[] = [];
    for (const fs of [...fss.values()].sort(byMatchingPrecedence)) {
      const level = this.levels.get(fs.spec.priorityLevelConfiguration?.name ?? '');
      if (!level || !pls.has(level.name)) continue;
      compiled.push(new CompiledFlowSchema(fs, level, this.metricsFor(level.name, fs.metadata.name ?? '')));
    }
    this.schemas = compiled;
    this.catchAll = compiled.find((s) => s.name === 'catch-all') as CompiledFlowSchema;
    this.generation++;
    this.updateBorrowing();
  }

  /**
   * kube's updateBorrowing: every level's seat demand over the period that ends now is smoothed and the current
   * concurrency limits are solved again from it; each queue set gets its new limit at once.
   */
  updateBorrowing(): void {
    // A drained quiescing level goes now (kube removes it once its queues are idle).
    for (const [name, level] of [...this.levels]) if (level.quiescing && (!level.queueSet || level.queueSet.idle)) this.levels.delete(name);
    const levels = [...this.levels.values()];
    this.fairFrac = updateBorrowing(levels, this.nominalCLSum);
    seatFairFrac.set(this.fairFrac);
    for (const l of levels) {
      const labels = { priority_level: l.name };
      demandSeatsHighWatermark.set(labels, l.seatDemandStats.highWatermark);
      demandSeatsAverage.set(labels, l.seatDemandStats.avg);
      demandSeatsStdev.set(labels, l.seatDemandStats.stdDev);
      demandSeatsSmoothed.set(labels, l.seatDemandStats.smoothed);
      targetSeats.set(labels, l.target);
      currentLimitSeats.set(labels, l.currentCL);
      if (l.queueSet && l.queueSet.concurrencyLimit !== l.currentCL) {
        const pl = this.specs.get(l.name);
        if (pl) l.queueSet.setConfig(queueSetConfig(pl, l.currentCL));
      }
    }
  }

  /** The first FlowSchema the request matches; the catch-all one matches everything. */
  classify(user: UserInfo, info: RequestInfo): CompiledFlowSchema {
    for (const s of this.schemas) if (s.matches(user, info)) return s;
    return this.catchAll;
  }

  /** The level named so (tests, debugging). */
  level(name: string): PriorityLevel | undefined {
    return this.levels.get(name);
  }

  /** Every priority level, quiescing ones included (the debug dumps). */
  priorityLevels(): IterableIterator<PriorityLevel> {
    return this.levels.values();
  }

  /** The FlowSchema of the current configuration named so. */
  flowSchema(name: string): CompiledFlowSchema | undefined {
    return this.schemas.find((s) => s.name === name);
  }

  private metricsFor(pl: string, fs: string): FlowMetrics {
    const key = `${pl}\u0000${fs}`;
    let m = this.metrics.get(key);
    if (!m) this.metrics.set(key, (m = new FlowMetrics(pl, fs)));
    return m;
  }
}

function withDefaults<T extends FlowSchema | PriorityLevelConfiguration>(obj: T, apply: (o: T) => void): T {
  const copy = structuredClone(obj);
  apply(copy);
  return copy;
}
