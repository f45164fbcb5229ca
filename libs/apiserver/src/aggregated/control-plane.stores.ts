/**
 * The control-plane objects an aggregated server's own admission needs — Namespaces (NamespaceLifecycle) and
 * ResourceQuotas (ResourceQuota admission charging its objects) — read and written through the front door as the
 * server's own identity, never in etcd: an aggregated server's etcd role reaches its own prefix only. Reads come
 * from informers, as kube's admission plugins read listers; a quota's usage is written to its status subresource
 * with the resourceVersion it was computed from (a 409 reads it again), as kube's quota admission retries.
 */
import { Errors, type KubeObject } from '@kube/apimachinery';
import { NAMESPACE_INDEX, SharedIndexInformer } from '@kube/client';
import type { StorageInterface, UpdateFunc, UpdateResult } from '@kube/storage';
import type { RegistrationTarget } from './api.client';
import { ControlPlaneReader, statusError } from './control-plane.admission';

export interface ControlPlaneStores {
  /** What NamespaceLifecycleAdmission reads: `resourceVersion: '0'` from the informer, otherwise a GET. */
  readonly namespaces: Pick<StorageInterface, 'tryGet'>;
  /** What ResourceQuotaAdmission reads (the informer) and writes (status, compare-and-swap). */
  readonly resourceQuotas: Pick<StorageInterface, 'list' | 'guaranteedUpdate'>;
  stop(): void;
}

/** Conflicts in a row before a charge gives up (kube's quota admission retries too, then answers 409 itself). */
const MAX_CONFLICTS = 10;

class LazyInformer {
  readonly informer: SharedIndexInformer;
  private synced?: Promise<void>;

  constructor(name: string, reader: ControlPlaneReader, path: string) {
    this.informer = new SharedIndexInformer(`${name} (control plane)`, reader.listerWatcher(path));
  }

  /** Started by the first request that needs it, then kept current by its watch. */
  ready(): Promise<void> {
    this.synced ??= (this.informer.run(), this.informer.waitForSync());
    return this.synced;
  }
}

export function controlPlaneStores(target: RegistrationTarget): ControlPlaneStores {
  const reader = new ControlPlaneReader(target);
  const namespaces = new LazyInformer('namespaces', reader, '/api/v1/namespaces');
  const quotas = new LazyInformer('resourcequotas', reader, '/api/v1/resourcequotas');
  const quotaPath = (namespace: string, name: string): string => `/api/v1/namespaces/${encodeURIComponent(namespace)}/resourcequotas/${encodeURIComponent(name)}`;

  const updateQuotaStatus = async (namespace: string | undefined, name: string, tryUpdate: UpdateFunc): Promise<UpdateResult> => {
    if (!namespace) throw Errors.badRequest('resourcequotas are namespaced');
    for (let conflicts = 0; ; conflicts++) {
      const current = await reader.read(quotaPath(namespace, name));
      if (!current) throw Errors.notFound({ group: '', resource: 'resourcequotas' }, name);
      const next = await tryUpdate(current);
      if (next === current) return { object: current, created: false, changed: false };
      const res = await reader.send('PUT', `${quotaPath(namespace, name)}/status`, next);
      if (res.status === 200) return { object: JSON.parse(res.body) as KubeObject, created: false, changed: true };
      if (res.status !== 409 || conflicts >= MAX_CONFLICTS) throw statusError(res, `update resourcequotas/${name}/status`);
    }
  };

  return {
    namespaces: {
      tryGet: async (_namespace, name, opts) => {
        if (opts?.resourceVersion !== '0') return reader.read(`/api/v1/namespaces/${encodeURIComponent(name)}`);
        await namespaces.ready();
        return namespaces.informer.lister.get(name);
      },
    },
    resourceQuotas: {
      list: async (namespace, opts) => {
        if (opts?.resourceVersion !== '0') throw new Error('quota lists are read from the informer (resourceVersion "0")');
        await quotas.ready();
        const lister = quotas.informer.lister;
        return { items: namespace ? lister.byIndex(NAMESPACE_INDEX, namespace) : lister.list(), resourceVersion: quotas.informer.lastSyncResourceVersion };
      },
      guaranteedUpdate: (namespace, name, tryUpdate) => updateQuotaStatus(namespace, name, tryUpdate),
    },
    stop: () => {
      namespaces.informer.stop();
      quotas.informer.stop();
      reader.close();
    },
  };
}
