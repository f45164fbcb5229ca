import { isStatusError, LabelSelector, labelSelectorFromMetav1, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ReconcileResult, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import type { InvolvedObject } from '../../event.recorder';
import { isPodReady, type Pod } from '../../simulation/pod.lifecycle';
import { claimObjects, controllerRefOf, newControllerRef, type ControllerKind } from './controller-ref.manager';
import { CONTROLLER_REVISION_HASH_LABEL, CONTROLLER_REVISIONS, ensureUpdateRevision, scaledValue, templateOf, truncateHistory, type ControllerRevision } from './controller-revision.util';
import type { PodTemplate } from './deployment.util';
import { PODS } from './pod.control';
import { isPodAvailable } from './replicaset.controller';

export const STATEFULSETS: ResourcePath = { group: 'apps', version: 'v1', resource: 'statefulsets', namespaced: true };
const PVCS: ResourcePath = { group: '', version: 'v1', resource: 'persistentvolumeclaims', namespaced: true };
const KIND: ControllerKind = { apiVersion: 'apps/v1', kind: 'StatefulSet' };
export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

interface PvcTemplate {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: unknown;
}

export interface StatefulSet extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: MetaV1LabelSelector | null;
    template?: PodTemplate;
    serviceName?: string;
    podManagementPolicy?: string;
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    ordinals?: { start?: number };
    volumeClaimTemplates?: PvcTemplate[];
    updateStrategy?: { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
  };
  status?: StatefulSetStatus;
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: unknown[];
}

/** getOrdinal: the ordinal in `<set>-<n>`, -1 when the name is not one. */
export function ordinalOf(setName: string, pod: KubeObject): number {
  const name = pod.metadata.name ?? '';
  if (!name.startsWith(`${setName}-`)) return -1;
  const tail = name.slice(setName.length + 1);
  return /^(0|[1-9]\d*)$/.test(tail) ? Number(tail) : -1;
}

const revisionOfPod = (pod: Pod): string | undefined => pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
const isFailed = (pod: Pod): boolean => pod.status?.phase === 'Failed';
const isSucceeded = (pod: Pod): boolean => pod.status?.phase === 'Succeeded';
const isTerminating = (pod: Pod): boolean => !!pod.metadata.deletionTimestamp;
const isRunningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isPodReady(pod);

/**
 * kube's StatefulSetController (pkg/controller/statefulset): pods `<set>-<ordinal>` with stable hostnames and
 * their PersistentVolumeClaims from volumeClaimTemplates, created and deleted in order (OrderedReady: one at a
 * time, each Running and Ready before the next) or all at once (Parallel); updates from the highest ordinal down
 * to the partition within maxUnavailable (RollingUpdate) or when a pod is deleted (OnDelete); a ControllerRevision
 * per template; status and events as kube writes them.
 */
export class StatefulSetController implements ManagedController {
  readonly name = 'statefulset-controller';
  readonly controller: Controller;
  private readonly sets: SharedIndexInformer;
  private readonly pods: SharedIndexInformer;
  private readonly revisions: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.sets = ctx.informers.informerFor(STATEFULSETS);
    this.pods = ctx.informers.informerFor(PODS);
    this.revisions = ctx.informers.informerFor(CONTROLLER_REVISIONS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 5, waitFor: [this.sets, this.pods, this.revisions] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.sets.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
    const podChanged = (pod: KubeObject): void => {
      const ref = controllerRefOf(pod);
      if (ref?.kind === 'StatefulSet') this.controller.enqueue(`${pod.metadata.namespace as string}/${ref.name}`);
      else if (!ref) for (const s of this.selecting(pod as Pod)) enqueue(s);
    };
    this.pods.addEventHandler({ add: podChanged, update: (_o, n) => podChanged(n), delete: podChanged });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private selecting(pod: Pod): StatefulSet[] {
    return (this.sets.lister.byIndex(NAMESPACE_INDEX, pod.metadata.namespace as string) as StatefulSet[]).filter((s) => selectorOf(s).matches(pod.metadata.labels ?? {}));
  }

  private ref(set: StatefulSet): InvolvedObject {
    return { apiVersion: KIND.apiVersion, kind: KIND.kind, name: set.metadata.name as string, namespace: set.metadata.namespace, uid: set.metadata.uid as string };
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const set = this.sets.lister.get(key) as StatefulSet | undefined;
    if (!set) return;
    const ns = set.metadata.namespace as string;
    const setName = set.metadata.name as string;
    const selector = selectorOf(set);
    const candidates = (this.pods.lister.byIndex(NAMESPACE_INDEX, ns) as Pod[]).filter((p) => ordinalOf(setName, p) >= 0 || controllerRefOf(p)?.uid === set.metadata.uid);
    const pods = (await claimObjects(this.ctx.client, set, KIND, STATEFULSETS, selector, candidates, PODS, (p) => ordinalOf(setName, p) >= 0)) as Pod[];
    const revisions = (this.revisions.lister.byIndex(NAMESPACE_INDEX, ns) as ControllerRevision[]).filter((r) => controllerRefOf(r)?.uid === set.metadata.uid);
    const update = await ensureUpdateRevision(this.ctx.client, set, KIND, revisions);
    const all = revisions.some((r) => r.metadata.name === update.metadata.name) ? revisions.map((r) => (r.metadata.name === update.metadata.name ? update : r)) : [...revisions, update];
    const current = all.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
    let requeueMs: number | undefined;
    if (!set.metadata.deletionTimestamp) requeueMs = await this.updateSet(set, pods, current, update);
    const fresh = (this.pods.lister.byIndex(NAMESPACE_INDEX, ns) as Pod[]).filter((p) => controllerRefOf(p)?.uid === set.metadata.uid && ordinalOf(setName, p) >= 0);
    const status = this.computeStatus(set, fresh, current, update);
    await this.writeStatus(set, status);
    const live = new Set<string>([current.metadata.name as string, update.metadata.name as string, ...fresh.map((p) => revisionOfPod(p) ?? '')]);
    await truncateHistory(this.ctx.client, set, all, live);
    if (requeueMs !== undefined) return { requeueAfterMs: requeueMs };
  }

  /** updateStatefulSet: one pass of creates, deletes and updates; returns a delay to look again (minReadySeconds). */
  private async updateSet(set: StatefulSet, pods: Pod[], current: ControllerRevision, update: ControllerRevision): Promise<number | undefined> {
    const setName = set.metadata.name as string;
    const start = set.spec?.ordinals?.start ?? 0;
    const replicaCount = set.spec?.replicas ?? 1;
    const parallel = set.spec?.podManagementPolicy === 'Parallel';
    const minReady = set.spec?.minReadySeconds ?? 0;
    const now = Date.now();
    const replicas: Array<Pod | undefined> = new Array(replicaCount).fill(undefined);
    const condemned: Pod[] = [];
    for (const pod of pods) {
      const o = ordinalOf(setName, pod);
      if (o >= start && o < start + replicaCount) replicas[o - start] = pod;
      else condemned.push(pod);
    }
    condemned.sort((a, b) => ordinalOf(setName, b) - ordinalOf(setName, a));
    const rolling = (set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
    const partition = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    const currentReplicas = set.status?.currentReplicas ?? 0;
    const revisionFor = (ordinal: number): ControllerRevision => {
      // newVersionedStatefulSetPod: below the partition (or, without one, the pods not yet updated) keep the current revision.
      const keep = rolling && (set.spec?.updateStrategy?.rollingUpdate ? ordinal < start + partition : ordinal < start + currentReplicas);
      return keep ? current : update;
    };
    let requeue: number | undefined;
    let unhealthy = false;
    for (let i = 0; i < replicaCount; i++) {
      const ordinal = start + i;
      let pod = replicas[i];
      if (pod && (isFailed(pod) || isSucceeded(pod)) && !isTerminating(pod)) {
        this.ctx.events.normal(this.ref(set), 'SuccessfulDelete', `delete Pod ${pod.metadata.name as string} in StatefulSet ${setName} successful`);
        await this.deletePod(set, pod);
        pod = undefined;
        replicas[i] = undefined;
      }
      if (!pod) {
        await this.createPod(set, ordinal, revisionFor(ordinal));
        if (!parallel) return undefined;
        unhealthy = true;
        continue;
      }
      if (isTerminating(pod)) {
        if (!parallel) return undefined;
        unhealthy = true;
        continue;
      }
      if (!isRunningAndReady(pod)) {
        if (!parallel) return undefined;
        unhealthy = true;
        continue;
      }
      if (!isPodAvailable(pod, minReady, now)) {
        requeue = minReady * 1000;
        if (!parallel) return requeue;
      }
    }
    // Scale down: the highest ordinal first; OrderedReady one at a time, once every other pod is healthy.
    for (const pod of condemned) {
      if (isTerminating(pod)) {
        if (!parallel) return requeue;
        continue;
      }
      if (!parallel && (unhealthy || !isRunningAndReady(pod)) && condemned[0] !== pod) return requeue;
      this.ctx.events.normal(this.ref(set), 'SuccessfulDelete', `delete Pod ${pod.metadata.name as string} in StatefulSet ${setName} successful`);
      await this.deletePod(set, pod);
      if (!parallel) return requeue;
    }
    if (!rolling) return requeue;
    // RollingUpdate: replace pods of another revision from the highest ordinal down to the partition, within maxUnavailable.
    const maxUnavailable = Math.max(1, scaledValue(set.spec?.updateStrategy?.rollingUpdate?.maxUnavailable, replicaCount, false, 1));
    let unavailable = replicas.filter((p) => !p || isTerminating(p) || !isPodAvailable(p, minReady, now)).length;
    for (let i = replicaCount - 1; i >= partition; i--) {
      const pod = replicas[i];
      if (!pod || isTerminating(pod)) continue;
      if (revisionOfPod(pod) === update.metadata.name) {
        continue;
      }
      if (unavailable >= maxUnavailable) return requeue;
      this.ctx.events.normal(this.ref(set), 'SuccessfulDelete', `delete Pod ${pod.metadata.name as string} in StatefulSet ${setName} successful`);
      await this.deletePod(set, pod);
      unavailable++;
      if (unavailable >= maxUnavailable) return requeue;
    }
    return requeue;
  }

  private async createPod(set: StatefulSet, ordinal: number, revision: ControllerRevision): Promise<void> {
    const setName = set.metadata.name as string;
    const ns = set.metadata.namespace as string;
    const podName = `${setName}-${ordinal}`;
    const template = templateOf(revision);
    const spec = structuredClone((template.spec ?? {}) as { volumes?: Array<{ name: string; [k: string]: unknown }>; hostname?: string; subdomain?: string });
    // createPersistentVolumeClaims: one claim per template, `<template>-<set>-<ordinal>`, made once and kept.
    const volumes = (spec.volumes ?? []).filter((v) => !(set.spec?.volumeClaimTemplates ?? []).some((t) => t.metadata?.name === v.name));
    for (const t of set.spec?.volumeClaimTemplates ?? []) {
      const claimName = `${t.metadata?.name as string}-${podName}`;
      const labels = { ...(t.metadata?.labels ?? {}), ...(selectorLabels(set)) };
      try {
        await this.ctx.client.request('POST', resourcePath(PVCS, ns), { body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: claimName, namespace: ns, labels, ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}) }, spec: t.spec } });
        this.ctx.events.normal(this.ref(set), 'SuccessfulCreate', `create Claim ${claimName} Pod ${podName} in StatefulSet ${setName} success`);
      } catch (err) {
        if (!(isStatusError(err) && err.code === 409)) {
          this.ctx.events.warning(this.ref(set), 'FailedCreate', `create Claim ${claimName} for Pod ${podName} in StatefulSet ${setName} failed error: ${(err as Error).message}`);
          throw err;
        }
      }
      volumes.push({ name: t.metadata?.name as string, persistentVolumeClaim: { claimName } });
    }
    if (volumes.length) spec.volumes = volumes;
    spec.hostname = podName;
    if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: podName,
        namespace: ns,
        labels: { ...(template.metadata?.labels ?? {}), [STATEFULSET_POD_NAME_LABEL]: podName, [POD_INDEX_LABEL]: String(ordinal), [CONTROLLER_REVISION_HASH_LABEL]: revision.metadata.name as string },
        ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
        ownerReferences: [newControllerRef(set, KIND)],
      },
      spec,
    };
    try {
      await this.ctx.client.request('POST', resourcePath(PODS, ns), { body });
      this.ctx.events.normal(this.ref(set), 'SuccessfulCreate', `create Pod ${podName} in StatefulSet ${setName} successful`);
    } catch (err) {
      if (isStatusError(err) && err.code === 409) return;
      this.ctx.events.warning(this.ref(set), 'FailedCreate', `create Pod ${podName} in StatefulSet ${setName} failed error: ${(err as Error).message}`);
      throw err;
    }
  }

  private async deletePod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.ctx.client.request('DELETE', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name), { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: pod.metadata.uid } } });
    } catch (err) {
      if (isStatusError(err) && (err.code === 404 || err.code === 409)) return;
      this.ctx.events.warning(this.ref(set), 'FailedDelete', `delete Pod ${pod.metadata.name as string} in StatefulSet ${set.metadata.name as string} failed error: ${(err as Error).message}`);
      throw err;
    }
  }

  private computeStatus(set: StatefulSet, pods: Pod[], current: ControllerRevision, update: ControllerRevision): StatefulSetStatus {
    const minReady = set.spec?.minReadySeconds ?? 0;
    const now = Date.now();
    const s: StatefulSetStatus = { observedGeneration: set.metadata.generation, replicas: 0, readyReplicas: 0, currentReplicas: 0, updatedReplicas: 0, availableReplicas: 0, currentRevision: current.metadata.name, updateRevision: update.metadata.name, collisionCount: set.status?.collisionCount ?? 0 };
    for (const pod of pods) {
      if (isTerminating(pod)) continue;
      s.replicas++;
      if (isRunningAndReady(pod)) {
        s.readyReplicas = (s.readyReplicas ?? 0) + 1;
        if (isPodAvailable(pod, minReady, now)) s.availableReplicas = (s.availableReplicas ?? 0) + 1;
      }
      const rev = revisionOfPod(pod);
      if (rev === current.metadata.name) s.currentReplicas = (s.currentReplicas ?? 0) + 1;
      if (rev === update.metadata.name) s.updatedReplicas = (s.updatedReplicas ?? 0) + 1;
    }
    // completeRollingUpdate: every pod updated and ready makes the update revision current.
    const rolling = (set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
    if (rolling && s.updatedReplicas === s.replicas && s.readyReplicas === s.replicas && s.replicas === (set.spec?.replicas ?? 1)) {
      s.currentRevision = s.updateRevision;
      s.currentReplicas = s.updatedReplicas;
    }
    if (set.status?.conditions) s.conditions = set.status.conditions;
    return s;
  }

  private async writeStatus(set: StatefulSet, status: StatefulSetStatus): Promise<void> {
    const keys: Array<keyof StatefulSetStatus> = ['observedGeneration', 'replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'currentRevision', 'updateRevision', 'collisionCount'];
    if (set.status && keys.every((k) => (set.status?.[k] ?? 0) === (status[k] ?? 0))) return;
    let current: StatefulSet = set;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.ctx.client.request('PUT', resourcePath(STATEFULSETS, set.metadata.namespace, set.metadata.name, 'status'), { body: { ...current, apiVersion: KIND.apiVersion, kind: KIND.kind, status } });
        return;
      } catch (err) {
        if (isStatusError(err) && err.code === 404) return;
        if (!(isStatusError(err) && err.code === 409) || attempt === 1) throw err;
        current = await this.ctx.client.get<StatefulSet>(resourcePath(STATEFULSETS, set.metadata.namespace, set.metadata.name));
      }
    }
  }
}

function selectorOf(set: StatefulSet): LabelSelector {
  try {
    return labelSelectorFromMetav1(set.spec?.selector ?? null);
  } catch {
    return LabelSelector.nothing();
  }
}

function selectorLabels(set: StatefulSet): Record<string, string> {
  return set.spec?.selector?.matchLabels ?? {};
}
