import type { KubeObject } from '@kube/apimachinery';
import { SharedIndexInformer, storageListerWatcher } from '@kube/client';
import type { Storage, StorageInterface } from '@kube/storage';
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

export type RbacEventHandler = (kind: RbacKind, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject, old?: KubeObject) => void;

/** The store of one RBAC kind in a process's storage (shared with the REST handlers when core-api serves them). */
export function rbacStore(storage: Storage, kind: RbacKind): StorageInterface {
  const { resource } = RBAC_STORAGE_PREFIXES[kind];
  return storage.resource({ group: RBAC_GROUP, resource }, resource);
}

/**
 * Keeps an RbacIndex current from storage on one shared informer per kind (list, then watch; a broken watch
 * re-lists, as client-go does). Requests never read etcd: they read the index.
 */
export class RbacInformer {
  readonly index = new RbacIndex();
  private readonly handlers: RbacEventHandler[] = [];
  private readonly informers: Array<{ kind: RbacKind; informer: SharedIndexInformer }>;
  private started?: Promise<void>;

  constructor(storage: Storage) {
    this.informers = KINDS.map((kind) => {
      const informer = new SharedIndexInformer(`rbac ${kind}`, storageListerWatcher(rbacStore(storage, kind)));
      informer.addEventHandler({
        add: (obj) => this.emit(kind, 'ADDED', obj),
        update: (old, obj) => this.emit(kind, 'MODIFIED', obj, old),
        delete: (obj) => this.emit(kind, 'DELETED', obj),
      });
      return { kind, informer };
    });
  }

  /** Called for every change after the index has applied it (and for every object of a re-list, as ADDED). */
  onEvent(handler: RbacEventHandler): void {
    this.handlers.push(handler);
  }

  /** Resolves once every kind has been listed into the index. */
  start(): Promise<void> {
    this.started ??= Promise.all(
      this.informers.map(({ informer }) => {
        informer.run();
        return informer.waitForSync();
      }),
    ).then(() => undefined);
    return this.started;
  }

  stop(): void {
    for (const { informer } of this.informers) informer.stop();
  }

  private emit(kind: RbacKind, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject, old?: KubeObject): void {
    this.index.apply(kind, type, obj);
    for (const h of this.handlers) h(kind, type, obj, old);
  }
}
