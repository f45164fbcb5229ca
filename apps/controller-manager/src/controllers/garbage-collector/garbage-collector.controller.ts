import { Logger } from '@nestjs/common';
import { isStatusError, type KubeObject, type OwnerReference } from '@kube/apimachinery';
import { Controller, resourcePath, type DiscoveredResource, type ReconcileResult, type ResourceEventHandler } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import { ResourceMonitors } from '../../resource.monitors';
import { DependencyGraph, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type GraphNode, type ObjectIdentity } from './dependency.graph';

/** kube's --concurrent-gc-syncs default. */
const GC_WORKERS = 20;
/** How long start-up waits for the graph's informers before collecting anyway (kube: the sync timeout of its monitors). */
const SYNC_TIMEOUT_MS = 30_000;
/** kube's GC ignores events: they are many and owned by nothing. */
const IGNORED = new Set(['events.', 'events.events.k8s.io']);

type Policy = 'Background' | 'Foreground' | 'Orphan';

/** A cluster-scoped dependent names a namespaced owner: never resolvable, never retried (kube's namespacedOwnerOfClusterScopedObjectErr). */
class InvalidOwnerNamespace extends Error {}

/**
 * kube's garbage collector (pkg/controller/garbagecollector): a dependency graph fed by an informer on every
 * resource discovery lists with list, watch and delete (rediscovered periodically and when CRDs or APIServices
 * change), and two queues: attemptToDelete (dependents whose owners may be gone, owners deleting in foreground,
 * virtual owners to verify) and attemptToOrphan (owners with the `orphan` finalizer). Every owner is checked
 * with a live GET by uid before a dependent is deleted.
 */
export class GarbageCollector implements ManagedController {
  readonly name = 'garbage-collector-controller';
  private readonly logger = new Logger('GarbageCollector');
  private readonly graph: DependencyGraph;
  private readonly deleter: Controller;
  private readonly orphaner: Controller;
  private readonly monitors: ResourceMonitors;
  /** Items whose cached view conflicted: read live on the retry under way. */
  private readonly readLive = new Set<string>();

  constructor(private readonly ctx: ControllerContext) {
    // Collecting a dependent whose owner is gone needs no complete graph (owners are read live), so attemptToDelete
    // starts at once: an informer that cannot sync (an aggregated server that died) must not hold collection for
    // SYNC_TIMEOUT_MS. What does need every dependent known (foreground deletion, orphaning) waits (graphSynced).
    this.deleter = new Controller({ name: 'GarbageCollector/attemptToDelete', reconcile: (uid) => this.attemptToDelete(uid), workers: GC_WORKERS });
    this.orphaner = new Controller({ name: 'GarbageCollector/attemptToOrphan', reconcile: (uid) => this.attemptToOrphan(uid), workers: 5, waitFor: [{ waitForSync: () => this.graphSynced() }] });
    this.graph = new DependencyGraph({
      attemptToDelete: (n) => this.deleter.enqueue(n.identity.uid),
      attemptToOrphan: (n) => this.orphaner.enqueue(n.identity.uid),
      invalidNamespaceOwnerRef: (dependent, ref) => this.reportInvalidNamespace(dependent, ref),
    });
    this.monitors = new ResourceMonitors(ctx, {
      verbs: ['list', 'watch', 'delete'],
      include: (r) => !IGNORED.has(`${r.resource}.${r.group}`),
      handler: (monitor) => this.graphHandler(monitor),
      // As if the objects' deletions had been observed: their nodes go and their dependents are looked at (each
      // owner is then checked with a live GET, so a resource that comes back loses nothing).
      removed: (monitor) => {
        for (const obj of monitor.informer.lister.list()) this.graph.remove(obj);
      },
    });
  }

  async start(): Promise<void> {
    this.ctx.informers.start();
    await Promise.all([this.deleter.run(), this.orphaner.run()]);
  }

  async stop(): Promise<void> {
    this.monitors.stop();
    await Promise.all([this.deleter.shutDown(), this.orphaner.shutDown()]);
  }

  /** Number of objects (and virtual owners) in the graph: for tests and metrics. */
  get graphSize(): number {
    return this.graph.size;
  }

  private graphHandler(monitor: { resource: DiscoveredResource }): ResourceEventHandler {
    const identity = (obj: KubeObject): ObjectIdentity => {
      const r = monitor.resource;
      return { apiVersion: r.group ? `${r.group}/${r.version}` : r.version, kind: r.kind, name: obj.metadata.name as string, uid: obj.metadata.uid as string, namespace: r.namespaced ? (obj.metadata.namespace ?? '') : '' };
    };
    return {
      add: (obj) => obj.metadata.uid && this.graph.upsert(obj, identity(obj)),
      update: (_, obj) => obj.metadata.uid && this.graph.upsert(obj, identity(obj)),
      delete: (obj) => this.graph.remove(obj),
    };
  }

  private synced?: Promise<void>;

  /** The monitors known at the first call synced (or SYNC_TIMEOUT_MS passed): the graph knows every dependent. */
  private graphSynced(): Promise<void> {
    this.synced ??= this.monitors.synced(SYNC_TIMEOUT_MS);
    return this.synced;
  }

  // ---- attemptToDelete (kube's attemptToDeleteItem) ----

  private async attemptToDelete(uid: string): Promise<ReconcileResult | void> {
    const node = this.graph.node(uid);
    if (!node) return;
    // Being deleted by someone else, not waiting for its dependents: nothing for us to do.
    if (node.beingDeleted && !node.deletingDependents) return;
    // kube reads the item live; an observed item is judged on the informer's view instead and every write is
    // guarded by its resourceVersion, so a stale view only costs a conflict and a live read (half the requests).
    const fromCache = !node.virtual && !node.deletingDependents && !this.readLive.has(uid) && node.resourceVersion !== undefined;
    const latest = fromCache ? cachedView(node) : await this.getLive(node.identity);
    if (!latest || latest.metadata.uid !== node.identity.uid) {
      this.graph.virtualDelete(node.identity);
      return;
    }
    // It exists: wait until an informer shows it (kube requeues virtual nodes until observed).
    if (node.virtual) return { requeue: true };
    if (node.deletingDependents) {
      await this.graphSynced();
      return this.processDeletingDependents(node);
    }
    const result = await this.collect(node, latest);
    if (result === 'conflict' && fromCache) {
      this.readLive.add(uid);
      try {
        return await this.attemptToDelete(uid);
      } finally {
        this.readLive.delete(uid);
      }
    }
    if (result === 'conflict') return { requeue: true };
  }

  /** kube's attemptToDeleteItem after the read: delete, drop dangling references, or leave the item. */
  private async collect(node: GraphNode, latest: KubeObject): Promise<'done' | 'conflict'> {
    const refs = latest.metadata.ownerReferences ?? [];
    if (!refs.length) return 'done';
    const rv = latest.metadata.resourceVersion;
    let classified;
    try {
      classified = await this.classifyReferences(node, refs);
    } catch (err) {
      if (err instanceof InvalidOwnerNamespace) return 'done';
      throw err;
    }
    const { solid, dangling, waiting } = classified;
    if (solid.length) {
      if (!dangling.length && !waiting.length) return 'done';
      // Some owners are gone or deleting in foreground: drop those references, keep the object.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      return (await this.patchOwnerReferences(node, latest, refs.filter((r) => !drop.has(r.uid)))) ? 'done' : 'conflict';
    }
    // Whether we have dependents decides foreground or background deletion: the graph must know them all.
    if (waiting.length) await this.graphSynced();
    if (waiting.length && node.dependents.size) {
      // An owner waits for us and we have dependents: delete in foreground (unblocking a cycle first).
      if ([...node.dependents].some((d) => d.deletingDependents)) {
        const unblocked = refs.map((r) => (waiting.some((w) => w.uid === r.uid) ? { ...r, blockOwnerDeletion: false } : r));
        if (!(await this.patchOwnerReferences(node, latest, unblocked))) return 'conflict';
        return this.deleteObject(node.identity, 'Foreground');
      }
      return this.deleteObject(node.identity, 'Foreground', rv);
    }
    const finalizers = latest.metadata.finalizers ?? [];
    const policy: Policy = finalizers.includes(ORPHAN_FINALIZER) ? 'Orphan' : finalizers.includes(FOREGROUND_FINALIZER) ? 'Foreground' : 'Background';
    return this.deleteObject(node.identity, policy, rv);
  }

  /** kube's classifyReferences: solid owners, dangling ones (absent, or another object under that name), and owners deleting in foreground. */
  private async classifyReferences(node: GraphNode, refs: OwnerReference[]): Promise<{ solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] }> {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const owner = await this.ownerOf(ref, node);
      if (!owner) dangling.push(ref);
      else if (owner.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)) waiting.push(ref);
      else solid.push(ref);
    }
    return { solid, dangling, waiting };
  }

  /** kube's isDangling: the owner by a live GET in the dependent's namespace (or cluster-wide), undefined when absent. */
  private async ownerOf(ref: OwnerReference, node: GraphNode): Promise<KubeObject | undefined> {
    if (this.graph.isAbsent('', ref.uid) || this.graph.isAbsent(node.identity.namespace, ref.uid)) return undefined;
    const r = this.ctx.discovery.mappingFor(ref.apiVersion, ref.kind);
    if (!r) throw new Error(`no resource serves ${ref.kind} in ${ref.apiVersion} (owner of ${describe(node.identity)})`);
    if (!node.identity.namespace && r.namespaced) {
      this.reportInvalidNamespace(node, ref);
      throw new InvalidOwnerNamespace();
    }
    const namespace = r.namespaced ? node.identity.namespace : '';
    const owner = await this.get(r, namespace, ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) {
      this.graph.markAbsent(namespace, ref.uid);
      return undefined;
    }
    return owner;
  }

  /** kube's processDeletingDependentsItem: remove foregroundDeletion once no dependent blocks it, else delete the blocking ones. */
  private async processDeletingDependents(node: GraphNode): Promise<void> {
    const blocking = node.blockingDependents();
    if (!blocking.length) {
      await this.removeFinalizer(node.identity, FOREGROUND_FINALIZER);
      return;
    }
    for (const d of blocking) if (!d.beingDeleted) this.deleter.enqueue(d.identity.uid);
  }

  // ---- attemptToOrphan (kube's attemptToOrphanWorker) ----

  private async attemptToOrphan(uid: string): Promise<void> {
    const node = this.graph.node(uid);
    if (!node) return;
    await Promise.all([...node.dependents].map((d) => this.removeOwnerReference(d, uid)));
    await this.removeFinalizer(node.identity, ORPHAN_FINALIZER);
  }

  private async removeOwnerReference(dependent: GraphNode, ownerUid: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const latest = await this.getLive(dependent.identity);
      if (!latest || latest.metadata.uid !== dependent.identity.uid) return;
      const refs = latest.metadata.ownerReferences ?? [];
      if (!refs.some((r) => r.uid === ownerUid)) return;
      if (await this.patchOwnerReferences(dependent, latest, refs.filter((r) => r.uid !== ownerUid))) return;
    }
    throw new Error(`could not remove the owner reference ${ownerUid} from ${describe(dependent.identity)}`);
  }

  // ---- API calls ----

  private resourceOf(identity: ObjectIdentity): DiscoveredResource {
    const r = this.ctx.discovery.mappingFor(identity.apiVersion, identity.kind);
    if (!r) throw new Error(`no resource serves ${identity.kind} in ${identity.apiVersion}`);
    return r;
  }

  private getLive(identity: ObjectIdentity): Promise<KubeObject | undefined> {
    const r = this.resourceOf(identity);
    return this.get(r, r.namespaced ? identity.namespace : '', identity.name);
  }

  private async get(r: DiscoveredResource, namespace: string, name: string): Promise<KubeObject | undefined> {
    if (r.namespaced && !namespace) return undefined;
    try {
      return await this.ctx.client.get(resourcePath(r, namespace, name));
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return undefined;
      throw err;
    }
  }

  /** DELETE with uid (and, when given, resourceVersion) preconditions and the propagation policy (kube's deleteObject). */
  private async deleteObject(identity: ObjectIdentity, propagationPolicy: Policy, resourceVersion?: string): Promise<'done' | 'conflict'> {
    const r = this.resourceOf(identity);
    try {
      await this.ctx.client.request('DELETE', resourcePath(r, identity.namespace, identity.name), {
        body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy, preconditions: { uid: identity.uid, ...(resourceVersion ? { resourceVersion } : {}) } },
      });
      return 'done';
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return 'done';
      // Another object by that name (uid), or this one changed since we judged it (resourceVersion): read again.
      if (isStatusError(err) && err.code === 409) return resourceVersion ? 'conflict' : 'done';
      throw err;
    }
  }

  /** A JSON merge patch of the owner references, guarded by resourceVersion; false on a conflict (read again). */
  private async patchOwnerReferences(node: GraphNode, latest: KubeObject, refs: OwnerReference[]): Promise<boolean> {
    const r = this.resourceOf(node.identity);
    try {
      await this.ctx.client.request('PATCH', resourcePath(r, node.identity.namespace, node.identity.name), {
        contentType: 'application/merge-patch+json',
        body: { metadata: { ownerReferences: refs.length ? refs : null, resourceVersion: latest.metadata.resourceVersion } },
      });
      return true;
    } catch (err) {
      if (isStatusError(err) && err.code === 409) return false;
      if (isStatusError(err) && err.code === 404) return true;
      throw err;
    }
  }

  private async removeFinalizer(identity: ObjectIdentity, finalizer: string): Promise<void> {
    const r = this.resourceOf(identity);
    for (let attempt = 0; attempt < 5; attempt++) {
      const latest = await this.getLive(identity);
      if (!latest || latest.metadata.uid !== identity.uid) return;
      const finalizers = latest.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return;
      try {
        await this.ctx.client.request('PATCH', resourcePath(r, identity.namespace, identity.name), {
          contentType: 'application/merge-patch+json',
          body: { metadata: { finalizers: finalizers.filter((f) => f !== finalizer), resourceVersion: latest.metadata.resourceVersion } },
        });
        return;
      } catch (err) {
        if (isStatusError(err) && err.code === 404) return;
        if (!(isStatusError(err) && err.code === 409)) throw err;
      }
    }
    throw new Error(`could not remove the ${finalizer} finalizer of ${describe(identity)}`);
  }

  private reportInvalidNamespace(dependent: GraphNode, ref: OwnerReference): void {
    const id = dependent.identity;
    this.logger.warn(`${describe(id)} references owner ${ref.kind} ${ref.name} (${ref.uid}) that does not exist in namespace "${id.namespace}"`);
    this.ctx.events.warning(
      { apiVersion: id.apiVersion, kind: id.kind, name: id.name, namespace: id.namespace || undefined, uid: id.uid },
      'OwnerRefInvalidNamespace',
      `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${id.namespace}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace "${id.namespace}"`,
    );
  }
}

/** The informer's view of an observed item, as the collector needs it. */
function cachedView(node: GraphNode): KubeObject {
  const id = node.identity;
  return { apiVersion: id.apiVersion, kind: id.kind, metadata: { name: id.name, namespace: id.namespace || undefined, uid: id.uid, resourceVersion: node.resourceVersion, ownerReferences: node.owners, finalizers: node.finalizers } };
}

function describe(id: ObjectIdentity): string {
  return `${id.kind} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
}
