import { goEquality, isStatusError, LabelSelector, labelSelectorFromMetav1, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ReconcileResult, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import { isPodReady, type Pod } from '../../simulation/pod.lifecycle';
import { controllerRefOf } from '../apps/controller-ref.manager';
import { scaledValue } from '../apps/controller-revision.util';
import { PODS } from '../apps/pod.control';

export const PDBS: ResourcePath = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', namespaced: true };
/** kube's DeletionTimeout: an evicted pod not deleted within this long counts again. */
/** Compared as Go compares the structs: the stored status lacks the omitempty zeros a computed one has. */
const statusEqual = goEquality('policy/v1', 'PodDisruptionBudget', 'status');
const DELETION_TIMEOUT_MS = 2 * 60_000;

const SCALABLE: Readonly<Record<string, ResourcePath>> = {
  ReplicaSet: { group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true },
  Deployment: { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true },
  StatefulSet: { group: 'apps', version: 'v1', resource: 'statefulsets', namespaced: true },
  ReplicationController: { group: '', version: 'v1', resource: 'replicationcontrollers', namespaced: true },
};

interface Pdb extends KubeObject {
  spec?: { minAvailable?: number | string; maxUnavailable?: number | string; selector?: MetaV1LabelSelector | null };
  status?: {
    observedGeneration?: number;
    disruptedPods?: Record<string, string>;
    disruptionsAllowed?: number;
    currentHealthy?: number;
    desiredHealthy?: number;
    expectedPods?: number;
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string; observedGeneration?: number; lastTransitionTime?: string }>;
  };
}

/**
 * kube's DisruptionController (pkg/controller/disruption): a PodDisruptionBudget's status from the pods it
 * selects: expectedPods (the scale of their controllers when the budget is maxUnavailable or a percentage),
 * desiredHealthy, currentHealthy (ready pods not awaiting an eviction's deletion), disruptionsAllowed, the
 * DisruptionAllowed condition (SufficientPods / InsufficientPods / SyncFailed), disruptedPods pruned as the
 * evicted pods go. Eviction (core-api) reads and decrements this status.
 */
export class DisruptionController implements ManagedController {
  readonly name = 'disruption-controller';
  readonly controller: Controller;
  private readonly pdbs: SharedIndexInformer;
  private readonly pods: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.pdbs = ctx.informers.informerFor(PDBS);
    this.pods = ctx.informers.informerFor(PODS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 2, waitFor: [this.pdbs, this.pods] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.pdbs.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
    const podChanged = (pod: KubeObject): void => {
      for (const pdb of this.pdbs.lister.byIndex(NAMESPACE_INDEX, pod.metadata.namespace as string) as Pdb[]) if (selectorOf(pdb).matches(pod.metadata.labels ?? {})) enqueue(pdb);
    };
    this.pods.addEventHandler({ add: podChanged, update: (o, n) => {
      podChanged(n);
      podChanged(o);
    }, delete: podChanged });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const pdb = this.pdbs.lister.get(key) as Pdb | undefined;
    if (!pdb || pdb.metadata.deletionTimestamp) return;
    const ns = pdb.metadata.namespace as string;
    const selector = selectorOf(pdb);
    const pods = (this.pods.lister.byIndex(NAMESPACE_INDEX, ns) as Pod[]).filter((p) => selector.matches(p.metadata.labels ?? {}));
    const ref = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: pdb.metadata.name as string, namespace: ns, uid: pdb.metadata.uid as string };
    let expected: number;
    let desired: number;
    try {
      ({ expected, desired } = await this.expectedAndDesired(pdb, pods));
    } catch (err) {
      this.ctx.events.warning(ref, 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${(err as Error).message}`);
      await this.writeStatus(pdb, { ...(pdb.status ?? {}), observedGeneration: pdb.metadata.generation, disruptionsAllowed: 0 }, 'False', 'SyncFailed', (err as Error).message);
      return;
    }
    // countHealthyPods and buildDisruptedPodMap: an evicted pod is not healthy until it goes or the entry expires.
    const now = Date.now();
    const disrupted: Record<string, string> = {};
    let recheck: number | undefined;
    for (const [name, at] of Object.entries(pdb.status?.disruptedPods ?? {})) {
      const pod = pods.find((p) => p.metadata.name === name);
      if (!pod || pod.metadata.deletionTimestamp) continue;
      const left = Date.parse(at) + DELETION_TIMEOUT_MS - now;
      if (left <= 0) {
        this.ctx.events.warning({ apiVersion: 'v1', kind: 'Pod', name, namespace: ns, uid: pod.metadata.uid as string }, 'NotDeleted', 'Pod was expected by PDB ' + `${ns}/${pdb.metadata.name as string} to be deleted but it wasn't`);
        continue;
      }
      disrupted[name] = at;
      recheck = Math.min(recheck ?? left, left);
    }
    const healthy = pods.filter((p) => !p.metadata.deletionTimestamp && isPodReady(p) && !disrupted[p.metadata.name as string]).length;
    const allowed = Math.max(0, healthy - desired);
    await this.writeStatus(
      pdb,
      { observedGeneration: pdb.metadata.generation, ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}), disruptionsAllowed: expected <= 0 ? 0 : allowed, currentHealthy: healthy, desiredHealthy: desired, expectedPods: expected },
      allowed > 0 && expected > 0 ? 'True' : 'False',
      allowed > 0 && expected > 0 ? 'SufficientPods' : 'InsufficientPods',
      '',
    );
    if (recheck !== undefined) return { requeueAfterMs: recheck + 1000 };
  }

  /** getExpectedPodCount. */
  private async expectedAndDesired(pdb: Pdb, pods: Pod[]): Promise<{ expected: number; desired: number }> {
    const min = pdb.spec?.minAvailable;
    const max = pdb.spec?.maxUnavailable;
    if (max === undefined && typeof min === 'number') return { expected: pods.length, desired: min };
    if (max === undefined && typeof min === 'string' && /^\d+$/.test(min)) return { expected: pods.length, desired: Number(min) };
    const expected = await this.controllerScale(pdb, pods);
    if (max !== undefined) return { expected, desired: Math.max(0, expected - scaledValue(max, expected, true, 0)) };
    return { expected, desired: scaledValue(min, expected, true, 0) };
  }

  /** The sum of the scales of the selected pods' controllers (each counted once). */
  private async controllerScale(pdb: Pdb, pods: Pod[]): Promise<number> {
    const seen = new Map<string, number>();
    for (const pod of pods) {
      let ref = controllerRefOf(pod);
      if (!ref) throw new Error(`found no controller ref for pod "${pod.metadata.name as string}"`);
      let path = SCALABLE[ref.kind];
      if (!path) throw new Error(`found no controllers for pod "${pod.metadata.name as string}"`);
      if (seen.has(ref.uid)) continue;
      let owner = await this.ctx.client.get<KubeObject & { spec?: { replicas?: number } }>(resourcePath(path, pod.metadata.namespace, ref.name));
      if (ref.kind === 'ReplicaSet') {
        // A Deployment's ReplicaSet: the Deployment's scale counts.
        const up = controllerRefOf(owner);
        if (up?.kind === 'Deployment') {
          ref = up;
          path = SCALABLE.Deployment;
          if (seen.has(ref.uid)) continue;
          owner = await this.ctx.client.get(resourcePath(path, pod.metadata.namespace, ref.name));
        }
      }
      seen.set(ref.uid, owner.spec?.replicas ?? 1);
    }
    return [...seen.values()].reduce((a, b) => a + b, 0);
  }

  private async writeStatus(pdb: Pdb, status: NonNullable<Pdb['status']>, condStatus: string, reason: string, message: string): Promise<void> {
    const old = pdb.status?.conditions?.find((c) => c.type === 'DisruptionAllowed');
    const condition = { type: 'DisruptionAllowed', status: condStatus, observedGeneration: pdb.metadata.generation, lastTransitionTime: old?.status === condStatus ? old.lastTransitionTime : formatTimestamp(new Date()), reason, message };
    const next = { ...status, conditions: [...(pdb.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionAllowed'), condition] };
    if (statusEqual(pdb.status, next)) return;
    try {
      await this.ctx.client.request('PUT', resourcePath(PDBS, pdb.metadata.namespace, pdb.metadata.name, 'status'), { body: { ...pdb, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status: next } });
    } catch (err) {
      // A conflict means an eviction just wrote the status: the informer brings it back here.
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}

function selectorOf(pdb: Pdb): LabelSelector {
  try {
    return pdb.spec?.selector ? labelSelectorFromMetav1(pdb.spec.selector) : LabelSelector.nothing();
  } catch {
    return LabelSelector.nothing();
  }
}
