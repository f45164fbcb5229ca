import type { GroupResource } from '@kube/apimachinery';
import { storageListerWatcher, type ListerWatcher, type WatchableStore } from './lister-watcher';
import { SharedIndexInformer } from './shared-informer';

/** Where the factory's informers list and watch each resource. */
export type ListerWatcherSource = (resource: GroupResource) => ListerWatcher;

/** What the factory needs of a process's Storage: one store per resource and etcd key prefix. */
export interface StorageResources {
  resource(resource: GroupResource, storagePrefix: string): WatchableStore;
}

/** kube's key layout: `/registry/<resource>` for the core group, `/registry/<group>/<resource>` otherwise. */
function storagePrefix(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.group}/${gr.resource}`;
}

/**
 * client-go's SharedInformerFactory: one informer per resource in a process, however many controllers use it.
 * Controllers ask for informers, add their handlers, then `start()`; `hasSynced()` is the process's
 * informer-sync readiness.
 */
export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer>();

  constructor(private readonly source: ListerWatcherSource) {}

  /** In-process informers over the etcd stores (and their watch caches) of this Storage. */
  static forStorage(storage: StorageResources): SharedInformerFactory {
    return new SharedInformerFactory((gr) => storageListerWatcher(storage.resource(gr, storagePrefix(gr))));
  }

  informerFor(gr: GroupResource): SharedIndexInformer {
    const key = `${gr.resource}.${gr.group}`;
    let informer = this.informers.get(key);
    if (!informer) {
      informer = new SharedIndexInformer(key, this.source(gr));
      this.informers.set(key, informer);
    }
    return informer;
  }

  /** Stops and drops the informer of a resource that is no longer served (a deleted CRD, a removed APIService). */
  remove(gr: GroupResource): void {
    const key = `${gr.resource}.${gr.group}`;
    this.informers.get(key)?.stop();
    this.informers.delete(key);
  }

  /** Starts every informer asked for so far (idempotent; call again after asking for more). */
  start(): void {
    for (const informer of this.informers.values()) informer.run();
  }

  hasSynced(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced());
  }

  /** Names of the informers that have not synced yet. */
  unsynced(): string[] {
    return [...this.informers.values()].filter((i) => !i.hasSynced()).map((i) => i.name);
  }

  async waitForCacheSync(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.waitForSync()));
  }

  shutdown(): void {
    for (const informer of this.informers.values()) informer.stop();
  }
}
