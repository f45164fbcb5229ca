import type { KubeObject } from '@kube/apimachinery';

/** One watch event as a reflector consumes it (BOOKMARK only moves the resourceVersion on). */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: KubeObject;
}

/** An open watch: iterate its events; `close()` ends it. A stream that ends with an error exposes it as `error`. */
export interface WatchStream extends AsyncIterable<WatchEvent> {
  close(): void;
  readonly error?: Error;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
}

/**
 * client-go's cache.ListerWatcher: a consistent list, and a watch of the changes after a resourceVersion. A watch
 * from a resourceVersion the server no longer has fails with a 410 Gone/Expired Status (the reflector relists).
 */
export interface ListerWatcher {
  list(): Promise<ListResult>;
  watch(resourceVersion: string): Promise<WatchStream>;
}

/** What the in-process ListerWatcher needs of a storage (the etcd store with its watch cache, or a fake). */
export interface WatchableStore {
  list(namespace: string | undefined, opts: { resourceVersion?: string }): Promise<ListResult>;
  watch(namespace: string | undefined, opts?: { resourceVersion?: string }): Promise<AsyncIterable<StoredEvent> & { close(): void; readonly error?: Error }>;
}

interface StoredEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: KubeObject;
}

/** Lists and watches one resource (optionally one namespace) straight from storage: for in-process controllers. */
export function storageListerWatcher(store: WatchableStore, namespace?: string): ListerWatcher {
  return {
    // A consistent read: the reflector must start from what etcd holds now.
    list: () => store.list(namespace, {}),
    watch: async (resourceVersion) => {
      const channel = await store.watch(namespace, { resourceVersion });
      return {
        close: () => channel.close(),
        get error() {
          return channel.error;
        },
        [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() as AsyncIterator<WatchEvent>,
      };
    },
  };
}
