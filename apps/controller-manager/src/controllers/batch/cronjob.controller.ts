import { goEquality, isStatusError, type KubeObject } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ReconcileResult, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import type { InvolvedObject } from '../../event.recorder';
import { controllerRefOf, newControllerRef, type ControllerKind } from '../apps/controller-ref.manager';
import { checkTimeZone, formatRfc3339In, parseCronSchedule, type CronSchedule } from './cron.schedule';
import { finishedCondition, JOBS, type Job } from './job.controller';

export const CRONJOBS: ResourcePath = { group: 'batch', version: 'v1', resource: 'cronjobs', namespaced: true };
const KIND: ControllerKind = { apiVersion: 'batch/v1', kind: 'CronJob' };
/** Compared as Go compares the structs: the stored status lacks the omitempty zeros a computed one has. */
const statusEqual = goEquality(KIND.apiVersion, KIND.kind, 'status');
const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

interface JobRef {
  apiVersion?: string;
  kind?: string;
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion?: string;
}

export interface CronJob extends KubeObject {
  spec?: {
    schedule?: string;
    timeZone?: string;
    startingDeadlineSeconds?: number;
    concurrencyPolicy?: string;
    suspend?: boolean;
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
    jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };
  };
  status?: { active?: JobRef[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
}

/** A Go-like RFC 1123Z time, for the MissSchedule event. */
function rfc1123z(at: number): string {
  return new Date(at).toUTCString().replace('GMT', '+0000');
}

/**
 * kube's CronJob controller (pkg/controller/cronjob, controllerv2): a Job `<cronjob>-<minutes since the epoch>`
 * per activation of the schedule in spec.timeZone, with concurrencyPolicy Allow/Forbid/Replace,
 * startingDeadlineSeconds, suspend, the history limits, status.active/lastScheduleTime/lastSuccessfulTime, and
 * kube's events (SuccessfulCreate, SawCompletedJob, MissingJob, JobAlreadyActive, MissSchedule,
 * UnparseableSchedule, InvalidSchedule, UnknownTimeZone, UnsupportedSchedule). Each CronJob is requeued for its
 * next activation.
 */
export class CronJobController implements ManagedController {
  readonly name = 'cronjob-controller';
  readonly controller: Controller;
  private readonly cronJobs: SharedIndexInformer;
  private readonly jobs: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.cronJobs = ctx.informers.informerFor(CRONJOBS);
    this.jobs = ctx.informers.informerFor(JOBS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 5, waitFor: [this.cronJobs, this.jobs] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.cronJobs.addEventHandler({ add: enqueue, update: (o, n) => (o.metadata.resourceVersion !== n.metadata.resourceVersion ? enqueue(n) : undefined), delete: enqueue });
    const jobEvent = (job: KubeObject): void => {
      const ref = controllerRefOf(job);
      if (ref?.kind === 'CronJob') this.controller.enqueue(`${job.metadata.namespace as string}/${ref.name}`);
    };
    this.jobs.addEventHandler({ add: jobEvent, update: (_o, n) => jobEvent(n), delete: jobEvent });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private ref(cj: CronJob): InvolvedObject {
    return { apiVersion: KIND.apiVersion, kind: KIND.kind, name: cj.metadata.name as string, namespace: cj.metadata.namespace, uid: cj.metadata.uid as string };
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const found = this.cronJobs.lister.get(key) as CronJob | undefined;
    if (!found) return;
    const cj: CronJob = structuredClone(found);
    cj.status ??= {};
    const jobs = (this.jobs.lister.byIndex(NAMESPACE_INDEX, cj.metadata.namespace as string) as Job[]).filter((j) => controllerRefOf(j)?.uid === cj.metadata.uid);
    let requeue: number | undefined;
    let changed = false;
    try {
      const r = await this.syncCronJob(cj, jobs);
      requeue = r.requeue;
      changed = r.changed;
    } finally {
      changed = this.cleanupFinishedJobs(cj, jobs) || changed;
      if (changed) await this.writeStatus(found, cj.status);
    }
    if (requeue !== undefined) return { requeueAfterMs: requeue };
  }

  private async syncCronJob(cj: CronJob, jobs: Job[]): Promise<{ requeue?: number; changed: boolean }> {
    const now = Date.now();
    let changed = false;
    const status = cj.status as NonNullable<CronJob['status']>;
    const active = (): JobRef[] => (status.active ??= []);
    const children = new Set(jobs.map((j) => j.metadata.uid));
    for (const j of jobs) {
      const inActive = active().some((r) => r.uid === j.metadata.uid);
      const done = finishedCondition(j);
      if (!inActive && !done) {
        this.ctx.events.warning(this.ref(cj), 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name as string}`);
      } else if (done) {
        if (inActive) {
          status.active = active().filter((r) => r.uid !== j.metadata.uid);
          this.ctx.events.normal(this.ref(cj), 'SawCompletedJob', `Saw completed job: ${j.metadata.name as string}, condition: ${done.type}`);
          changed = true;
        }
        const completion = j.status?.completionTime;
        if (done.type === 'Complete' && completion && (!status.lastSuccessfulTime || Date.parse(completion) > Date.parse(status.lastSuccessfulTime))) {
          status.lastSuccessfulTime = completion;
          changed = true;
        }
      }
    }
    for (const r of [...active()]) {
      if (children.has(r.uid)) continue;
      try {
        await this.ctx.client.get(resourcePath(JOBS, r.namespace ?? cj.metadata.namespace, r.name));
      } catch (err) {
        if (!(isStatusError(err) && err.code === 404)) throw err;
        this.ctx.events.normal(this.ref(cj), 'MissingJob', `Active job went missing: ${r.name}`);
        status.active = active().filter((x) => x.uid !== r.uid);
        changed = true;
      }
    }
    if (cj.metadata.deletionTimestamp) return { changed };
    const zone = cj.spec?.timeZone;
    if (zone !== undefined) {
      const err = checkTimeZone(zone);
      if (err) {
        this.ctx.events.warning(this.ref(cj), 'UnknownTimeZone', `invalid timeZone: "${zone}": ${err}`);
        return { changed };
      }
    }
    if (cj.spec?.suspend) return { changed };
    const scheduleText = cj.spec?.schedule ?? '';
    if (scheduleText.includes('TZ')) {
      this.ctx.events.warning(this.ref(cj), 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule "${scheduleText}" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`);
    }
    let schedule: CronSchedule;
    try {
      schedule = parseCronSchedule(scheduleText, zone ?? 'UTC');
    } catch (err) {
      this.ctx.events.warning(this.ref(cj), 'UnparseableSchedule', `unparseable schedule: "${scheduleText}" : ${(err as Error).message}`);
      return { changed };
    }
    // mostRecentScheduleTime: the latest activation since the last one (or creation), within the starting deadline.
    let earliest = Date.parse(status.lastScheduleTime ?? cj.metadata.creationTimestamp ?? '') || now;
    const deadline = cj.spec?.startingDeadlineSeconds;
    if (deadline !== undefined) earliest = Math.max(earliest, now - deadline * 1000);
    const t1 = schedule.next(earliest);
    const t2 = t1 !== undefined ? schedule.next(t1) : undefined;
    if (t1 === undefined || t2 === undefined || t2 - t1 < 1000) {
      if (t1 === undefined || t1 <= now) {
        this.ctx.events.warning(this.ref(cj), 'InvalidSchedule', `invalid schedule: ${scheduleText} : time difference between two schedules is less than 1 second`);
        return { changed };
      }
    }
    const nextIn = (): number => {
      const n = schedule.next(now);
      return n === undefined ? 3_600_000 : n - now + 100;
    };
    if ((t1 as number) > now) return { requeue: nextIn(), changed };
    let scheduled = t1 as number;
    for (let i = 0, t = t2; t !== undefined && t <= now && i < 100_000; i++, t = schedule.next(t)) scheduled = t;
    if (deadline !== undefined && scheduled + deadline * 1000 < now) {
      this.ctx.events.warning(this.ref(cj), 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      return { requeue: nextIn(), changed };
    }
    const jobName = `${cj.metadata.name as string}-${Math.floor(scheduled / 60_000)}`;
    if (active().some((r) => r.name === jobName) || (status.lastScheduleTime && Date.parse(status.lastScheduleTime) === scheduled)) return { requeue: nextIn(), changed };
    const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && active().length > 0) {
      this.ctx.events.normal(this.ref(cj), 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return { requeue: nextIn(), changed };
    }
    if (policy === 'Replace') {
      for (const r of [...active()]) {
        await this.deleteJob(cj, r.name, r.uid);
        changed = true;
      }
    }
    const template = cj.spec?.jobTemplate ?? {};
    const body = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: jobName,
        namespace: cj.metadata.namespace,
        labels: { ...(template.metadata?.labels ?? {}) },
        annotations: { ...(template.metadata?.annotations ?? {}), [SCHEDULED_TIMESTAMP_ANNOTATION]: formatRfc3339In(scheduled, zone ?? 'UTC') },
        ownerReferences: [newControllerRef(cj, KIND)],
      },
      spec: template.spec,
    };
    let created: Job;
    try {
      created = await this.ctx.client.request<Job>('POST', resourcePath(JOBS, cj.metadata.namespace), { body });
      this.ctx.events.normal(this.ref(cj), 'SuccessfulCreate', `Created job ${created.metadata.name as string}`);
    } catch (err) {
      if (isStatusError(err) && err.code === 409) {
        created = await this.ctx.client.get<Job>(resourcePath(JOBS, cj.metadata.namespace, jobName));
        if (controllerRefOf(created)?.uid !== cj.metadata.uid || active().some((r) => r.uid === created.metadata.uid)) return { changed };
      } else {
        if (!(isStatusError(err) && err.code === 403 && /is being terminated/.test(err.message))) this.ctx.events.warning(this.ref(cj), 'FailedCreate', `Error creating job: ${(err as Error).message}`);
        throw err;
      }
    }
    active().push({ apiVersion: 'batch/v1', kind: 'Job', name: created.metadata.name as string, namespace: created.metadata.namespace, uid: created.metadata.uid as string, resourceVersion: created.metadata.resourceVersion });
    status.lastScheduleTime = formatTimestamp(new Date(scheduled));
    return { requeue: nextIn(), changed: true };
  }

  /** cleanupFinishedJobs: the oldest finished jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit. */
  private cleanupFinishedJobs(cj: CronJob, jobs: Job[]): boolean {
    const limits: Array<[string, number | undefined]> = [
      ['Complete', cj.spec?.successfulJobsHistoryLimit],
      ['Failed', cj.spec?.failedJobsHistoryLimit],
    ];
    let changed = false;
    for (const [type, limit] of limits) {
      if (limit === undefined) continue;
      const finished = jobs.filter((j) => finishedCondition(j)?.type === type && !j.metadata.deletionTimestamp);
      const startOf = (j: Job): number => Date.parse(j.status?.startTime ?? '') || Number.MAX_SAFE_INTEGER;
      finished.sort((a, b) => startOf(a) - startOf(b) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
      for (const j of finished.slice(0, Math.max(0, finished.length - limit))) {
        void this.deleteJob(cj, j.metadata.name as string, j.metadata.uid as string);
        changed = true;
      }
    }
    return changed;
  }

  /** deleteJob: the Job and its pods (background propagation), and its entry in status.active. */
  private async deleteJob(cj: CronJob, name: string, uid: string): Promise<void> {
    try {
      await this.ctx.client.request('DELETE', resourcePath(JOBS, cj.metadata.namespace, name), { body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' } });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) {
        this.ctx.events.warning(this.ref(cj), 'FailedDelete', `Deleted job: ${(err as Error).message}`);
        return;
      }
    }
    if (cj.status?.active) cj.status.active = cj.status.active.filter((r) => r.uid !== uid);
    this.ctx.events.normal(this.ref(cj), 'SuccessfulDelete', `Deleted job ${name}`);
  }

  private async writeStatus(cj: CronJob, status: CronJob['status']): Promise<void> {
    const next = { ...status, ...(status?.active?.length ? {} : { active: undefined }) };
    if (statusEqual(cj.status, next)) return;
    let current: CronJob = cj;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.ctx.client.request('PUT', resourcePath(CRONJOBS, cj.metadata.namespace, cj.metadata.name, 'status'), { body: { ...current, apiVersion: KIND.apiVersion, kind: KIND.kind, status: next } });
        return;
      } catch (err) {
        if (isStatusError(err) && err.code === 404) return;
        if (!(isStatusError(err) && err.code === 409) || attempt === 1) throw err;
        current = await this.ctx.client.get<CronJob>(resourcePath(CRONJOBS, cj.metadata.namespace, cj.metadata.name));
      }
    }
  }
}
