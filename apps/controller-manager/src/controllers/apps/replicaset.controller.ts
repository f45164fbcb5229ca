import { Logger } from '@nestjs/common';
import { goEquality, isStatusError, LabelSelector, type GoEquality, labelSelectorFromMetav1, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ReconcileResult, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import { isPodReady, readySince, type Pod } from '../../simulation/pod.lifecycle';
import { claimObjects, controllerRefOf, newControllerRef, type ControllerKind } from './controller-ref.manager';
import { ControllerExpectations } from './controller.expectations';
import { PODS, rankPodsForDeletion, slowStartBatch } from './pod.control';

/** kube's BurstReplicas: at most this many creates or deletes per sync. */
const BURST_REPLICAS = 500;
/** kube's --concurrent-replicaset-syncs / --concurrent-rc-syncs default. */
const WORKERS = 5;

export interface ReplicaSetLike extends KubeObject {
  spec?: { replicas?: number; minReadySeconds?: number; selector?: MetaV1LabelSelector | Record<string, string> | null; template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: unknown } | null };
  status?: ReplicaSetStatus;
}

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: Array<{ type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }>;
}

/** What differs between the ReplicaSet and the ReplicationController flavours of the one controller (kube's GroupVersionKind + selector). */
interface Flavour {
  name: string;
  path: ResourcePath;
  kind: ControllerKind;
  selector(rs: ReplicaSetLike): LabelSelector;
  /** updateReplicaSetStatus's comparison, as Go compares the structs (the stored status lacks the omitempty zeros a computed one has). */
  statusEqual: GoEquality;
}

export const REPLICASETS: ResourcePath = { group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true };
export const REPLICATIONCONTROLLERS: ResourcePath = { group: '', version: 'v1', resource: 'replicationcontrollers', namespaced: true };

/** Parsed selectors by cached object: informer objects are immutable, and every pod event would parse them again. */
const selectors = new WeakMap<object, LabelSelector>();

function cachedSelector(rs: ReplicaSetLike, parse: (rs: ReplicaSetLike) => LabelSelector): LabelSelector {
  let sel = selectors.get(rs);
  if (!sel) {
    sel = parse(rs);
    selectors.set(rs, sel);
  }
  return sel;
}

const REPLICASET_FLAVOUR: Flavour = {
  name: 'replicaset-controller',
  path: REPLICASETS,
  kind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  statusEqual: goEquality('apps/v1', 'ReplicaSet', 'status'),
  selector: (rs) =>
    cachedSelector(rs, (x) => {
      try {
        return labelSelectorFromMetav1(x.spec?.selector as MetaV1LabelSelector | null | undefined);
      } catch {
        return LabelSelector.nothing();
      }
    }),
};

const RC_FLAVOUR: Flavour = {
  name: 'replicationcontroller-controller',
  path: REPLICATIONCONTROLLERS,
  kind: { apiVersion: 'v1', kind: 'ReplicationController' },
  statusEqual: goEquality('v1', 'ReplicationController', 'status'),
  // An RC's selector is a plain map (validation requires one): an empty map selects nothing here.
  selector: (rc) =>
    cachedSelector(rc, (x) => {
      const set = (x.spec?.selector ?? {}) as Record<string, string>;
      return Object.keys(set).length ? labelSelectorFromMetav1({ matchLabels: set }) : LabelSelector.nothing();
    }),
};

/** podutil.IsPodAvailable: Ready for at least minReadySeconds. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = readySince(pod);
  return since !== undefined && since + minReadySeconds * 1000 <= now;
}

/** controller.FilterActivePods: neither terminal nor being deleted. */
export function isPodActive(pod: Pod): boolean {
  return pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/**
 * kube's ReplicaSetController (pkg/controller/replicaset), which also runs ReplicationControllers: keeps
 * spec.replicas active pods of the template, with expectations, slow-start batches of creates, kube's deletion
 * ranking, adoption and release of pods by selector, and status (replicas, fullyLabeledReplicas, readyReplicas,
 * availableReplicas, observedGeneration, the ReplicaFailure condition) and events as kube writes them.
 */
export class ReplicaSetController implements ManagedController {
  readonly name: string;
  private readonly logger: Logger;
  readonly controller: Controller;
  private readonly sets: SharedIndexInformer;
  private readonly pods: SharedIndexInformer;
  private readonly expectations = new ControllerExpectations();

  static replicaSets(ctx: ControllerContext): ReplicaSetController {
    return new ReplicaSetController(ctx, REPLICASET_FLAVOUR);
  }

  static replicationControllers(ctx: ControllerContext): ReplicaSetController {
    return new ReplicaSetController(ctx, RC_FLAVOUR);
  }

  private constructor(
    private readonly ctx: ControllerContext,
    private readonly flavour: Flavour,
  ) {
    this.name = flavour.name;
    this.logger = new Logger(flavour.name);
    this.sets = ctx.informers.informerFor(flavour.path);
    this.pods = ctx.informers.informerFor(PODS);
    this.controller = new Controller({ name: flavour.name, reconcile: (key) => this.sync(key), workers: WORKERS, waitFor: [this.sets, this.pods] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.sets.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: (obj) => {
      this.expectations.delete(metaNamespaceKey(obj));
      enqueue(obj);
    } });
    this.pods.addEventHandler({ add: (p) => this.addPod(p as Pod), update: (o, p) => this.updatePod(o as Pod, p as Pod), delete: (p) => this.deletePod(p as Pod) });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  /** The owner a controller reference names, if it is one of ours. */
  private ownerOf(pod: Pod): ReplicaSetLike | undefined {
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== this.flavour.kind.kind) return undefined;
    const rs = this.sets.lister.get(`${pod.metadata.namespace}/${ref.name}`) as ReplicaSetLike | undefined;
    return rs?.metadata.uid === ref.uid ? rs : undefined;
  }

  /** getPodReplicaSets: the sets of the namespace that select an orphan. */
  private selecting(pod: Pod): ReplicaSetLike[] {
    return (this.sets.lister.byIndex(NAMESPACE_INDEX, pod.metadata.namespace as string) as ReplicaSetLike[]).filter((rs) => this.flavour.selector(rs).matches(pod.metadata.labels ?? {}));
  }

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod);
    const owner = this.ownerOf(pod);
    if (owner) {
      const key = metaNamespaceKey(owner);
      this.expectations.creationObserved(key);
      this.controller.enqueue(key);
      return;
    }
    if (controllerRefOf(pod)) return;
    for (const rs of this.selecting(pod)) this.controller.enqueue(metaNamespaceKey(rs));
  }

  private updatePod(old: Pod, pod: Pod): void {
    if (old === pod || old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
    if (pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) {
      // A graceful delete: the pod is on its way out; count it now, not when the kubelet removes it.
      this.deletePod(pod);
      if (labelsChanged) this.deletePod(old);
      return;
    }
    const oldOwner = this.ownerOf(old);
    const owner = this.ownerOf(pod);
    if (oldOwner && oldOwner !== owner) this.controller.enqueue(metaNamespaceKey(oldOwner));
    if (owner) {
      const key = metaNamespaceKey(owner);
      this.controller.enqueue(key);
      // Ready now: available after minReadySeconds, when no event would tell us.
      const minReady = owner.spec?.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.controller.enqueueAfter(key, (minReady + 1) * 1000);
      return;
    }
    if (!controllerRefOf(pod) && (labelsChanged || controllerRefOf(old))) for (const rs of this.selecting(pod)) this.controller.enqueue(metaNamespaceKey(rs));
  }

  private deletePod(pod: Pod): void {
    const owner = this.ownerOf(pod);
    if (!owner) return;
    const key = metaNamespaceKey(owner);
    this.expectations.deletionObserved(key, metaNamespaceKey(pod));
    this.controller.enqueue(key);
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const rs = this.sets.lister.get(key) as ReplicaSetLike | undefined;
    if (!rs) {
      this.expectations.delete(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key) && !rs.metadata.deletionTimestamp;
    const selector = this.flavour.selector(rs);
    const namespace = rs.metadata.namespace as string;
    const all = this.pods.lister.byIndex(NAMESPACE_INDEX, namespace) as Pod[];
    const active = all.filter(isPodActive);
    const owned = (await claimObjects(this.ctx.client, rs, this.flavour.kind, this.flavour.path, selector, active, PODS)) as Pod[];
    let failure: { reason: string; message: string } | undefined;
    if (needsSync) failure = await this.manageReplicas(owned, all, rs);
    const now = Date.now();
    const status = this.calculateStatus(rs, owned, failure, now);
    const updated = await this.updateStatus(rs, status);
    const minReady = rs.spec?.minReadySeconds ?? 0;
    if (!failure && updated && minReady > 0 && status.readyReplicas === (rs.spec?.replicas ?? 1) && status.availableReplicas !== (rs.spec?.replicas ?? 1)) {
      return { requeueAfterMs: minReady * 1000 };
    }
    if (failure) return { requeue: true };
  }

  /** manageReplicas: create or delete the difference, at most BURST_REPLICAS a pass. */
  private async manageReplicas(owned: Pod[], all: Pod[], rs: ReplicaSetLike): Promise<{ reason: string; message: string } | undefined> {
    const key = metaNamespaceKey(rs);
    const wanted = rs.spec?.replicas ?? 1;
    const diff = owned.length - wanted;
    const ref = { apiVersion: this.flavour.kind.apiVersion, kind: this.flavour.kind.kind, name: rs.metadata.name as string, namespace: rs.metadata.namespace, uid: rs.metadata.uid as string };
    if (diff < 0) {
      const n = Math.min(-diff, BURST_REPLICAS);
      // Expect them all before the first create: an informer event may come before the POST returns.
      this.expectations.expectCreations(key, n);
      const template = rs.spec?.template ?? {};
      const body = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          generateName: `${rs.metadata.name}-`,
          namespace: rs.metadata.namespace,
          labels: template.metadata?.labels,
          annotations: template.metadata?.annotations,
          finalizers: template.metadata?.finalizers,
          ownerReferences: [newControllerRef(rs, this.flavour.kind)],
        },
        spec: template.spec,
      };
      let firstError: Error | undefined;
      const created = await slowStartBatch(n, async () => {
        try {
          const pod = await this.ctx.client.request('POST', resourcePath(PODS, rs.metadata.namespace), { body });
          this.ctx.events.normal(ref, 'SuccessfulCreate', `Created pod: ${pod.metadata.name as string}`);
        } catch (err) {
          // A namespace being deleted refuses creates: no event, as kube (it would only be noise).
          const terminating = isStatusError(err) && err.code === 403 && /is being terminated/.test(err.message);
          if (!terminating) this.ctx.events.warning(ref, 'FailedCreate', `Error creating: ${(err as Error).message}`);
          firstError ??= err as Error;
          throw err;
        }
      });
      // The creates we skipped or that failed will never be observed.
      for (let i = created; i < n; i++) this.expectations.creationObserved(key);
      return firstError ? { reason: 'FailedCreate', message: firstError.message } : undefined;
    }
    if (diff > 0) {
      const n = Math.min(diff, BURST_REPLICAS);
      const victims = rankPodsForDeletion(owned, all, n);
      this.expectations.expectDeletions(key, victims.map(metaNamespaceKey));
      let firstError: Error | undefined;
      await Promise.all(
        victims.map(async (pod) => {
          try {
            await this.ctx.client.request('DELETE', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name), { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: pod.metadata.uid } } });
            this.ctx.events.normal(ref, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name as string}`);
          } catch (err) {
            this.expectations.deletionObserved(key, metaNamespaceKey(pod));
            if (isStatusError(err) && (err.code === 404 || err.code === 409)) return;
            this.ctx.events.warning(ref, 'FailedDelete', `Error deleting: ${(err as Error).message}`);
            firstError ??= err as Error;
          }
        }),
      );
      return firstError ? { reason: 'FailedDelete', message: firstError.message } : undefined;
    }
    return undefined;
  }

  /** calculateStatus. */
  private calculateStatus(rs: ReplicaSetLike, owned: Pod[], failure: { reason: string; message: string } | undefined, now: number): ReplicaSetStatus {
    const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
    const minReady = rs.spec?.minReadySeconds ?? 0;
    let fullyLabeled = 0;
    let ready = 0;
    let available = 0;
    for (const pod of owned) {
      const labels = pod.metadata.labels ?? {};
      if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled++;
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, minReady, now)) available++;
      }
    }
    let conditions = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
    const existing = rs.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
    if (failure) {
      const lastTransitionTime = existing?.status === 'True' ? existing.lastTransitionTime : formatTimestamp(new Date(now));
      conditions = [...conditions, { type: 'ReplicaFailure', status: 'True', lastTransitionTime, reason: failure.reason, message: failure.message }];
    }
    return {
      replicas: owned.length,
      fullyLabeledReplicas: fullyLabeled,
      readyReplicas: ready,
      availableReplicas: available,
      observedGeneration: rs.metadata.generation,
      ...(conditions.length ? { conditions } : {}),
    };
  }

  /** updateReplicaSetStatus: only when something changed; one retry on a fresh read after a conflict. Returns whether the status is current. */
  private async updateStatus(rs: ReplicaSetLike, status: ReplicaSetStatus): Promise<boolean> {
    if (rs.status && this.flavour.statusEqual(rs.status, status)) return true;
    let current: ReplicaSetLike = rs;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.ctx.client.request('PUT', resourcePath(this.flavour.path, rs.metadata.namespace, rs.metadata.name, 'status'), { body: { ...current, apiVersion: this.flavour.kind.apiVersion, kind: this.flavour.kind.kind, status } });
        return true;
      } catch (err) {
        if (isStatusError(err) && err.code === 404) return false;
        if (!(isStatusError(err) && err.code === 409) || attempt === 1) throw err;
        current = await this.ctx.client.get<ReplicaSetLike>(resourcePath(this.flavour.path, rs.metadata.namespace, rs.metadata.name));
      }
    }
    return false;
  }
}
