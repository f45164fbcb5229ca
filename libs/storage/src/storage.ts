import type { GroupResource } from '@kube/apimachinery';
import { EtcdClient, type EtcdTls } from './etcd.client';
import { resourcePrefix } from './keys';
import { LeaseManager } from './lease.manager';
import { RegistryWatch } from './registry.watch';
import { ResourceStore } from './resource.store';
import { WatchCache, type WatchCacheOptions } from './watch-cache';

export interface StorageOptions extends WatchCacheOptions {
  endpoints: string[];
  tls?: EtcdTls;
}

/** Entry point of the storage lib: one etcd client, one registry watch, a ResourceStore per resource. */
export class Storage {
  readonly client: EtcdClient;
  private readonly registry: RegistryWatch;
  private readonly leases: LeaseManager;
  private readonly stores = new Map<string, ResourceStore>();

  constructor(private readonly options: StorageOptions) {
    this.client = new EtcdClient({ endpoints: options.endpoints, tls: options.tls });
    this.registry = new RegistryWatch(this.client);
    this.leases = new LeaseManager(this.client);
  }

  /** The store of a resource kept under /registry/<storagePrefix>/. */
  resource(resource: GroupResource, storagePrefix: string): ResourceStore {
    const prefix = resourcePrefix(storagePrefix);
    let store = this.stores.get(prefix);
    if (!store) {
      const cache = new WatchCache(prefix, resource.resource, this.client, this.registry, this.options);
      store = new ResourceStore(resource, prefix, this.client, cache, this.leases);
      this.stores.set(prefix, store);
    }
    return store;
  }

  /** Checks etcd answers (for /readyz); throws otherwise. */
  async ping(timeoutMs = 2000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.client.currentRevision(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('etcd did not answer in time')), timeoutMs);
        }),
      ]);
    } finally {
      // Probes call this every few seconds: no timer may outlive its answer.
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.registry.stop();
    this.client.close();
  }
}
