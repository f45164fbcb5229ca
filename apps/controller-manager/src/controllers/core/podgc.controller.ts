import { Logger } from '@nestjs/common';
import { isStatusError } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';
import { resourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import { NODES } from '../../simulation/node.simulator';
import type { Pod } from '../../simulation/pod.lifecycle';
import { PODS } from '../apps/pod.control';

/** kube's gcCheckPeriod. */
const CHECK_PERIOD_MS = 20_000;
/** kube's quarantineTime: a node must be missing this long before its pods are orphans. */
const QUARANTINE_MS = 40_000;
/** kube's --terminated-pod-gc-threshold default. */
export const DEFAULT_TERMINATED_POD_THRESHOLD = 12_500;
const SMP = 'application/strategic-merge-patch+json';

/**
 * kube's PodGCController (pkg/controller/podgc), every 20 s: finished pods beyond the threshold (oldest first),
 * pods bound to a node that has been gone for the quarantine (marked Failed with the DisruptionTarget condition
 * DeletionByPodGC, then deleted at once) and terminating pods that were never scheduled.
 */
export class PodGcController implements ManagedController {
  readonly name = 'pod-garbage-collector-controller';
  private readonly logger = new Logger('PodGC');
  private readonly pods: SharedIndexInformer;
  private readonly nodes: SharedIndexInformer;
  private readonly missingSince = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly threshold = DEFAULT_TERMINATED_POD_THRESHOLD,
  ) {
    this.pods = ctx.informers.informerFor(PODS);
    this.nodes = ctx.informers.informerFor(NODES);
  }

  async start(): Promise<void> {
    this.ctx.informers.start();
    await Promise.all([this.pods.waitForSync(), this.nodes.waitForSync()]);
    this.timer = setInterval(() => {
      this.running ??= this.gc()
        .catch((err: unknown) => this.logger.warn(`pod GC: ${(err as Error).message}`))
        .finally(() => (this.running = undefined));
    }, CHECK_PERIOD_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass; exposed for tests. */
  async gc(now = Date.now()): Promise<void> {
    const pods = this.pods.lister.list() as Pod[];
    const terminated = pods.filter((p) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed').sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
    const excess = terminated.length - this.threshold;
    for (const pod of terminated.slice(0, Math.max(0, excess))) await this.forceDelete(pod);
    const nodes = new Set(this.nodes.lister.list().map((n) => n.metadata.name));
    for (const name of [...this.missingSince.keys()]) if (nodes.has(name)) this.missingSince.delete(name);
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      if (node && !nodes.has(node)) {
        const since = this.missingSince.get(node) ?? now;
        this.missingSince.set(node, since);
        if (now - since < QUARANTINE_MS) continue;
        // Checked against the server, not only the cache, before the pod goes.
        const exists = await this.ctx.client.get(resourcePath(NODES, undefined, node)).then(() => true, (err: unknown) => !(isStatusError(err) && err.code === 404));
        if (exists) continue;
        await this.markFailed(pod, 'PodGC: node no longer exists');
        await this.forceDelete(pod);
      } else if (!node && pod.metadata.deletionTimestamp) {
        await this.forceDelete(pod);
      }
    }
  }

  private async markFailed(pod: Pod, message: string): Promise<void> {
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    const t = formatTimestamp(new Date());
    await this.ctx.client
      .request('PATCH', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name, 'status'), { body: { status: { phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message, lastTransitionTime: t }] } }, contentType: SMP })
      .catch((err: unknown) => this.logger.warn(`marking ${pod.metadata.namespace as string}/${pod.metadata.name as string} failed: ${(err as Error).message}`));
  }

  private async forceDelete(pod: Pod): Promise<void> {
    try {
      await this.ctx.client.request('DELETE', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name), { body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } } });
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}
