import { Compactor } from './compactor';
import type { GroupResource } from '@kube/apimachinery';
import { Cacher } from './cacher';
import { EtcdClient, type EtcdTls } from './etcd.client';
import type { EncryptionConfigSource } from './encryption/encryption.source';
import { NO_TRANSFORMER, type TransformerLookup } from './encryption/stored.value';
import { EtcdStorage } from './etcd.storage';
import { REGISTRY_ROOT, resourcePrefix } from './keys';
import { LeaseManager } from './lease.manager';
import { RegistryWatch } from './registry.watch';
import type { StorageInterface } from './storage.interface';
import { WatchCache, type WatchCacheOptions } from './watch.cache';

export interface StorageOptions extends WatchCacheOptions {
  endpoints: string[];
  tls?: EtcdTls;
  /**
   * The keys this server may touch: `/registry/` (the default: the control plane), or a prefix of its own under it
   * that etcd's RBAC confines it to (an aggregated server's `/registry/<group>/`). A confined Storage watches and
   * probes only that prefix, refuses resources outside it, never compacts (compaction is the control plane's),
   * and reads etcd where its caches cannot prove freshness (see RegistryWatch).
   */
  prefix?: string;
  /** Serve reads and watches from a watch cache per resource (kube's --watch-cache). Default true. */
  watchCache?: boolean;
  /** Compact etcd every this many ms, coordinated with the other servers (Compactor; kube's --etcd-compaction-interval). Default 0: never. */
  compactionIntervalMs?: number;
  /** Where the compactor reports compactions and failures. */
  log?: (message: string) => void;
  /** Encryption at rest (kube's --encryption-provider-config): resources it names are stored through their providers. */
  encryption?: EncryptionConfigSource;
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

  /** The keys this server may touch (StorageOptions.prefix). */
  readonly prefix: string;

  constructor(private readonly options: StorageOptions) {
    this.prefix = checkStoragePrefix(options.prefix ?? REGISTRY_ROOT);
    const confined = this.prefix !== REGISTRY_ROOT;
    this.client = new EtcdClient({ endpoints: options.endpoints, tls: options.tls, revisionKey: `${this.prefix}\u0000revision` });
    this.registry = new RegistryWatch(this.client, this.prefix);
    this.leases = new LeaseManager(this.client);
    // compact_rev_key lies outside a confined server's prefix, and compacting is the control plane's job.
    this.compactor = new Compactor(this.client, confined ? 0 : (options.compactionIntervalMs ?? 0), options.log);
    this.compactor.start();
  }

  /** The storage of a resource kept under /registry/<storagePrefix>/ (one per prefix, shared by its users). */
  resource(resource: GroupResource, storagePrefix: string): StorageInterface {
    const prefix = resourcePrefix(storagePrefix);
    if (!prefix.startsWith(this.prefix)) {
      throw new Error(`${resource.resource}${resource.group ? `.${resource.group}` : ''} is stored under ${prefix}, outside this server's etcd prefix ${this.prefix}`);
    }
    let store = this.stores.get(prefix);
    if (!store) {
      const encryption = this.options.encryption;
      const transformer: TransformerLookup = encryption ? () => encryption.transformerFor(resource) : NO_TRANSFORMER;
      const etcd = new EtcdStorage(resource, prefix, this.client, this.leases, this.options.watcherCapacity, transformer);
      store = this.options.watchCache === false ? etcd : new Cacher(etcd, new WatchCache(prefix, resource.resource, this.client, this.registry, this.options, transformer));
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

  /** Encryption at rest, when configured (its KMS providers' health check and priming). */
  get encryption(): EncryptionConfigSource | undefined {
    return this.options.encryption;
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
    this.options.encryption?.stop();
  }
}

/** A storage prefix is /registry/ or a path under it ending in '/', so that it never matches a longer sibling. */
function checkStoragePrefix(prefix: string): string {
  if (!prefix.startsWith(REGISTRY_ROOT) || !prefix.endsWith('/')) throw new Error(`etcd prefix ${prefix}: expected ${REGISTRY_ROOT} or a path under it ending in /`);
  return prefix;
}
