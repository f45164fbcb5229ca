import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, resourcePath, type ReconcileResult, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import { finishedCondition, JOBS, type Job } from './job.controller';

/**
 * kube's TTL-after-finished controller (pkg/controller/ttlafterfinished): a finished Job with
 * spec.ttlSecondsAfterFinished is deleted (foreground, with a uid precondition) that long after its Complete or
 * Failed condition's lastTransitionTime.
 */
export class TtlAfterFinishedController implements ManagedController {
  readonly name = 'ttl-after-finished-controller';
  readonly controller: Controller;
  private readonly jobs: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.jobs = ctx.informers.informerFor(JOBS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 5, waitFor: [this.jobs] });
    const enqueue = (obj: KubeObject): void => {
      const job = obj as Job;
      if (job.spec?.ttlSecondsAfterFinished !== undefined && !job.metadata.deletionTimestamp && finishedCondition(job)) this.controller.enqueue(metaNamespaceKey(obj));
    };
    this.jobs.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n) });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const job = this.jobs.lister.get(key) as Job | undefined;
    const ttl = job?.spec?.ttlSecondsAfterFinished;
    const done = job && finishedCondition(job);
    if (!job || ttl === undefined || !done || job.metadata.deletionTimestamp) return;
    const finishedAt = Date.parse(done.lastTransitionTime ?? '') || Date.now();
    const left = finishedAt + ttl * 1000 - Date.now();
    if (left > 0) return { requeueAfterMs: left };
    try {
      await this.ctx.client.request('DELETE', resourcePath(JOBS, job.metadata.namespace, job.metadata.name), { body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid } } });
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}
