import { goEquality, isStatusError, LabelSelector, labelSelectorFromMetav1, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ReconcileResult, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import type { InvolvedObject } from '../../event.recorder';
import { NODES, type Node } from '../../simulation/node.simulator';
import { isPodReady, type Pod, type Toleration } from '../../simulation/pod.lifecycle';
import { matchesNodeAffinity, untoleratedTaint } from '../../simulation/pod.scheduler';
import { claimObjects, controllerRefOf, newControllerRef, type ControllerKind } from './controller-ref.manager';
import { CONTROLLER_REVISION_HASH_LABEL, CONTROLLER_REVISIONS, ensureUpdateRevision, scaledValue, truncateHistory, type ControllerRevision } from './controller-revision.util';
import type { PodTemplate } from './deployment.util';
import { PODS } from './pod.control';
import { isPodAvailable } from './replicaset.controller';

export const DAEMONSETS: ResourcePath = { group: 'apps', version: 'v1', resource: 'daemonsets', namespaced: true };
const KIND: ControllerKind = { apiVersion: 'apps/v1', kind: 'DaemonSet' };
const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
const HASH_LABEL = 'controller.kubernetes.io/hash';

export interface DaemonSet extends KubeObject {
  spec?: {
    selector?: MetaV1LabelSelector | null;
    template?: PodTemplate;
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } };
  };
  status?: Record<string, unknown> & { collisionCount?: number };
}

/** util.AddOrUpdateDaemonPodTolerations: daemon pods tolerate the node conditions kube taints nodes with. */
const DAEMON_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** The node a daemon pod is for: its nodeName, else the metadata.name its node affinity pins. */
function targetNode(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const t of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    const f = (t as { matchFields?: Array<{ key: string; operator: string; values?: string[] }> }).matchFields?.find((m) => m.key === 'metadata.name' && m.operator === 'In');
    if (f?.values?.length === 1) return f.values[0];
  }
  return undefined;
}

/**
 * kube's DaemonSetsController (pkg/controller/daemon): one pod per node the template may run on (nodeSelector,
 * required node affinity, taints against the template's tolerations plus the daemon ones), pinned by a
 * `metadata.name` node affinity the scheduler binds (ReplaceDaemonSetPodNodeNameNodeAffinity); RollingUpdate
 * within maxUnavailable or maxSurge, OnDelete; a ControllerRevision per template (the pods' controller-revision-hash);
 * kube's status numbers and events.
 */
export class DaemonSetController implements ManagedController {
  readonly name = 'daemonset-controller';
  readonly controller: Controller;
  private readonly sets: SharedIndexInformer;
  private readonly pods: SharedIndexInformer;
  private readonly nodes: SharedIndexInformer;
  private readonly revisions: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.sets = ctx.informers.informerFor(DAEMONSETS);
    this.pods = ctx.informers.informerFor(PODS);
    this.nodes = ctx.informers.informerFor(NODES);
    this.revisions = ctx.informers.informerFor(CONTROLLER_REVISIONS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 2, waitFor: [this.sets, this.pods, this.nodes, this.revisions] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.sets.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
    const podChanged = (pod: KubeObject): void => {
      const ref = controllerRefOf(pod);
      if (ref?.kind === 'DaemonSet') this.controller.enqueue(`${pod.metadata.namespace as string}/${ref.name}`);
    };
    this.pods.addEventHandler({ add: podChanged, update: (_o, n) => podChanged(n), delete: podChanged });
    const all = (): void => {
      for (const s of this.sets.lister.list()) enqueue(s);
    };
    this.nodes.addEventHandler({ add: all, update: (o, n) => (JSON.stringify([o.metadata.labels, (o as Node).spec]) !== JSON.stringify([n.metadata.labels, (n as Node).spec]) ? all() : undefined), delete: all });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private ref(ds: DaemonSet): InvolvedObject {
    return { apiVersion: KIND.apiVersion, kind: KIND.kind, name: ds.metadata.name as string, namespace: ds.metadata.namespace, uid: ds.metadata.uid as string };
  }

  /** nodeShouldRunDaemonPod. */
  private shouldRun(ds: DaemonSet, node: Node): boolean {
    const probe = { metadata: {}, spec: { ...((ds.spec?.template?.spec ?? {}) as Pod['spec']) } } as Pod;
    probe.spec = { ...probe.spec, tolerations: [...(probe.spec?.tolerations ?? []), ...DAEMON_TOLERATIONS] };
    return matchesNodeAffinity(probe, node) && !untoleratedTaint(probe, node);
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const ds = this.sets.lister.get(key) as DaemonSet | undefined;
    if (!ds) return;
    const ns = ds.metadata.namespace as string;
    const selector = selectorOf(ds);
    const candidates = this.pods.lister.byIndex(NAMESPACE_INDEX, ns) as Pod[];
    const pods = ((await claimObjects(this.ctx.client, ds, KIND, DAEMONSETS, selector, candidates, PODS)) as Pod[]);
    const revisions = (this.revisions.lister.byIndex(NAMESPACE_INDEX, ns) as ControllerRevision[]).filter((r) => controllerRefOf(r)?.uid === ds.metadata.uid);
    const update = await ensureUpdateRevision(this.ctx.client, ds, KIND, revisions);
    const hash = update.metadata.labels?.[HASH_LABEL] ?? '';
    const nodes = this.nodes.lister.list() as Node[];
    const byNode = new Map<string, Pod[]>();
    for (const p of pods) {
      const n = targetNode(p);
      if (n) byNode.set(n, [...(byNode.get(n) ?? []), p]);
    }
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const now = Date.now();
    const available = (p: Pod): boolean => !p.metadata.deletionTimestamp && isPodAvailable(p, minReady, now);
    const isNew = (p: Pod): boolean => p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash;
    const toCreate: string[] = [];
    const toDelete: Pod[] = [];
    let requeue: number | undefined;
    if (!ds.metadata.deletionTimestamp) {
      for (const node of nodes) {
        const name = node.metadata.name as string;
        const here = (byNode.get(name) ?? []).filter((p) => !p.metadata.deletionTimestamp);
        if (!this.shouldRun(ds, node)) {
          toDelete.push(...here);
          continue;
        }
        const failed = here.filter((p) => p.status?.phase === 'Failed');
        for (const p of failed) this.ctx.events.warning(this.ref(ds), 'FailedDaemonPod', `Found failed daemon pod ${ns}/${p.metadata.name as string} on node ${name}, will try to kill it`);
        toDelete.push(...failed);
        const alive = here.filter((p) => p.status?.phase !== 'Failed');
        if (alive.length === 0 && !(byNode.get(name) ?? []).some((p) => p.metadata.deletionTimestamp)) toCreate.push(name);
        else if (alive.length > 1) {
          // Keep one: the new-revision, oldest, available one (kube keeps the oldest).
          const keep = [...alive].sort((a, b) => Number(isNew(b)) - Number(isNew(a)) || Number(available(b)) - Number(available(a)) || (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''))[0];
          const surging = alive.length === 2 && isNew(keep) && !available(keep);
          if (!surging) toDelete.push(...alive.filter((p) => p !== keep));
        }
      }
      for (const [name, ps] of byNode) if (!nodes.some((n) => n.metadata.name === name)) toDelete.push(...ps.filter((p) => !p.metadata.deletionTimestamp));
      if ((ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') requeue = this.rollingUpdate(ds, nodes, byNode, isNew, available, toCreate, toDelete);
      await Promise.all([...toCreate.map((n) => this.createPod(ds, n, hash)), ...toDelete.map((p) => this.deletePod(ds, p))]);
    }
    await this.writeStatus(ds, nodes, byNode, isNew, available);
    const live = new Set<string>([update.metadata.name as string, ...pods.map((p) => `${ds.metadata.name as string}-${p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? ''}`)]);
    await truncateHistory(this.ctx.client, ds, revisions.filter((r) => r.metadata.name !== update.metadata.name).concat(update), live);
    if (requeue !== undefined) return { requeueAfterMs: requeue };
  }

  /** rollingUpdate: old pods go within maxUnavailable; with maxSurge a new pod starts beside the old one first. */
  private rollingUpdate(ds: DaemonSet, nodes: Node[], byNode: Map<string, Pod[]>, isNew: (p: Pod) => boolean, available: (p: Pod) => boolean, toCreate: string[], toDelete: Pod[]): number | undefined {
    const eligible = nodes.filter((n) => this.shouldRun(ds, n));
    const desired = eligible.length;
    const maxSurge = scaledValue(ds.spec?.updateStrategy?.rollingUpdate?.maxSurge, desired, true, 0);
    const maxUnavailable = maxSurge > 0 ? scaledValue(ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable, desired, true, 0) : Math.max(1, scaledValue(ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable, desired, true, 1));
    const deleting = new Set(toDelete.map((p) => p.metadata.uid));
    let unavailable = 0;
    const oldOnly: Array<{ node: string; old: Pod }> = [];
    let surging = 0;
    for (const node of eligible) {
      const name = node.metadata.name as string;
      const here = (byNode.get(name) ?? []).filter((p) => !p.metadata.deletionTimestamp && !deleting.has(p.metadata.uid));
      const fresh = here.find(isNew);
      const old = here.find((p) => !isNew(p));
      if (!here.some(available)) unavailable++;
      if (old && fresh) {
        surging++;
        if (available(fresh)) toDelete.push(old);
      } else if (old) {
        oldOnly.push({ node: name, old });
      }
    }
    // Not-available old pods first: replacing them costs no availability.
    oldOnly.sort((a, b) => Number(available(a.old)) - Number(available(b.old)));
    for (const { node, old } of oldOnly) {
      if (maxSurge > 0) {
        if (!available(old)) {
          toDelete.push(old);
          continue;
        }
        if (surging >= maxSurge) break;
        toCreate.push(node);
        surging++;
      } else {
        if (available(old) && unavailable >= maxUnavailable) break;
        if (available(old)) unavailable++;
        toDelete.push(old);
      }
    }
    const minReady = ds.spec?.minReadySeconds ?? 0;
    return minReady > 0 ? minReady * 1000 : undefined;
  }

  private async createPod(ds: DaemonSet, node: string, hash: string): Promise<void> {
    const template = structuredClone(ds.spec?.template ?? {});
    const spec = (template.spec ?? {}) as NonNullable<Pod['spec']> & { affinity?: Record<string, unknown> };
    const tolerations = [...(spec.tolerations ?? [])];
    for (const t of DAEMON_TOLERATIONS) if (!tolerations.some((x) => x.key === t.key && x.effect === t.effect)) tolerations.push(t);
    spec.tolerations = tolerations;
    // ReplaceDaemonSetPodNodeNameNodeAffinity: pinned to the node by metadata.name; the scheduler binds it.
    const nodeAffinity = (spec.affinity?.nodeAffinity ?? {}) as Record<string, unknown>;
    spec.affinity = { ...(spec.affinity ?? {}), nodeAffinity: { ...nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } };
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${ds.metadata.name as string}-`,
        namespace: ds.metadata.namespace,
        labels: { ...(template.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash, [TEMPLATE_GENERATION_LABEL]: String(ds.metadata.generation ?? 1) },
        ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
        ownerReferences: [newControllerRef(ds, KIND)],
      },
      spec,
    };
    try {
      const pod = await this.ctx.client.request('POST', resourcePath(PODS, ds.metadata.namespace), { body });
      this.ctx.events.normal(this.ref(ds), 'SuccessfulCreate', `Created pod: ${pod.metadata.name as string}`);
    } catch (err) {
      if (!(isStatusError(err) && err.code === 403 && /is being terminated/.test(err.message))) this.ctx.events.warning(this.ref(ds), 'FailedCreate', `Error creating: ${(err as Error).message}`);
    }
  }

  private async deletePod(ds: DaemonSet, pod: Pod): Promise<void> {
    try {
      await this.ctx.client.request('DELETE', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name), { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: pod.metadata.uid } } });
      this.ctx.events.normal(this.ref(ds), 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name as string}`);
    } catch (err) {
      if (isStatusError(err) && (err.code === 404 || err.code === 409)) return;
      this.ctx.events.warning(this.ref(ds), 'FailedDelete', `Error deleting: ${(err as Error).message}`);
    }
  }

  /** updateDaemonSetStatus. */
  private async writeStatus(ds: DaemonSet, nodes: Node[], byNode: Map<string, Pod[]>, isNew: (p: Pod) => boolean, available: (p: Pod) => boolean): Promise<void> {
    let desired = 0;
    let current = 0;
    let misscheduled = 0;
    let ready = 0;
    let updated = 0;
    let avail = 0;
    for (const node of nodes) {
      const here = (byNode.get(node.metadata.name as string) ?? []).filter((p) => !p.metadata.deletionTimestamp);
      const should = this.shouldRun(ds, node);
      if (should) {
        desired++;
        if (here.length) {
          current++;
          const newest = here.find(isNew) ?? here[0];
          if (isPodReady(newest)) {
            ready++;
            if (available(newest)) avail++;
          }
          if (here.some(isNew)) updated++;
        }
      } else if (here.length) {
        misscheduled++;
      }
    }
    const status = {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
      observedGeneration: ds.metadata.generation,
      updatedNumberScheduled: updated,
      numberAvailable: avail,
      ...(desired - avail > 0 ? { numberUnavailable: desired - avail } : {}),
      ...(ds.status?.collisionCount !== undefined ? { collisionCount: ds.status.collisionCount } : {}),
      ...(ds.status?.conditions ? { conditions: ds.status.conditions } : {}),
    };
    if (statusEqual(ds.status, status)) return;
    try {
      await this.ctx.client.request('PUT', resourcePath(DAEMONSETS, ds.metadata.namespace, ds.metadata.name, 'status'), { body: { ...ds, apiVersion: KIND.apiVersion, kind: KIND.kind, status } });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }
}

/** Compared as Go compares the structs: the stored status lacks the omitempty zeros a computed one has. */
const statusEqual = goEquality(KIND.apiVersion, KIND.kind, 'status');

function selectorOf(ds: DaemonSet): LabelSelector {
  try {
    return labelSelectorFromMetav1(ds.spec?.selector ?? null);
  } catch {
    return LabelSelector.nothing();
  }
}
