/**
 * API Priority and Fairness (kube's apf_controller): the FlowSchemas and PriorityLevelConfigurations digested
 * into a classifier and one queue set per priority level. Built again on every configuration change (the
 * "schema set version"); a request only walks the compiled schemas and its level's queues.
 */
import type { UserInfo } from '@kube/apimachinery';
import type { RequestInfo } from '../request-info';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from './flowcontrol.bootstrap';
import { byMatchingPrecedence, flowDistinguisher, flowSchemaMatcher } from './flowcontrol.classifier';
import { defaultFlowSchema, defaultPriorityLevel } from './flowcontrol.defaults';
import { currentExecutingRequests, currentInqueueRequests, dispatchedRequestsTotal, nominalLimitSeats, rejectedRequestsTotal, requestWaitDurationSeconds } from './flowcontrol.metrics';
import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol.types';
import { flowHash, QueueSet, type QueueSetConfig, type QueueSetObserver, type RejectReason } from './queue-set';

export interface FlowControlOptions {
  /** Seats of the whole server, shared by the levels in proportion to their nominalConcurrencyShares (kube: --max-requests-inflight + --max-mutating-requests-inflight). */
  serverConcurrencyLimit: number;
  /** How long a request may wait in a queue before 429 (kube: a quarter of the request timeout, at most a minute). */
  requestWaitLimitMs: number;
  /** Injected for tests. */
  now?: () => number;
}

type Counter = { inc(): void };
type GaugeChild = { inc(): void; dec(): void };
type HistogramChild = { observe(v: number): void };

/** The metric series of one (priority level, FlowSchema) pair, bound once per configuration. */
export class FlowMetrics {
  readonly inqueue: GaugeChild;
  readonly executing: GaugeChild;
  readonly dispatched: Counter;
  readonly waitedExecuted: HistogramChild;
  readonly waitedRejected: HistogramChild;
  private readonly rejected = new Map<RejectReason, Counter>();

  constructor(
    readonly priorityLevel: string,
    readonly flowSchema: string,
  ) {
    const labels = { priority_level: priorityLevel, flow_schema: flowSchema };
    this.inqueue = currentInqueueRequests.labels(labels);
    this.executing = currentExecutingRequests.labels(labels);
    this.dispatched = dispatchedRequestsTotal.labels(labels);
    this.waitedExecuted = requestWaitDurationSeconds.labels({ ...labels, execute: 'true' });
    this.waitedRejected = requestWaitDurationSeconds.labels({ ...labels, execute: 'false' });
  }

  reject(reason: RejectReason): void {
    let c = this.rejected.get(reason);
    if (!c) this.rejected.set(reason, (c = rejectedRequestsTotal.labels({ priority_level: this.priorityLevel, flow_schema: this.flowSchema, reason })));
    c.inc();
  }
}

const QUEUE_METRICS: QueueSetObserver<FlowMetrics> = {
  enqueued: (m) => m.inqueue.inc(),
  dequeued: (m, executed, waitedMs) => {
    m.inqueue.dec();
    (executed ? m.waitedExecuted : m.waitedRejected).observe(waitedMs / 1000);
  },
};

/** A priority level as configured now; its queue set outlives reconfigurations. */
export class PriorityLevel {
  uid = '';
  exempt = false;
  nominalConcurrencyLimit = 0;
  /** Gone from the configuration, kept until its executing requests finish (kube's IsQuiescing). */
  quiescing = false;
  queueSet: QueueSet<FlowMetrics> | undefined;

  constructor(readonly name: string) {}
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

function queueSetConfig(pl: PriorityLevelConfiguration, nominalConcurrencyLimit: number): QueueSetConfig {
  const lr = pl.spec.limited?.limitResponse;
  const q = lr?.type === 'Queue' ? lr.queuing : undefined;
  return { concurrencyLimit: nominalConcurrencyLimit, queues: q?.queues ?? 0, handSize: q?.handSize ?? 0, queueLengthLimit: q?.queueLengthLimit ?? 0 };
}

export class FlowControl {
  private schemas: CompiledFlowSchema[] = [];
  private catchAll!: CompiledFlowSchema;
  private readonly levels = new Map<string, PriorityLevel>();
  private readonly metrics = new Map<string, FlowMetrics>();
  private readonly now: () => number;
  /** Bumped by every configure(): what the classifier was compiled from. */
  generation = 0;

  constructor(readonly options: FlowControlOptions) {
    this.now = options.now ?? Date.now;
    this.configure(BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS);
  }

  get requestWaitLimitMs(): number {
    return this.options.requestWaitLimitMs;
  }

  /**
   * Digests a configuration: the mandatory objects are supplied when missing (as kube's controller does), a
   * FlowSchema whose level does not exist is skipped (Dangling), each Limited level gets
   * ceil(serverConcurrencyLimit × its shares / all shares) seats.
   */
  configure(flowSchemas: readonly FlowSchema[], priorityLevels: readonly PriorityLevelConfiguration[]): void {
    const pls = new Map<string, PriorityLevelConfiguration>();
    for (const pl of [...MANDATORY_PRIORITY_LEVELS, ...priorityLevels]) pls.set(pl.metadata.name ?? '', withDefaults(pl, defaultPriorityLevel));
    const fss = new Map<string, FlowSchema>();
    for (const fs of [...MANDATORY_FLOW_SCHEMAS, ...flowSchemas]) fss.set(fs.metadata.name ?? '', withDefaults(fs, defaultFlowSchema));

    let shares = 0;
    for (const pl of pls.values()) shares += (pl.spec.type === 'Exempt' ? pl.spec.exempt?.nominalConcurrencyShares : pl.spec.limited?.nominalConcurrencyShares) ?? 0;
    nominalLimitSeats.reset();
    for (const [name, pl] of pls) {
      let level = this.levels.get(name);
      if (!level) this.levels.set(name, (level = new PriorityLevel(name)));
      level.uid = pl.metadata.uid ?? '';
      level.quiescing = false;
      level.exempt = pl.spec.type === 'Exempt';
      const own = (level.exempt ? pl.spec.exempt?.nominalConcurrencyShares : pl.spec.limited?.nominalConcurrencyShares) ?? 0;
      level.nominalConcurrencyLimit = shares > 0 ? Math.ceil((this.options.serverConcurrencyLimit * own) / shares) : 0;
      nominalLimitSeats.set({ priority_level: name }, level.nominalConcurrencyLimit);
      if (level.exempt) continue;
      const config = queueSetConfig(pl, level.nominalConcurrencyLimit);
      if (level.queueSet) level.queueSet.setConfig(config);
      else level.queueSet = new QueueSet(config, QUEUE_METRICS, this.now);
    }
    // Levels gone keep their queue set until it drains (requests admitted by it still release into it).
    for (const [name, level] of [...this.levels]) {
      if (pls.has(name)) continue;
      if (level.queueSet?.executingRequests) level.quiescing = true;
      else this.levels.delete(name);
    }

    const compiled: CompiledFlowSchema[] = [];
    for (const fs of [...fss.values()].sort(byMatchingPrecedence)) {
      const level = this.levels.get(fs.spec.priorityLevelConfiguration?.name ?? '');
      if (!level || !pls.has(level.name)) continue;
      compiled.push(new CompiledFlowSchema(fs, level, this.metricsFor(level.name, fs.metadata.name ?? '')));
    }
    this.schemas = compiled;
    this.catchAll = compiled.find((s) => s.name === 'catch-all') as CompiledFlowSchema;
    this.generation++;
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
