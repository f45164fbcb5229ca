import type { KubeObject } from '@kube/apimachinery';
import type { ResourceStore, Storage, WatchChannel, StorageEvent } from '@kube/storage';
import { RbacIndex, type RbacKind } from './rbac.index';
import { RBAC_GROUP } from './rbac.types';

/** Where kube keeps the RBAC objects in etcd: /registry/<resource>/…, without the group. */
export const RBAC_STORAGE_PREFIXES: Record<RbacKind, { resource: string; namespaced: boolean }> = {
  Role: { resource: 'roles', namespaced: true },
  ClusterRole: { resource: 'clusterroles', namespaced: false },
  RoleBinding: { resource: 'rolebindings', namespaced: true },
  ClusterRoleBinding: { resource: 'clusterrolebindings', namespaced: false },
};

const KINDS = Object.keys(RBAC_STORAGE_PREFIXES) as RbacKind[];
const RETRY_MS = 500;

export type RbacEventHandler = (kind: RbacKind, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject, old?: KubeObject) => void;

/** The store of one RBAC kind in a process's storage (shared with the REST handlers when core-api serves them). */
export function rbacStore(storage: Storage, kind: RbacKind): ResourceStore {
  const { resource } = RBAC_STORAGE_PREFIXES[kind];
  return storage.resource({ group: RBAC_GROUP, resource }, resource);
}

/**
 * Keeps an RbacIndex current from storage as client-go informers do: list each kind, then watch from the
 * list's revision; a broken watch re-lists. Requests never read etcd: they read the index.
 */
export class RbacInformer {
  readonly index = new RbacIndex();
  private readonly channels = new Map<RbacKind, WatchChannel<StorageEvent>>();
  private readonly handlers: RbacEventHandler[] = [];
  private stopped = false;
  private started?: Promise<void>;

  constructor(private readonly storage: Storage) {}

  /** Called for every change after the index has applied it (and for every object of a re-list, as ADDED). */
  onEvent(handler: RbacEventHandler): void {
    this.handlers.push(handler);
  }

  /** Resolves once every kind has been listed into the index. */
  start(): Promise<void> {
    this.started ??= Promise.all(KINDS.map((kind) => this.run(kind))).then(() => undefined);
    return this.started;
  }

  stop(): void {
    this.stopped = true;
    for (const ch of this.channels.values()) ch.close();
  }

  private run(kind: RbacKind): Promise<void> {
    return new Promise<void>((synced) => void this.loop(kind, synced));
  }

  private async loop(kind: RbacKind, synced: () => void): Promise<void> {
    const store = rbacStore(this.storage, kind);
    let known = new Map<string, KubeObject>();
    while (!this.stopped) {
      try {
        const list = await store.list(undefined, {});
        const fresh = new Map<string, KubeObject>();
        for (const obj of list.items) fresh.set(keyOf(obj), obj);
        // A re-list replaces what the broken watch may have missed: deletions first, then the current objects.
        for (const [k, obj] of known) if (!fresh.has(k)) this.emit(kind, 'DELETED', obj);
        for (const [k, obj] of fresh) this.emit(kind, known.has(k) ? 'MODIFIED' : 'ADDED', obj, known.get(k));
        known = fresh;
        synced();
        const channel = await store.watch(undefined, list.resourceVersion);
        this.channels.set(kind, channel);
        if (this.stopped) channel.close();
        for await (const ev of channel) {
          if (ev.type === 'BOOKMARK') continue;
          const k = keyOf(ev.object);
          if (ev.type === 'DELETED') known.delete(k);
          else known.set(k, ev.object);
          this.emit(kind, ev.type, ev.object, ev.prevObject);
        }
      } catch {
        // etcd unavailable or the watch expired: re-list after a pause.
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  private emit(kind: RbacKind, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject, old?: KubeObject): void {
    this.index.apply(kind, type, obj);
    for (const h of this.handlers) h(kind, type, obj, old);
  }
}

function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}
