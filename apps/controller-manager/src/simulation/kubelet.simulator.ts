import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, resourcePath, type ReconcileResult, type RestClient, type SharedIndexInformer } from '@kube/client';
import type { EventRecorder } from '../event.recorder';
import { isTerminal, POD_COMPLETE_DELAY_ANNOTATION, POD_DELETE_DELAY_ANNOTATION, POD_READY_DELAY_ANNOTATION, runningStatus, runsToCompletion, stageDelayMs, succeededStatus, type Pod } from './pod.lifecycle';
import { PODS, POD_NODE_INDEX, involved } from './pod.scheduler';
import type { SimulationOptions } from './simulation.options';

/** Parallel status writes (the kubelets of all nodes share this loop). */
const WORKERS = 8;

/**
 * The kubelets of the simulated nodes (KWOK's pod stages): a pod bound to one of them turns Running, its
 * containers started and Ready, with a podIP from the node's pod CIDR after the ready delay; a pod that runs to
 * completion (restartPolicy Never/OnFailure) Succeeds after the complete delay; a pod being deleted is removed
 * (DELETE with gracePeriodSeconds=0, as the kubelet's status manager does) once its grace period is over.
 */
export class KubeletSimulator {
  readonly controller: Controller;
  /** IPs handed out whose status write the informer has not brought back yet (two workers, one node). */
  private readonly reserved = new Map<string, string>();

  constructor(
    private readonly client: RestClient,
    private readonly pods: SharedIndexInformer,
    private readonly options: SimulationOptions,
    private readonly events: EventRecorder,
    private readonly nodeIP: (node: string) => { hostIP: string; podPrefix: string } | undefined,
  ) {
    this.controller = new Controller({ name: 'simulated-kubelet', reconcile: (key) => this.sync(key), workers: WORKERS, waitFor: [pods] });
    const consider = (p: KubeObject): void => {
      const node = (p as Pod).spec?.nodeName;
      if (node && this.nodeIP(node)) this.controller.enqueue(metaNamespaceKey(p));
    };
    pods.addEventHandler({ add: consider, update: (_o, p) => consider(p), delete: (p) => this.reserved.delete(metaNamespaceKey(p)) });
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const pod = this.pods.lister.get(key) as Pod | undefined;
    const node = pod?.spec?.nodeName;
    const ips = node ? this.nodeIP(node) : undefined;
    if (!pod || !node || !ips) return;
    const now = Date.now();
    if (pod.metadata.deletionTimestamp) return this.remove(pod, now);
    if (isTerminal(pod)) return;
    if (pod.status?.phase !== 'Running') {
      const scheduledAt = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True')?.lastTransitionTime ?? pod.metadata.creationTimestamp;
      const due = Date.parse(scheduledAt ?? new Date(now).toISOString()) + stageDelayMs(pod, POD_READY_DELAY_ANNOTATION, this.options.podReadyDelayMs);
      if (now < due) return { requeueAfterMs: due - now };
      const podIP = pod.status?.podIP || this.freeIP(node, ips.podPrefix, key);
      const written = await this.writeStatus(pod, runningStatus(pod, ips.hostIP, podIP));
      if (written && !pod.status?.startTime) for (const c of pod.spec?.containers ?? []) this.events.normal(involved(pod), 'Started', `Started container ${c.name}`);
      if (!written) return { requeue: true };
      return runsToCompletion(pod) ? { requeueAfterMs: stageDelayMs(pod, POD_COMPLETE_DELAY_ANNOTATION, this.options.podCompleteDelayMs) } : undefined;
    }
    if (!runsToCompletion(pod)) return;
    const due = Date.parse(pod.status?.startTime ?? new Date(now).toISOString()) + stageDelayMs(pod, POD_COMPLETE_DELAY_ANNOTATION, this.options.podCompleteDelayMs);
    if (now < due) return { requeueAfterMs: due - now };
    return (await this.writeStatus(pod, succeededStatus(pod))) ? undefined : { requeue: true };
  }

  /** The grace period runs from the deletion request to deletionTimestamp; the delete delay (annotation, option) may end it sooner. */
  private async remove(pod: Pod, now: number): Promise<ReconcileResult | void> {
    const deadline = Date.parse(pod.metadata.deletionTimestamp as string);
    const grace = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
    const delay = stageDelayMs(pod, POD_DELETE_DELAY_ANNOTATION, this.options.podDeleteDelayMs ?? grace);
    const due = Math.min(deadline, deadline - grace + delay);
    if (now < due) return { requeueAfterMs: due - now };
    try {
      await this.client.request('DELETE', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } },
      });
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  /** PUT pods/status on the cached version; false on a conflict (the informer brings the newer pod). */
  private async writeStatus(pod: Pod, status: NonNullable<Pod['status']>): Promise<boolean> {
    try {
      await this.client.request('PUT', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name, 'status'), { body: { ...pod, apiVersion: 'v1', kind: 'Pod', status } });
      return true;
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return true;
      if (isStatusError(err) && err.code === 409) return false;
      throw err;
    }
  }

  /** The lowest host address of the node's /24 no live pod on it holds. */
  private freeIP(node: string, prefix: string, key: string): string {
    const used = new Set<string>();
    for (const p of this.pods.lister.byIndex(POD_NODE_INDEX, node) as Pod[]) if (!isTerminal(p) && metaNamespaceKey(p) !== key && p.status?.podIP) used.add(p.status.podIP);
    for (const [k, ip] of this.reserved) if (k !== key && ip.startsWith(prefix)) used.add(ip);
    let ip = `${prefix}254`;
    for (let i = 2; i < 255; i++) {
      if (used.has(`${prefix}${i}`)) continue;
      ip = `${prefix}${i}`;
      break;
    }
    this.reserved.set(key, ip);
    return ip;
  }
}
