import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { calculateUsage, equalResources, fromResourceList, toResourceList, type ResourceQuota, type UsageSource } from '@kube/admission';
import { isStatusError, type GroupResource, type KubeObject } from '@kube/apimachinery';
import { GenericApiServer, HealthChecks } from '@kube/apiserver';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, SharedInformerFactory, type SharedIndexInformer } from '@kube/client';
import { collectionKey, resourcePrefix, Storage } from '@kube/storage';
import { SYSTEM_WRITE, systemContext } from './system.context';

const QUOTAS: GroupResource = { group: '', resource: 'resourcequotas' };
/** kube's --resource-quota-sync-period: every quota recalculated this often (usage of objects no informer here watches). */
export const QUOTA_RESYNC_MS = 5 * 60_000;
/** Resources whose deletions (and pods' ends) release usage at once: the ones kube's quota evaluators watch. */
const REPLENISHED: readonly string[] = ['pods', 'services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas'];

const isTerminal = (pod: KubeObject): boolean => ['Succeeded', 'Failed'].includes((pod.status as { phase?: string } | undefined)?.phase ?? '');

/**
 * kube-controller-manager's resourcequota controller (pkg/controller/resourcequota), kept in core-api until the
 * controller manager hosts it: status.hard follows spec.hard, status.used is recalculated from the namespace's
 * objects when a quota is created or its spec changes, when tracked objects are deleted (or pods end), and
 * every QUOTA_RESYNC_MS. The write is a compare-and-swap on the quota read before counting, so a charge the
 * ResourceQuota admission plugin made meanwhile is never overwritten (the pass is retried).
 */
@Injectable()
export class ResourceQuotaController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly controller: Controller;
  private readonly quotas: SharedIndexInformer;
  private readonly source: UsageSource;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory,
    @Inject(HealthChecks) private readonly health: HealthChecks,
    @Inject(Storage) private readonly storage: Storage,
  ) {
    this.quotas = informers.informerFor(QUOTAS);
    this.controller = new Controller({ name: 'ResourceQuotaController', reconcile: (key) => this.sync(key), waitFor: [this.quotas] });
    this.source = { list: (gr, ns) => this.list(gr, ns), count: (gr, ns) => this.count(gr, ns) };
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
    for (const resource of REPLENISHED) {
      if (resource === 'resourcequotas' || !this.served(resource)) continue;
      informers.informerFor({ group: '', resource }).addEventHandler({
        delete: (obj) => this.enqueueNamespace(obj.metadata.namespace),
        update: (old, obj) => {
          if (resource === 'pods' ? !isTerminal(old) && isTerminal(obj) : JSON.stringify(old.spec) !== JSON.stringify(obj.spec)) this.enqueueNamespace(obj.metadata.namespace);
        },
      });
    }
  }

  onApplicationBootstrap(): void {
    this.informers.start();
    void this.health.addPostStartHook('start-resourcequota-controller', () => this.controller.run());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.controller.shutDown();
  }

  /** Recalculates one quota now (tests, and callers that must see fresh usage). */
  syncNow(namespace: string, name: string): Promise<void> {
    return this.controller.sync(`${namespace}/${name}`);
  }

  private served(resource: string): boolean {
    return this.server.resources.some((d) => d.group === '' && d.plural === resource);
  }

  private enqueueNamespace(namespace: string | undefined): void {
    if (!namespace) return;
    for (const q of this.quotas.lister.byIndex(NAMESPACE_INDEX, namespace)) this.controller.enqueue(metaNamespaceKey(q));
  }

  private async sync(key: string): Promise<{ requeue: boolean } | void> {
    const [namespace, name] = key.split('/');
    const handler = this.server.handler('', 'resourcequotas');
    // A consistent read: the status write below is conditional on this version.
    const quota = (await handler.store.tryGet(namespace, name)) as ResourceQuota | undefined;
    if (!quota) return;
    const used = await calculateUsage(quota, this.source);
    const hard = toResourceList(quota.spec?.hard);
    if (equalResources(hard, toResourceList(quota.status?.hard)) && equalResources(used, toResourceList(quota.status?.used)) && quota.status?.used) return;
    try {
      const status = { hard: fromResourceList(hard), used: fromResourceList(used) };
      await handler.update(systemContext(), namespace, name, { ...quota, status } as never, SYSTEM_WRITE, 'status');
    } catch (err) {
      // Changed meanwhile (a charge, a spec edit): count again. Deleted: nothing to do.
      if (isStatusError(err) && err.code === 409) return { requeue: true };
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
  }

  /** Objects of a resource this server serves from its own storage, else of any other server on the same etcd. */
  private async list(gr: GroupResource, namespace: string): Promise<readonly KubeObject[]> {
    const def = this.server.resources.find((d) => d.group === gr.group && d.plural === gr.resource);
    const store = def ? this.server.handler(def.group, def.plural).store : this.storage.resource(gr, defaultStoragePrefix(gr));
    return (await store.list(namespace)).items;
  }

  /** A count of keys, straight from etcd (no cache for resources other servers serve). */
  private async count(gr: GroupResource, namespace: string): Promise<number> {
    const def = this.server.resources.find((d) => d.group === gr.group && d.plural === gr.resource);
    const prefix = def?.storagePrefix ?? defaultStoragePrefix(gr);
    return (await this.storage.client.countPrefix(collectionKey(resourcePrefix(prefix), namespace), gr.resource)).count;
  }
}

/** kube's key layout: /registry/<resource> for the core group, /registry/<group>/<resource> otherwise. */
function defaultStoragePrefix(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.group}/${gr.resource}`;
}
