import { goEquality, isStatusError, LabelSelector, labelSelectorFromMetav1, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ReconcileResult, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import type { InvolvedObject } from '../../event.recorder';
import { isPodReady, type Pod } from '../../simulation/pod.lifecycle';
import { controllerRefOf, newControllerRef, type ControllerKind } from '../apps/controller-ref.manager';
import { ControllerExpectations } from '../apps/controller.expectations';
import { PODS, slowStartBatch } from '../apps/pod.control';
import {
  backoffDelayMs,
  completionIndexOf,
  formatIndexes,
  JOB_COMPLETION_INDEX,
  JOB_INDEX_FAILURE_COUNT,
  JOB_TRACKING_FINALIZER,
  matchPodFailurePolicy,
  matchSuccessPolicy,
  parseIndexes,
  type PodFailurePolicyRule,
  type SuccessPolicyRule,
} from './job.util';

export const JOBS: ResourcePath = { group: 'batch', version: 'v1', resource: 'jobs', namespaced: true };
const KIND: ControllerKind = { apiVersion: 'batch/v1', kind: 'Job' };
const MERGE = 'application/merge-patch+json';

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  ready?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}

export interface Job extends KubeObject {
  spec?: {
    parallelism?: number;
    completions?: number | null;
    completionMode?: string;
    backoffLimit?: number;
    backoffLimitPerIndex?: number;
    maxFailedIndexes?: number;
    activeDeadlineSeconds?: number;
    ttlSecondsAfterFinished?: number;
    suspend?: boolean;
    selector?: MetaV1LabelSelector | null;
    podFailurePolicy?: { rules?: PodFailurePolicyRule[] };
    successPolicy?: { rules?: SuccessPolicyRule[] };
    template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: { containers?: Array<{ env?: unknown[] }>; initContainers?: Array<{ env?: unknown[] }>; [k: string]: unknown } };
  };
  status?: JobStatus;
}

/** IsJobFinished: Complete or Failed is True. */
export function finishedCondition(job: Job): JobCondition | undefined {
  return job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

const isTerminal = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
const hasTracking = (pod: Pod): boolean => !!pod.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER);

/**
 * kube's Job controller (pkg/controller/job): pods up to parallelism until completions succeed (NonIndexed or
 * Indexed with the completion index annotation, label, hostname and JOB_COMPLETION_INDEX), failures counted
 * against backoffLimit (or backoffLimitPerIndex) with the pod backoff, podFailurePolicy and successPolicy,
 * activeDeadlineSeconds, suspend; finished pods counted once through the batch.kubernetes.io/job-tracking
 * finalizer and status.uncountedTerminatedPods; the FailureTarget/SuccessCriteriaMet, Failed/Complete and
 * Suspended conditions and events with kube's reasons and messages.
 */
export class JobController implements ManagedController {
  readonly name = 'job-controller';
  readonly controller: Controller;
  private readonly jobs: SharedIndexInformer;
  private readonly pods: SharedIndexInformer;
  private readonly expectations = new ControllerExpectations();

  constructor(private readonly ctx: ControllerContext) {
    this.jobs = ctx.informers.informerFor(JOBS);
    this.pods = ctx.informers.informerFor(PODS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 5, waitFor: [this.jobs, this.pods] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.jobs.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: (j) => {
      this.expectations.delete(metaNamespaceKey(j));
      enqueue(j);
    } });
    const podEvent = (pod: KubeObject, created: boolean): void => {
      const ref = controllerRefOf(pod);
      if (ref?.kind !== 'Job') {
        if (hasTracking(pod as Pod)) this.releaseOrphan(pod as Pod);
        return;
      }
      const key = `${pod.metadata.namespace as string}/${ref.name}`;
      if (created) this.expectations.creationObserved(key);
      const job = this.jobs.lister.get(key);
      if (hasTracking(pod as Pod) && job?.metadata.uid !== ref.uid) this.releaseOrphan(pod as Pod);
      this.controller.enqueue(key);
    };
    this.pods.addEventHandler({ add: (p) => podEvent(p, true), update: (_o, n) => podEvent(n, false), delete: (p) => podEvent(p, false) });
    // A deleted Job's pods keep its tracking finalizer: release them, or they (and their namespace) never go.
    this.jobs.addEventHandler({ delete: (j) => {
      for (const p of this.pods.lister.byIndex(NAMESPACE_INDEX, j.metadata.namespace as string) as Pod[]) if (controllerRefOf(p)?.uid === j.metadata.uid && hasTracking(p)) this.releaseOrphan(p);
    } });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private ref(job: Job): InvolvedObject {
    return { apiVersion: KIND.apiVersion, kind: KIND.kind, name: job.metadata.name as string, namespace: job.metadata.namespace, uid: job.metadata.uid as string };
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const job = this.jobs.lister.get(key) as Job | undefined;
    if (!job) return;
    const ns = job.metadata.namespace as string;
    const selector = selectorOf(job);
    const pods = (this.pods.lister.byIndex(NAMESPACE_INDEX, ns) as Pod[]).filter((p) => controllerRefOf(p)?.uid === job.metadata.uid && selector.matches(p.metadata.labels ?? {}));
    const now = new Date();
    const status: JobStatus = structuredClone(job.status ?? {});
    status.uncountedTerminatedPods ??= {};
    const indexed = job.spec?.completionMode === 'Indexed';
    const completions = job.spec?.completions ?? null;
    const parallelism = job.spec?.parallelism ?? 1;
    const finished = finishedCondition(job);

    // trackJobStatusAndRemoveFinalizers: first record terminal pods as uncounted, then drop their finalizer, then count.
    const uncountedOk = new Set(status.uncountedTerminatedPods.succeeded ?? []);
    const uncountedFailed = new Set(status.uncountedTerminatedPods.failed ?? []);
    const succeededIdx = parseIndexes(status.completedIndexes);
    const failedIdx = parseIndexes(status.failedIndexes);
    let failureMatch: { reason: string; message: string } | undefined;
    const toRelease: Pod[] = [];
    let newFailures = 0;
    for (const pod of pods) {
      if (!hasTracking(pod)) continue;
      const uid = pod.metadata.uid as string;
      const deleted = !!pod.metadata.deletionTimestamp;
      if (!isTerminal(pod) && !deleted) continue;
      if (uncountedOk.has(uid) || uncountedFailed.has(uid)) {
        toRelease.push(pod);
        continue;
      }
      if (pod.status?.phase === 'Succeeded') {
        const ix = completionIndexOf(pod);
        if (indexed && (ix === undefined || ix >= (completions ?? 0) || succeededIdx.has(ix))) {
          toRelease.push(pod);
          continue;
        }
        uncountedOk.add(uid);
        if (indexed && ix !== undefined) succeededIdx.add(ix);
      } else if (finished || job.spec?.suspend) {
        // Pods the controller removed from a finished or suspended Job are not failures.
        toRelease.push(pod);
        continue;
      } else {
        const match = pod.status?.phase === 'Failed' ? matchPodFailurePolicy(job.spec?.podFailurePolicy?.rules, pod) : undefined;
        if (match?.action === 'Ignore') {
          toRelease.push(pod);
          continue;
        }
        if (match?.action === 'FailJob') failureMatch ??= { reason: 'PodFailurePolicy', message: match.message };
        const ix = completionIndexOf(pod);
        if (indexed && ix !== undefined && job.spec?.backoffLimitPerIndex !== undefined) {
          const count = Number(pod.metadata.annotations?.[JOB_INDEX_FAILURE_COUNT] ?? '0') + 1;
          if (match?.action === 'FailIndex' || count > job.spec.backoffLimitPerIndex) failedIdx.add(ix);
        }
        uncountedFailed.add(uid);
        newFailures++;
      }
      toRelease.push(pod);
    }
    status.uncountedTerminatedPods = { ...(uncountedOk.size ? { succeeded: [...uncountedOk] } : {}), ...(uncountedFailed.size ? { failed: [...uncountedFailed] } : {}) };
    if (indexed) {
      status.completedIndexes = formatIndexes(succeededIdx);
      if (job.spec?.backoffLimitPerIndex !== undefined) status.failedIndexes = formatIndexes(failedIdx);
    }
    if (toRelease.length) {
      await this.writeStatus(job, status);
      await Promise.all(toRelease.map((p) => this.releasePod(p)));
      const live = new Set(pods.map((p) => p.metadata.uid));
      const released = new Set(toRelease.map((p) => p.metadata.uid));
      const done = (uid: string): boolean => released.has(uid) || !live.has(uid);
      const ok = [...uncountedOk].filter(done);
      const failed = [...uncountedFailed].filter(done);
      status.succeeded = (status.succeeded ?? 0) + ok.length;
      status.failed = (status.failed ?? 0) + failed.length;
      const restOk = [...uncountedOk].filter((u) => !done(u));
      const restFailed = [...uncountedFailed].filter((u) => !done(u));
      status.uncountedTerminatedPods = { ...(restOk.length ? { succeeded: restOk } : {}), ...(restFailed.length ? { failed: restFailed } : {}) };
    }

    const active = pods.filter((p) => !isTerminal(p) && !p.metadata.deletionTimestamp);
    status.active = active.length;
    status.ready = active.filter(isPodReady).length;
    status.terminating = pods.filter((p) => !isTerminal(p) && p.metadata.deletionTimestamp).length;
    status.succeeded ??= 0;
    status.failed ??= 0;
    let requeue: number | undefined;

    if (!finished) {
      const suspended = !!job.spec?.suspend;
      const suspendedCond = status.conditions?.find((c) => c.type === 'Suspended');
      if (suspended) {
        if (suspendedCond?.status !== 'True') {
          setCondition(status, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
          this.ctx.events.normal(this.ref(job), 'Suspended', 'Job suspended');
        }
        await this.deletePods(job, active);
        status.active = 0;
      } else {
        if (suspendedCond?.status === 'True') {
          setCondition(status, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
          this.ctx.events.normal(this.ref(job), 'Resumed', 'Job resumed');
          status.startTime = formatTimestamp(now);
        }
        status.startTime ??= formatTimestamp(now);
      }
      // Failure: a FailJob rule, the backoff limit, failed indexes, the deadline.
      const target = status.conditions?.find((c) => c.type === 'FailureTarget' && c.status === 'True');
      let failure: { reason: string; message: string } | undefined = target ? { reason: target.reason ?? '', message: target.message ?? '' } : failureMatch;
      const backoffLimit = job.spec?.backoffLimit ?? 6;
      const perIndex = indexed && job.spec?.backoffLimitPerIndex !== undefined;
      if (!failure && !perIndex && (status.failed ?? 0) + (status.uncountedTerminatedPods.failed?.length ?? 0) > backoffLimit) failure = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
      if (!failure && perIndex && job.spec?.maxFailedIndexes !== undefined && failedIdx.size > job.spec.maxFailedIndexes) failure = { reason: 'MaxFailedIndexesExceeded', message: 'Job has exceeded the specified maximal number of failed indexes' };
      const deadline = job.spec?.activeDeadlineSeconds;
      if (!failure && deadline !== undefined && !suspended && status.startTime) {
        const left = Date.parse(status.startTime) + deadline * 1000 - now.getTime();
        if (left <= 0) failure = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
        else requeue = left;
      }
      // Success: the success policy or enough completions.
      const succeededCount = (status.succeeded ?? 0) + (status.uncountedTerminatedPods.succeeded?.length ?? 0);
      const criteria = status.conditions?.find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True');
      let success: { reason: string; message: string } | undefined = criteria ? { reason: criteria.reason ?? '', message: criteria.message ?? '' } : undefined;
      if (!failure && !success) {
        const rule = indexed ? matchSuccessPolicy(job.spec?.successPolicy?.rules, succeededIdx) : undefined;
        if (rule !== undefined) success = { reason: 'SuccessPolicy', message: `Matched rules at index ${rule}` };
        else if (indexed ? succeededIdx.size >= (completions ?? 0) : completions !== null ? succeededCount >= completions : succeededCount > 0 && active.length === 0) success = { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' };
      }
      if (!failure && !success && perIndex && failedIdx.size > 0 && active.length === 0 && succeededIdx.size + failedIdx.size >= (completions ?? 0)) failure = { reason: 'FailedIndexes', message: 'Job has failed indexes' };
      if (failure || success) {
        const [interim, final] = failure ? ['FailureTarget', 'Failed'] : ['SuccessCriteriaMet', 'Complete'];
        const r = (failure ?? success) as { reason: string; message: string };
        if (!status.conditions?.some((c) => c.type === interim && c.status === 'True')) setCondition(status, interim, 'True', r.reason, r.message, now);
        // Active pods go first; the final condition waits for them to terminate, as kube's.
        await this.deletePods(job, active);
        status.active = 0;
        const stillTerminating = pods.some((p) => !isTerminal(p) && hasTracking(p));
        if (!stillTerminating && !status.uncountedTerminatedPods.succeeded?.length && !status.uncountedTerminatedPods.failed?.length) {
          setCondition(status, final, 'True', r.reason, r.message, now);
          if (success) {
            status.completionTime = formatTimestamp(now);
            this.ctx.events.normal(this.ref(job), 'Completed', 'Job completed');
          } else {
            this.ctx.events.warning(this.ref(job), r.reason, r.message);
          }
        }
      } else if (!suspended && this.expectations.satisfied(key)) {
        requeue = minDefined(requeue, await this.managePods(job, active, pods, succeededIdx, failedIdx, succeededCount, newFailures));
      }
    }
    if (completions === null && !indexed) status.completedIndexes = undefined;
    await this.writeStatus(job, status);
    if (requeue !== undefined) return { requeueAfterMs: requeue };
  }

  /** manageJob: create pods up to the wanted number of active ones, or delete the excess. Returns a backoff delay. */
  private async managePods(job: Job, active: Pod[], all: Pod[], succeededIdx: Set<number>, failedIdx: Set<number>, succeeded: number, newFailures: number): Promise<number | undefined> {
    const key = metaNamespaceKey(job);
    const parallelism = job.spec?.parallelism ?? 1;
    const completions = job.spec?.completions ?? null;
    const indexed = job.spec?.completionMode === 'Indexed';
    let wantActive: number;
    if (completions === null) wantActive = succeeded > 0 ? 0 : parallelism;
    else wantActive = Math.max(0, Math.min(parallelism, completions - (indexed ? succeededIdx.size + failedIdx.size : succeeded)));
    if (active.length > wantActive) {
      const excess = [...active].sort((a, b) => Number(isPodReady(a)) - Number(isPodReady(b)) || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '')).slice(0, active.length - wantActive);
      await this.deletePods(job, excess);
      return undefined;
    }
    const diff = wantActive - active.length;
    if (diff <= 0) return undefined;
    // The pod backoff: after failures, wait before replacing them.
    const failures = (job.status?.failed ?? 0) + newFailures;
    if (failures > 0) {
      const lastFailure = Math.max(0, ...all.filter((p) => p.status?.phase === 'Failed').map((p) => Date.parse(p.metadata.deletionTimestamp ?? '') || Date.parse(p.metadata.creationTimestamp ?? '') || 0));
      const wait = lastFailure + backoffDelayMs(failures) - Date.now();
      if (lastFailure > 0 && wait > 0) return wait;
    }
    let indexes: number[] = [];
    if (indexed) {
      const busy = new Set(active.map(completionIndexOf));
      for (let i = 0; i < (completions ?? 0) && indexes.length < diff; i++) if (!succeededIdx.has(i) && !failedIdx.has(i) && !busy.has(i)) indexes.push(i);
    } else {
      indexes = new Array<number>(diff).fill(-1);
    }
    const failureCounts = new Map<number, number>();
    for (const p of all) {
      const ix = completionIndexOf(p);
      if (ix === undefined || p.status?.phase !== 'Failed') continue;
      failureCounts.set(ix, Math.max(failureCounts.get(ix) ?? 0, Number(p.metadata.annotations?.[JOB_INDEX_FAILURE_COUNT] ?? '0') + 1));
    }
    this.expectations.expectCreations(key, indexes.length);
    let next = 0;
    const created = await slowStartBatch(indexes.length, async () => {
      const ix = indexes[next++];
      await this.createPod(job, ix < 0 ? undefined : ix, failureCounts.get(ix) ?? 0);
    });
    for (let i = created; i < indexes.length; i++) this.expectations.creationObserved(key);
    return undefined;
  }

  private async createPod(job: Job, index: number | undefined, indexFailures: number): Promise<void> {
    const name = job.metadata.name as string;
    const template = structuredClone(job.spec?.template ?? {});
    const spec = (template.spec ?? {}) as NonNullable<NonNullable<Job['spec']>['template']>['spec'] & { hostname?: string };
    const labels = { ...(template.metadata?.labels ?? {}) };
    const annotations = { ...(template.metadata?.annotations ?? {}) };
    if (index !== undefined) {
      annotations[JOB_COMPLETION_INDEX] = String(index);
      labels[JOB_COMPLETION_INDEX] = String(index);
      if (job.spec?.backoffLimitPerIndex !== undefined) annotations[JOB_INDEX_FAILURE_COUNT] = String(indexFailures);
      spec.hostname = `${name}-${index}`;
      // addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX from the annotation.
      const env = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${JOB_COMPLETION_INDEX}']` } } };
      for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) c.env = [...(c.env ?? []), env];
    }
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: index !== undefined ? `${name}-${index}-` : `${name}-`,
        namespace: job.metadata.namespace,
        labels,
        ...(Object.keys(annotations).length ? { annotations } : {}),
        finalizers: [...(template.metadata?.finalizers ?? []), JOB_TRACKING_FINALIZER],
        ownerReferences: [newControllerRef(job, KIND)],
      },
      spec,
    };
    try {
      const pod = await this.ctx.client.request('POST', resourcePath(PODS, job.metadata.namespace), { body });
      this.ctx.events.normal(this.ref(job), 'SuccessfulCreate', `Created pod: ${pod.metadata.name as string}`);
    } catch (err) {
      const terminating = isStatusError(err) && err.code === 403 && /is being terminated/.test(err.message);
      if (!terminating) this.ctx.events.warning(this.ref(job), 'FailedCreate', `Error creating: ${(err as Error).message}`);
      throw err;
    }
  }

  private async deletePods(job: Job, pods: Pod[]): Promise<void> {
    await Promise.all(
      pods.map(async (pod) => {
        try {
          await this.ctx.client.request('DELETE', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name), { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: pod.metadata.uid } } });
          this.ctx.events.normal(this.ref(job), 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name as string}`);
        } catch (err) {
          if (isStatusError(err) && (err.code === 404 || err.code === 409)) return;
          this.ctx.events.warning(this.ref(job), 'FailedDelete', `Error deleting: ${(err as Error).message}`);
        }
      }),
    );
  }

  /** cleanupOrphanPods: a pod whose Job is gone (checked against the server) loses the tracking finalizer. */
  private releaseOrphan(pod: Pod): void {
    const ref = controllerRefOf(pod);
    const check = ref?.kind === 'Job'
      ? this.ctx.client.get(resourcePath(JOBS, pod.metadata.namespace, ref.name)).then((j) => j.metadata.uid !== ref.uid, (err: unknown) => isStatusError(err) && err.code === 404)
      : Promise.resolve(true);
    check
      .then((orphan) => (orphan ? this.releasePod(pod) : undefined))
      // A stale resourceVersion: once more on a fresh read.
      .catch(() => this.ctx.client.get<Pod>(resourcePath(PODS, pod.metadata.namespace, pod.metadata.name)).then((fresh) => this.releasePod(fresh)))
      .catch(() => undefined);
  }

  /** Drops the job-tracking finalizer (a merge patch with the pod's resourceVersion: a concurrent change retries). */
  private async releasePod(pod: Pod): Promise<void> {
    const finalizers = (pod.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER);
    try {
      await this.ctx.client.request('PATCH', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name), { body: { metadata: { finalizers: finalizers.length ? finalizers : null, resourceVersion: pod.metadata.resourceVersion } }, contentType: MERGE });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }

  private async writeStatus(job: Job, status: JobStatus): Promise<void> {
    if (statusEqual(job.status, status)) return;
    const body = { ...job, apiVersion: KIND.apiVersion, kind: KIND.kind, status };
    try {
      const updated = await this.ctx.client.request<Job>('PUT', resourcePath(JOBS, job.metadata.namespace, job.metadata.name, 'status'), { body });
      job.metadata.resourceVersion = updated.metadata.resourceVersion;
      job.status = updated.status;
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }
}

/** Compared as Go compares the structs: the stored status lacks the omitempty zeros a computed one has. */
const statusEqual = goEquality(KIND.apiVersion, KIND.kind, 'status');

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

function setCondition(status: JobStatus, type: string, value: string, reason: string, message: string, now: Date): void {
  const t = formatTimestamp(now);
  const conditions = status.conditions ?? [];
  const existing = conditions.find((c) => c.type === type);
  if (existing) {
    if (existing.status !== value) existing.lastTransitionTime = t;
    Object.assign(existing, { status: value, reason, message, lastProbeTime: t });
  } else {
    conditions.push({ type, status: value, lastProbeTime: t, lastTransitionTime: t, reason, message });
  }
  status.conditions = conditions;
}

function selectorOf(job: Job): LabelSelector {
  try {
    return labelSelectorFromMetav1(job.spec?.selector ?? null);
  } catch {
    return LabelSelector.nothing();
  }
}
