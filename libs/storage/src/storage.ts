import { Compactor } from './compactor';
import type { GroupResource } from '@kube/apimachinery';
import { Cacher } from './cacher';
import { EtcdClient, type EtcdTls } from './etcd.client';
import { EtcdStorage } from './etcd.storage';
import { resourcePrefix } from './keys';
import { LeaseManager } from './lease.manager';
import { RegistryWatch } from './registry.watch';
import type { StorageInterface } from './storage.interface';
import { WatchCache, type WatchCacheOptions } from './watch.cache';

export interface StorageOptions extends WatchCacheOptions {
  endpoints: string[];
  tls?: EtcdTls;
  /** Serve reads and watches from a watch cache per resource (kube's --watch-cache). Default true. */
  watchCache?: boolean;
  /** Compact etcd every this many ms, coordinated with the other servers (Compactor; kube's --etcd-compaction-interval). Default 0: never. */
  compactionIntervalMs?: number;
  /** Where the compactor reports compactions and failures. */
  log?: (message: string) => void;
}

/**
 * Entry point of the storage lib: one etcd client, one registry watch, and per resource an EtcdStorage behind
 * its Cacher (the watch cache), handed out as a StorageInterface.
 */
export class Storage {
  readonly client: EtcdClient;
  private readonly registry: RegistryWatch;
  private readonly leases: LeaseManager;
  private readonly stores = new Map<string, StorageInterface>();
  private readonly compactor: Compactor;

  constructor(private readonly options: StorageOptions) {
    this.client = new EtcdClient({ endpoints: options.endpoints, tls: options.tls });
    this.registry = new RegistryWatch(this.client);
    this.leases = new LeaseManager(this.client);
    this.compactor = new Compactor(this.client, options.compactionIntervalMs ?? 0, options.log);
    this.compactor.start();
  }

  /** The storage of a resource kept under /registry/<storagePrefix>/ (one per prefix, shared by its users). */
  resource(resource: GroupResource, storagePrefix: string): StorageInterface {
    const prefix = resourcePrefix(storagePrefix);
    let store = this.stores.get(prefix);
    if (!store) {
      const etcd = new EtcdStorage(resource, prefix, this.client, this.leases, this.options.watcherCapacity);
      store = this.options.watchCache === false ? etcd : new Cacher(etcd, new WatchCache(prefix, resource.resource, this.client, this.registry, this.options));
      this.stores.set(prefix, store);
    }
    return store;
  }

  /**
   * Drops the storage of a prefix that is no longer served (a deleted CRD, or one that serves no version any
   * more): its watch cache leaves the registry watch and its watches end. A later resource() starts afresh.
   */
  release(storagePrefix: string): void {
    const prefix = resourcePrefix(storagePrefix);
    const store = this.stores.get(prefix);
    if (!store) return;
    this.stores.delete(prefix);
    if (store instanceof Cacher) store.stop();
  }

  /** Storages handed out and watch caches following the registry watch (to prove churn leaves none behind). */
  get stats(): { readonly resources: number; readonly watchCaches: number } {
    return { resources: this.stores.size, watchCaches: this.registry.subscriberCount };
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
    await this.compactor.stop();
    await this.registry.stop();
    this.client.close();
  }
}
