import { goEquality, isStatusError, LabelSelector, labelSelectorFromMetav1, type KubeObject } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ReconcileResult, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import type { InvolvedObject } from '../../event.recorder';
import type { Pod } from '../../simulation/pod.lifecycle';
import { claimObjects, controllerRefOf, newControllerRef } from './controller-ref.manager';
import * as u from './deployment.util';
import { PODS } from './pod.control';
import { REPLICASETS } from './replicaset.controller';

type Deployment = u.Deployment;
type ReplicaSet = u.ReplicaSet;

const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true };
const DEPLOYMENT_KIND = { apiVersion: 'apps/v1', kind: 'Deployment' };
const RS_KIND = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };
/** kube's --concurrent-deployment-syncs default. */
const WORKERS = 5;

/** A write that lost a race: the informer brings the newer object and the key is synced again. */
class Requeue extends Error {}

/**
 * kube's DeploymentController (pkg/controller/deployment): ReplicaSets per pod template (pod-template-hash),
 * rolling updates within maxSurge/maxUnavailable and Recreate, revisions and revisionHistoryLimit, rollback
 * (what `kubectl rollout undo` writes: the old template back), pause and resume, proportional scaling of a
 * rollout under way, progressDeadlineSeconds, and the Progressing and Available conditions with kube's reasons,
 * messages and events.
 */
export class DeploymentController implements ManagedController {
  readonly name = 'deployment-controller';
  readonly controller: Controller;
  private readonly deployments: SharedIndexInformer;
  private readonly sets: SharedIndexInformer;
  private readonly pods: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.deployments = ctx.informers.informerFor(DEPLOYMENTS);
    this.sets = ctx.informers.informerFor(REPLICASETS);
    this.pods = ctx.informers.informerFor(PODS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.reconcile(key), workers: WORKERS, waitFor: [this.deployments, this.sets, this.pods] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.deployments.addEventHandler({ add: enqueue, update: (_o, d) => enqueue(d), delete: enqueue });
    this.sets.addEventHandler({
      add: (rs) => this.enqueueFor(rs),
      update: (old, rs) => {
        if (old === rs) return;
        const oldRef = controllerRefOf(old);
        if (oldRef && oldRef.uid !== controllerRefOf(rs)?.uid) this.enqueueFor(old);
        this.enqueueFor(rs);
      },
      delete: (rs) => this.enqueueFor(rs),
    });
    // Recreate waits for the old pods to be gone: their deletion moves it on.
    this.pods.addEventHandler({ delete: (p) => this.podDeleted(p as Pod) });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private ownerOf(obj: KubeObject): Deployment | undefined {
    const ref = controllerRefOf(obj);
    if (!ref || ref.kind !== 'Deployment') return undefined;
    const d = this.deployments.lister.get(`${obj.metadata.namespace}/${ref.name}`) as Deployment | undefined;
    return d?.metadata.uid === ref.uid ? d : undefined;
  }

  /** A ReplicaSet's owner, or for an orphan every Deployment that selects it. */
  private enqueueFor(rs: KubeObject): void {
    const owner = this.ownerOf(rs);
    if (owner) return this.controller.enqueue(metaNamespaceKey(owner));
    if (controllerRefOf(rs)) return;
    for (const d of this.deployments.lister.byIndex(NAMESPACE_INDEX, rs.metadata.namespace as string) as Deployment[]) {
      if (this.selector(d).matches(rs.metadata.labels ?? {})) this.controller.enqueue(metaNamespaceKey(d));
    }
  }

  private podDeleted(pod: Pod): void {
    const rsRef = controllerRefOf(pod);
    if (!rsRef || rsRef.kind !== 'ReplicaSet') return;
    const rs = this.sets.lister.get(`${pod.metadata.namespace}/${rsRef.name}`);
    const d = rs ? this.ownerOf(rs) : undefined;
    if (d && d.spec?.strategy?.type === 'Recreate') this.controller.enqueue(metaNamespaceKey(d));
  }

  private selector(d: Deployment): LabelSelector {
    try {
      return labelSelectorFromMetav1(d.spec?.selector);
    } catch {
      return LabelSelector.nothing();
    }
  }

  private ref(d: Deployment): InvolvedObject {
    return { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name as string, namespace: d.metadata.namespace, uid: d.metadata.uid as string };
  }

  private async reconcile(key: string): Promise<ReconcileResult | void> {
    const cached = this.deployments.lister.get(key) as Deployment | undefined;
    if (!cached) return;
    try {
      return await this.sync(structuredClone(cached));
    } catch (err) {
      if (err instanceof Requeue || (isStatusError(err) && err.code === 409)) return { requeue: true };
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }

  /** syncDeployment. */
  private async sync(d: Deployment): Promise<ReconcileResult | void> {
    const selector = this.selector(d);
    if (selector.empty) {
      this.ctx.events.warning(this.ref(d), 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) await this.writeStatus(d, { ...d.status, observedGeneration: d.metadata.generation });
      return;
    }
    const namespace = d.metadata.namespace as string;
    const candidates = this.sets.lister.byIndex(NAMESPACE_INDEX, namespace);
    const rsList = (await claimObjects(this.ctx.client, d, DEPLOYMENT_KIND, DEPLOYMENTS, selector, candidates, REPLICASETS)).map((rs) => structuredClone(rs)) as ReplicaSet[];
    if (d.metadata.deletionTimestamp) return this.syncStatusOnly(d, rsList);
    await this.checkPausedConditions(d);
    if (d.spec?.paused) return this.syncScaling(d, rsList);
    if (this.isScalingEvent(d, rsList)) return this.syncScaling(d, rsList);
    return d.spec?.strategy?.type === 'Recreate' ? this.rolloutRecreate(d, rsList) : this.rolloutRolling(d, rsList);
  }

  // ---- ReplicaSets ----

  private findNewReplicaSet(d: Deployment, rsList: ReplicaSet[]): ReplicaSet | undefined {
    return [...rsList].sort(u.byCreation).find((rs) => u.equalIgnoreHash(rs.spec?.template, d.spec?.template));
  }

  /** getAllReplicaSetsAndSyncRevision: the new ReplicaSet (made when `create`) and the old ones. */
  private async getAll(d: Deployment, rsList: ReplicaSet[], create: boolean): Promise<{ newRS?: ReplicaSet; oldRSs: ReplicaSet[] }> {
    const existing = this.findNewReplicaSet(d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== existing);
    const newRS = await this.getNewReplicaSet(d, existing, oldRSs, create);
    return { newRS, oldRSs };
  }

  private async getNewReplicaSet(d: Deployment, existing: ReplicaSet | undefined, oldRSs: ReplicaSet[], create: boolean): Promise<ReplicaSet | undefined> {
    const newRevision = u.maxRevision(oldRSs) + 1;
    if (existing) {
      const minReadyChanged = (existing.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0);
      const annotationsChanged = u.setNewReplicaSetAnnotations(d, existing, newRevision, true);
      let rs = existing;
      if (annotationsChanged || minReadyChanged) {
        rs.spec = { ...rs.spec, minReadySeconds: d.spec?.minReadySeconds };
        rs = await this.ctx.client.request<ReplicaSet>('PUT', resourcePath(REPLICASETS, rs.metadata.namespace, rs.metadata.name), { body: rs });
      }
      // The Deployment carries its new ReplicaSet's revision, written through /status as kube does (no generation move).
      const revision = rs.metadata.annotations?.[u.REVISION_ANNOTATION];
      let needsUpdate = false;
      if (revision && d.metadata.annotations?.[u.REVISION_ANNOTATION] !== revision) {
        d.metadata.annotations = { ...d.metadata.annotations, [u.REVISION_ANNOTATION]: revision };
        needsUpdate = true;
      }
      const status = structuredClone(d.status ?? {});
      if (!u.getCondition(d.status, 'Progressing') && u.hasProgressDeadline(d)) {
        u.setCondition(status, u.newCondition('Progressing', 'True', u.FOUND_NEW_RS_REASON, `Found new replica set "${rs.metadata.name as string}"`));
        needsUpdate = true;
      }
      if (needsUpdate) await this.writeStatus(d, status);
      return rs;
    }
    if (!create) return undefined;
    const hash = u.computeHash(d.spec?.template, d.status?.collisionCount);
    const template = structuredClone(d.spec?.template ?? {});
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [u.POD_TEMPLATE_HASH_LABEL]: hash } };
    const selector = structuredClone(d.spec?.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [u.POD_TEMPLATE_HASH_LABEL]: hash };
    const name = `${d.metadata.name as string}-${hash}`;
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: d.metadata.namespace, ownerReferences: [newControllerRef(d, DEPLOYMENT_KIND)], labels: template.metadata.labels },
      spec: { replicas: 0, minReadySeconds: d.spec?.minReadySeconds, selector, template },
    };
    const all = [...oldRSs];
    rs.spec!.replicas = this.newRSNewReplicas(d, all, rs);
    u.setNewReplicaSetAnnotations(d, rs, newRevision, false);
    let created: ReplicaSet;
    try {
      created = await this.ctx.client.request<ReplicaSet>('POST', resourcePath(REPLICASETS, d.metadata.namespace), { body: rs });
    } catch (err) {
      if (isStatusError(err) && err.code === 409) {
        // Ours with the same template (a cache that lags): use it. Anything else is a hash collision.
        const other = await this.ctx.client.get<ReplicaSet>(resourcePath(REPLICASETS, d.metadata.namespace, name));
        if (controllerRefOf(other)?.uid === d.metadata.uid && u.equalIgnoreHash(other.spec?.template, d.spec?.template)) return other;
        const status = structuredClone(d.status ?? {});
        status.collisionCount = (status.collisionCount ?? 0) + 1;
        await this.writeStatus(d, status);
        throw new Requeue('hash collision');
      }
      if (isStatusError(err) && err.code === 403 && /is being terminated/.test(err.message)) throw err;
      const message = `Failed to create new replica set "${name}": ${(err as Error).message}`;
      if (u.hasProgressDeadline(d)) {
        const status = structuredClone(d.status ?? {});
        u.setCondition(status, u.newCondition('Progressing', 'False', u.FAILED_RS_CREATE_REASON, message));
        await this.writeStatus(d, status).catch(() => undefined);
      }
      this.ctx.events.warning(this.ref(d), u.FAILED_RS_CREATE_REASON, message);
      throw err;
    }
    if (rsReplicasNonZero(created)) this.ctx.events.normal(this.ref(d), 'ScalingReplicaSet', `Scaled up replica set ${name} from 0 to ${u.rsReplicas(created)}`);
    d.metadata.annotations = { ...d.metadata.annotations, [u.REVISION_ANNOTATION]: String(newRevision) };
    const status = structuredClone(d.status ?? {});
    if (u.hasProgressDeadline(d)) u.setCondition(status, u.newCondition('Progressing', 'True', u.NEW_RS_CREATED_REASON, `Created new replica set "${name}"`));
    await this.writeStatus(d, status);
    return created;
  }

  /** NewRSNewReplicas: how far the new ReplicaSet may grow now. */
  private newRSNewReplicas(d: Deployment, allRSs: ReplicaSet[], newRS: ReplicaSet): number {
    const desired = u.replicasOf(d);
    if (!u.isRollingUpdate(d)) return desired;
    const current = [...allRSs, newRS].reduce((n, rs) => n + u.rsReplicas(rs), 0) - (allRSs.includes(newRS) ? u.rsReplicas(newRS) : 0);
    const maxTotal = desired + u.maxSurge(d);
    if (current >= maxTotal) return u.rsReplicas(newRS);
    return u.rsReplicas(newRS) + Math.min(maxTotal - current, desired - u.rsReplicas(newRS));
  }

  /** scaleReplicaSetAndRecordEvent: spec.replicas and the replicas annotations; "Scaled up|down replica set … from … to …". */
  private async scaleReplicaSet(rs: ReplicaSet, newScale: number, d: Deployment): Promise<boolean> {
    const oldScale = u.rsReplicas(rs);
    const sizeChanged = oldScale !== newScale;
    const annotationsChanged = u.setReplicasAnnotations(rs, u.replicasOf(d), u.replicasOf(d) + u.maxSurge(d));
    if (!sizeChanged && !annotationsChanged) return false;
    rs.spec = { ...rs.spec, replicas: newScale };
    const updated = await this.ctx.client.request<ReplicaSet>('PUT', resourcePath(REPLICASETS, rs.metadata.namespace, rs.metadata.name), { body: rs });
    Object.assign(rs, updated);
    if (sizeChanged) this.ctx.events.normal(this.ref(d), 'ScalingReplicaSet', `Scaled ${oldScale < newScale ? 'up' : 'down'} replica set ${rs.metadata.name as string} from ${oldScale} to ${newScale}`);
    return sizeChanged;
  }

  // ---- strategies ----

  /** rolloutRolling. */
  private async rolloutRolling(d: Deployment, rsList: ReplicaSet[]): Promise<ReconcileResult | void> {
    const { newRS, oldRSs } = await this.getAll(d, rsList, true);
    const allRSs = newRS ? [...oldRSs, newRS] : oldRSs;
    if (newRS && (await this.reconcileNewReplicaSet(allRSs, newRS, d))) return this.syncRolloutStatus(allRSs, newRS, d);
    if (await this.reconcileOldReplicaSets(allRSs, oldRSs.filter((rs) => u.rsReplicas(rs) > 0), newRS, d)) return this.syncRolloutStatus(allRSs, newRS, d);
    if (u.deploymentComplete(d, this.calculateStatus(allRSs, newRS, d))) await this.cleanup(oldRSs, d);
    return this.syncRolloutStatus(allRSs, newRS, d);
  }

  private async reconcileNewReplicaSet(allRSs: ReplicaSet[], newRS: ReplicaSet, d: Deployment): Promise<boolean> {
    const desired = u.replicasOf(d);
    if (u.rsReplicas(newRS) === desired) return false;
    if (u.rsReplicas(newRS) > desired) return this.scaleReplicaSet(newRS, desired, d);
    return this.scaleReplicaSet(newRS, this.newRSNewReplicas(d, allRSs, newRS), d);
  }

  /** reconcileOldReplicaSets: unhealthy old replicas first, then as many as maxUnavailable allows. */
  private async reconcileOldReplicaSets(allRSs: ReplicaSet[], oldRSs: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment): Promise<boolean> {
    const oldPods = oldRSs.reduce((n, rs) => n + u.rsReplicas(rs), 0);
    if (oldPods === 0) return false;
    const allPods = allRSs.reduce((n, rs) => n + u.rsReplicas(rs), 0);
    const minAvailable = u.replicasOf(d) - u.maxUnavailable(d);
    const newUnavailable = u.rsReplicas(newRS) - (newRS?.status?.availableReplicas ?? 0);
    const maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    // cleanupUnhealthyReplicas.
    let cleaned = 0;
    for (const rs of [...oldRSs].sort(u.byCreation)) {
      if (cleaned >= maxScaledDown) break;
      if (u.rsReplicas(rs) === 0) continue;
      const unhealthy = u.rsReplicas(rs) - (rs.status?.availableReplicas ?? 0);
      if (unhealthy <= 0) continue;
      const down = Math.min(maxScaledDown - cleaned, unhealthy);
      await this.scaleReplicaSet(rs, u.rsReplicas(rs) - down, d);
      cleaned += down;
    }
    // scaleDownOldReplicaSetsForRollingUpdate.
    const available = [...oldRSs, ...(newRS ? [newRS] : [])].reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
    let scaledDown = 0;
    if (available > minAvailable) {
      const total = available - minAvailable;
      for (const rs of [...oldRSs].sort(u.byCreation)) {
        if (scaledDown >= total) break;
        if (u.rsReplicas(rs) === 0) continue;
        const down = Math.min(u.rsReplicas(rs), total - scaledDown);
        await this.scaleReplicaSet(rs, u.rsReplicas(rs) - down, d);
        scaledDown += down;
      }
    }
    return cleaned + scaledDown > 0;
  }

  /** rolloutRecreate: every old pod gone before the new ReplicaSet grows. */
  private async rolloutRecreate(d: Deployment, rsList: ReplicaSet[]): Promise<ReconcileResult | void> {
    let { newRS, oldRSs } = await this.getAll(d, rsList, false);
    let allRSs = newRS ? [...oldRSs, newRS] : oldRSs;
    let scaled = false;
    for (const rs of oldRSs) if (u.rsReplicas(rs) > 0 && (await this.scaleReplicaSet(rs, 0, d))) scaled = true;
    if (scaled) return this.syncRolloutStatus(allRSs, newRS, d);
    // oldPodsRunning: pods of the old ReplicaSets that are not finished yet.
    const oldUids = new Set(oldRSs.map((rs) => rs.metadata.uid));
    const running = (this.pods.lister.byIndex(NAMESPACE_INDEX, d.metadata.namespace as string) as Pod[]).some((p) => {
      const ref = controllerRefOf(p);
      return ref && oldUids.has(ref.uid) && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';
    });
    if (running || oldRSs.some((rs) => (rs.status?.replicas ?? 0) > 0)) return this.syncRolloutStatus(allRSs, newRS, d);
    if (!newRS) {
      ({ newRS, oldRSs } = await this.getAll(d, rsList, true));
      allRSs = newRS ? [...oldRSs, newRS] : oldRSs;
    }
    if (newRS && (await this.scaleReplicaSet(newRS, u.replicasOf(d), d))) return this.syncRolloutStatus(allRSs, newRS, d);
    if (u.deploymentComplete(d, this.calculateStatus(allRSs, newRS, d))) await this.cleanup(oldRSs, d);
    return this.syncRolloutStatus(allRSs, newRS, d);
  }

  // ---- scaling (paused, or spec.replicas changed) ----

  /** isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
  private isScalingEvent(d: Deployment, rsList: ReplicaSet[]): boolean {
    const newRS = this.findNewReplicaSet(d, rsList);
    const active = rsList.filter((rs) => rs === newRS || u.rsReplicas(rs) > 0);
    return active.some((rs) => {
      const desired = rs.metadata.annotations?.[u.DESIRED_REPLICAS_ANNOTATION];
      return desired !== undefined && Number(desired) !== u.replicasOf(d);
    });
  }

  /** sync: scale (proportionally while a rollout is under way), clean up when paused, status. */
  private async syncScaling(d: Deployment, rsList: ReplicaSet[]): Promise<ReconcileResult | void> {
    const { newRS, oldRSs } = await this.getAll(d, rsList, false);
    await this.scale(d, newRS, oldRSs);
    if (d.spec?.paused) await this.cleanup(oldRSs, d);
    const allRSs = newRS ? [...oldRSs, newRS] : oldRSs;
    await this.syncDeploymentStatus(allRSs, newRS, d);
  }

  private async scale(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Promise<void> {
    const desired = u.replicasOf(d);
    const active = [...(newRS ? [newRS] : []), ...oldRSs].filter((rs) => u.rsReplicas(rs) > 0);
    // FindActiveOrLatest: one active ReplicaSet (or none: the newest) takes all.
    const single = active.length === 1 ? active[0] : active.length === 0 ? (newRS ?? [...oldRSs].sort(u.byCreation).at(-1)) : undefined;
    if (single) {
      if (u.rsReplicas(single) !== desired) await this.scaleReplicaSet(single, desired, d);
      return;
    }
    // IsSaturated: the new ReplicaSet has all it needs, the old ones go.
    if (newRS && u.rsReplicas(newRS) === desired && Number(newRS.metadata.annotations?.[u.DESIRED_REPLICAS_ANNOTATION]) === desired && (newRS.status?.availableReplicas ?? 0) === desired) {
      for (const rs of oldRSs) if (u.rsReplicas(rs) > 0) await this.scaleReplicaSet(rs, 0, d);
      return;
    }
    if (!u.isRollingUpdate(d)) return;
    const allowed = desired > 0 ? desired + u.maxSurge(d) : 0;
    const current = active.reduce((n, rs) => n + u.rsReplicas(rs), 0);
    const toAdd = allowed - current;
    // Larger first; the newer (adding) or older (removing) first among equals.
    const sorted = [...active].sort((a, b) => u.rsReplicas(b) - u.rsReplicas(a) || (toAdd > 0 ? -u.byCreation(a, b) : u.byCreation(a, b)));
    const sizes = new Map<ReplicaSet, number>();
    let added = 0;
    for (const rs of sorted) {
      let proportion = 0;
      if (toAdd !== 0 && toAdd !== added && u.rsReplicas(rs) > 0) {
        const annotated = Number.parseInt(rs.metadata.annotations?.[u.MAX_REPLICAS_ANNOTATION] ?? '', 10);
        const fraction = desired === 0 ? -u.rsReplicas(rs) : Math.ceil((u.rsReplicas(rs) * (desired + u.maxSurge(d))) / (Number.isFinite(annotated) && annotated > 0 ? annotated : Math.max(1, d.status?.replicas ?? 1))) - u.rsReplicas(rs);
        const left = toAdd - added;
        proportion = toAdd > 0 ? Math.min(fraction, left) : Math.max(fraction, left);
      }
      sizes.set(rs, u.rsReplicas(rs) + proportion);
      added += proportion;
    }
    if (sorted.length && toAdd !== 0) sizes.set(sorted[0], Math.max(0, (sizes.get(sorted[0]) ?? 0) + toAdd - added));
    for (const rs of sorted) await this.scaleReplicaSet(rs, sizes.get(rs) ?? 0, d);
  }

  /** cleanupDeployment: old ReplicaSets beyond revisionHistoryLimit that have scaled to nothing, oldest revision first. */
  private async cleanup(oldRSs: ReplicaSet[], d: Deployment): Promise<void> {
    const limit = d.spec?.revisionHistoryLimit;
    if (limit === undefined) return;
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp).sort((a, b) => u.revisionOf(a) - u.revisionOf(b) || u.byCreation(a, b));
    const diff = cleanable.length - limit;
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i];
      if ((rs.status?.replicas ?? 0) !== 0 || u.rsReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      await this.ctx.client.request('DELETE', resourcePath(REPLICASETS, rs.metadata.namespace, rs.metadata.name)).catch((err: unknown) => {
        if (!(isStatusError(err) && err.code === 404)) throw err;
      });
    }
  }

  // ---- status ----

  /** checkPausedConditions: Progressing Unknown with DeploymentPaused / DeploymentResumed. */
  private async checkPausedConditions(d: Deployment): Promise<void> {
    if (!u.hasProgressDeadline(d)) return;
    const cond = u.getCondition(d.status, 'Progressing');
    if (cond?.reason === u.TIMED_OUT_REASON) return;
    const pausedNow = !!d.spec?.paused && cond?.reason !== u.PAUSED_REASON;
    const resumed = !d.spec?.paused && cond?.reason === u.PAUSED_REASON;
    if (!pausedNow && !resumed) return;
    const status = structuredClone(d.status ?? {});
    u.setCondition(status, pausedNow ? u.newCondition('Progressing', 'Unknown', u.PAUSED_REASON, 'Deployment is paused') : u.newCondition('Progressing', 'Unknown', u.RESUMED_REASON, 'Deployment is resumed'));
    await this.writeStatus(d, status);
  }

  /** calculateStatus. */
  private calculateStatus(allRSs: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment): u.DeploymentStatus {
    const sum = (f: (rs: ReplicaSet) => number): number => allRSs.reduce((n, rs) => n + f(rs), 0);
    const available = sum((rs) => rs.status?.availableReplicas ?? 0);
    const total = sum((rs) => u.rsReplicas(rs));
    const status: u.DeploymentStatus = {
      observedGeneration: d.metadata.generation,
      replicas: sum((rs) => rs.status?.replicas ?? 0),
      updatedReplicas: newRS?.status?.replicas ?? 0,
      readyReplicas: sum((rs) => rs.status?.readyReplicas ?? 0),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, total - available),
      conditions: structuredClone(d.status?.conditions ?? []),
      ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
    };
    if (available >= u.replicasOf(d) - u.maxUnavailable(d)) u.setCondition(status, u.newCondition('Available', 'True', u.MIN_AVAILABLE_REASON, 'Deployment has minimum availability.'));
    else u.setCondition(status, u.newCondition('Available', 'False', u.MIN_UNAVAILABLE_REASON, 'Deployment does not have minimum availability.'));
    return status;
  }

  private async syncDeploymentStatus(allRSs: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment): Promise<void> {
    const status = this.calculateStatus(allRSs, newRS, d);
    if (!sameStatus(d.status, status)) await this.writeStatus(d, status);
  }

  private async syncStatusOnly(d: Deployment, rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAll(d, rsList, false);
    await this.syncDeploymentStatus(newRS ? [...oldRSs, newRS] : oldRSs, newRS, d);
  }

  /** syncRolloutStatus: Progressing as complete, progressing or timed out; ReplicaFailure from the ReplicaSets; a requeue at the deadline. */
  private async syncRolloutStatus(allRSs: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment): Promise<ReconcileResult | void> {
    const status = this.calculateStatus(allRSs, newRS, d);
    if (!u.hasProgressDeadline(d)) u.removeCondition(status, 'Progressing');
    const current = u.getCondition(status, 'Progressing');
    const complete = status.replicas === status.updatedReplicas && current?.reason === u.NEW_RS_AVAILABLE_REASON;
    if (u.hasProgressDeadline(d) && !complete) {
      const rsName = newRS?.metadata.name as string | undefined;
      if (u.deploymentComplete(d, status)) {
        u.setCondition(status, u.newCondition('Progressing', 'True', u.NEW_RS_AVAILABLE_REASON, rsName ? `ReplicaSet "${rsName}" has successfully progressed.` : 'Deployment has successfully progressed.'));
      } else if (u.deploymentProgressing(d, status)) {
        const c = u.newCondition('Progressing', 'True', u.RS_UPDATED_REASON, rsName ? `ReplicaSet "${rsName}" is progressing.` : `Deployment "${d.metadata.name as string}" is progressing.`);
        // Progress moves lastUpdateTime even when the reason stays: that is what the deadline is measured from.
        if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
        u.removeCondition(status, 'Progressing');
        u.setCondition(status, c);
      } else if (u.deploymentTimedOut(d, status)) {
        u.setCondition(status, u.newCondition('Progressing', 'False', u.TIMED_OUT_REASON, rsName ? `ReplicaSet "${rsName}" has timed out progressing.` : `Deployment "${d.metadata.name as string}" has timed out progressing.`));
      }
    }
    const failure = allRSs.flatMap((rs) => rs.status?.conditions ?? []).find((c) => c.type === 'ReplicaFailure' && c.status === 'True');
    if (failure) u.setCondition(status, { type: 'ReplicaFailure', status: failure.status, reason: failure.reason, message: failure.message, lastUpdateTime: failure.lastTransitionTime, lastTransitionTime: failure.lastTransitionTime });
    else u.removeCondition(status, 'ReplicaFailure');
    if (sameStatus(d.status, status)) return this.requeueStuck(d, status);
    await this.writeStatus(d, status);
  }

  /** requeueStuckDeployment: look again when the progress deadline passes. */
  private requeueStuck(d: Deployment, status: u.DeploymentStatus): ReconcileResult | void {
    const c = u.getCondition(status, 'Progressing');
    if (!u.hasProgressDeadline(d) || !c || c.reason === u.NEW_RS_AVAILABLE_REASON || c.reason === u.TIMED_OUT_REASON || u.deploymentComplete(d, status)) return;
    const after = Date.parse(c.lastUpdateTime ?? '') + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 - Date.now();
    return { requeueAfterMs: Math.max(after, 0) + 1000 };
  }

  private async writeStatus(d: Deployment, status: u.DeploymentStatus): Promise<void> {
    const updated = await this.ctx.client.request<Deployment>('PUT', resourcePath(DEPLOYMENTS, d.metadata.namespace, d.metadata.name, 'status'), { body: { ...d, apiVersion: 'apps/v1', kind: 'Deployment', status } });
    Object.assign(d, updated);
  }
}

const rsReplicasNonZero = (rs: ReplicaSet): boolean => u.rsReplicas(rs) > 0;

/**
 * reflect.DeepEqual of the statuses, condition times included (a changed lastUpdateTime is a change), as Go
 * compares the structs: the stored status lacks the omitempty zeros a computed one has.
 */
const sameStatus = goEquality('apps/v1', 'Deployment', 'status');
