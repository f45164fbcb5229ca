import { calculateUsage, equalResources, evaluatorFor, fromResourceList, toResourceList, type ResourceQuota, type UsageSource } from '@kube/admission';
import { isStatusError, type GroupResource, type KubeObject } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ReconcileResult, type ResourceEventHandler, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../controller.context';
import { ResourceMonitors, type ResourceMonitor } from '../resource.monitors';

const QUOTAS = { group: '', version: 'v1', resource: 'resourcequotas', namespaced: true };
/** kube's --resource-quota-sync-period: every quota recalculated this often. */
export const QUOTA_RESYNC_MS = 5 * 60_000;
/** kube's --concurrent-resource-quota-syncs default. */
const WORKERS = 5;
/** How long start-up waits for the monitors before counting anyway (a dead aggregated server must not stop quota). */
const SYNC_TIMEOUT_MS = 30_000;

type Pod = KubeObject & { status?: { phase?: string } };
type Service = KubeObject & { spec?: { type?: string } };
type Claim = KubeObject & { spec?: { resources?: { requests?: Record<string, string> } } };

/**
 * Which updates of a counted object can lower usage (kube's quota monitor UpdateFunc): a pod reaching a
 * terminal phase, a service changing type, a claim's requests changing. Everything else only replenishes on delete.
 */
function releasesUsage(resource: GroupResource, old: KubeObject, obj: KubeObject): boolean {
  if (resource.group !== '') return false;
  switch (resource.resource) {
    case 'pods': {
      const terminal = (p: Pod): boolean => ['Succeeded', 'Failed'].includes(p.status?.phase ?? '');
      return !terminal(old as Pod) && terminal(obj as Pod);
    }
    case 'services':
      return (old as Service).spec?.type !== (obj as Service).spec?.type;
    case 'persistentvolumeclaims':
      return JSON.stringify((old as Claim).spec?.resources?.requests) !== JSON.stringify((obj as Claim).spec?.resources?.requests);
    default:
      return false;
  }
}

/**
 * kube's resourcequota controller (pkg/controller/resourcequota): status.hard follows spec.hard and status.used
 * is recalculated, through the quota evaluators the ResourceQuota admission plugin charges with, from the
 * shared informers of every quotable resource (its monitors): when a quota is created or its spec changes, when
 * a counted object is deleted (custom and aggregated resources included) or a pod ends, and every
 * QUOTA_RESYNC_MS. The status write carries the quota's resourceVersion, so a charge admission made meanwhile is
 * never overwritten (the pass is retried).
 */
export class ResourceQuotaController implements ManagedController {
  readonly name = 'resourcequota-controller';
  readonly controller: Controller;
  private readonly quotas: SharedIndexInformer;
  private readonly monitors: ResourceMonitors;
  private readonly usage: UsageSource;

  constructor(private readonly ctx: ControllerContext) {
    this.quotas = ctx.informers.informerFor(QUOTAS);
    this.monitors = new ResourceMonitors(ctx, {
      // kube's GetQuotableResources: what can be created, listed, watched and deleted; minus what quota ignores.
      verbs: ['create', 'list', 'watch', 'delete'],
      include: (r) => r.namespaced && evaluatorFor(r) !== undefined,
      handler: (monitor) => this.replenishment(monitor),
    });
    this.controller = new Controller({ name: 'resourcequota', reconcile: (key) => this.sync(key), workers: WORKERS, waitFor: [this.quotas, { waitForSync: () => this.monitors.synced(SYNC_TIMEOUT_MS) }] });
    this.usage = { list: (gr, ns) => this.cached(gr, ns), count: async (gr, ns) => (await this.cached(gr, ns)).length };
    const enqueue = (q: KubeObject): void => this.controller.enqueue(metaNamespaceKey(q));
    this.quotas.addEventHandler(
      {
        add: enqueue,
        // Status writes are this controller's own (or admission's charges): only a spec change or a resync counts.
        update: (old, q) => {
          if (old === q || JSON.stringify(old.spec) !== JSON.stringify(q.spec)) enqueue(q);
        },
      },
      QUOTA_RESYNC_MS,
    );
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    this.monitors.stop();
    await this.controller.shutDown();
  }

  /** Deletions (and the updates that free usage) queue every quota of the namespace that counts the resource. */
  private replenishment(monitor: ResourceMonitor): ResourceEventHandler {
    const replenish = (obj: KubeObject): void => {
      const evaluator = evaluatorFor(monitor.resource);
      const namespace = obj.metadata.namespace;
      if (!evaluator || !namespace) return;
      for (const q of this.quotas.lister.byIndex(NAMESPACE_INDEX, namespace) as ResourceQuota[]) {
        const tracked = Object.keys(q.status?.hard ?? q.spec?.hard ?? {});
        if (evaluator.matchingResources(tracked).length) this.controller.enqueue(metaNamespaceKey(q));
      }
    };
    return {
      delete: replenish,
      update: (old, obj) => {
        if (old !== obj && releasesUsage(monitor.resource, old, obj)) replenish(obj);
      },
    };
  }

  /** The namespace's objects of a resource as the monitor's informer has them; nothing for what is not served. */
  private async cached(gr: GroupResource, namespace: string): Promise<readonly KubeObject[]> {
    const monitor = this.monitors.get(gr);
    if (!monitor) return [];
    // Counting from a cache still listing would release usage that is in use: wait for it, else retry later.
    if (!(await this.monitors.monitorSynced(monitor, SYNC_TIMEOUT_MS))) throw new Error(`the ${gr.resource}.${gr.group} informer has not synced yet`);
    return monitor.informer.lister.byIndex(NAMESPACE_INDEX, namespace);
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const quota = this.quotas.lister.get(key) as ResourceQuota | undefined;
    if (!quota) return;
    const used = await calculateUsage(quota, this.usage);
    const hard = toResourceList(quota.spec?.hard);
    if (quota.status?.used && equalResources(hard, toResourceList(quota.status?.hard)) && equalResources(used, toResourceList(quota.status.used))) return;
    const { namespace, name } = quota.metadata;
    try {
      const status = { hard: fromResourceList(hard), used: fromResourceList(used) };
      await this.ctx.client.request('PUT', resourcePath(QUOTAS, namespace, name, 'status'), { body: { ...quota, status } });
    } catch (err) {
      // Changed meanwhile (a charge, a spec edit): count again once the informer has it. Deleted: nothing to do.
      if (isStatusError(err) && err.code === 409) return { requeue: true };
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }
}
