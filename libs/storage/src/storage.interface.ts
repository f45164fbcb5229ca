import { Errors, type GroupResource, type KubeObject, type StatusError, type UserInfo } from '@kube/apimachinery';
import type { WatchChannel } from './watch.channel';

/**
 * Which objects a read or watch keeps (kube's SelectionPredicate: label and field selectors). Applied before
 * paging, so a page is filled with matching objects.
 */
export type SelectionPredicate = (obj: KubeObject) => boolean;

/** Must hold for an update or delete to go ahead; a mismatch is 409 Conflict (kube's storage.Preconditions). */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface GetOptions {
  /**
   * Unset: a consistent read (as new as etcd at the time of the call). "0": any state the storage holds.
   * N: not older than N (504 "Too large resource version" when the storage does not reach N in time).
   */
  resourceVersion?: string;
  /** Who asks (kube carries it in the request context): stored objects ignore it, a computed storage may not. */
  user?: UserInfo;
}

export interface ListOptions {
  /** As for GetOptions; with resourceVersionMatch=Exact the list is read at exactly that revision. */
  resourceVersion?: string;
  resourceVersionMatch?: string;
  /** At most this many items, with a continue token for the rest (0 or unset: all). */
  limit?: number;
  /** The token of a previous page: the next page is read at that page's revision. */
  continue?: string;
  predicate?: SelectionPredicate;
  user?: UserInfo;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
  /** The objects the resource stores (its watch cache's size), when a cache knows it: APF costs LISTs by it. */
  storedObjects?: number;
}

export interface CreateOptions {
  dryRun?: boolean;
  /** The object expires this many seconds after it is written (through an etcd lease). */
  ttlSeconds?: number;
}

/**
 * kube's tryUpdate: called with the current object (undefined when absent and ignoreNotFound is set), returns
 * the desired one. Called again with the fresh object whenever another writer won the race; throwing stops.
 */
export type UpdateFunc = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;

export interface UpdateOptions {
  /** A missing object is handed to tryUpdate as undefined (an update that creates) instead of 404. */
  ignoreNotFound?: boolean;
  /** Checked against the current object before every tryUpdate call. */
  preconditions?: Preconditions;
  dryRun?: boolean;
}

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
  /** False for a no-op: the desired object serialized as the stored one, nothing was written, resourceVersion unchanged. */
  changed: boolean;
}

/** May veto a deletion by throwing, seeing the object about to be deleted (kube's ValidateObjectFunc). */
export type ValidateObjectFunc = (obj: KubeObject) => void | Promise<void>;

export interface DeleteOptions {
  preconditions?: Preconditions;
  /** Runs on the current object (after the preconditions) before every attempt; it must not change it. */
  validateDeletion?: ValidateObjectFunc;
  dryRun?: boolean;
}

export interface WatchOptions {
  /**
   * Unset: a consistent snapshot as ADDED events, then changes. "0": the storage's current state as ADDED,
   * then changes. N: the changes after N (410 Expired when N is older than what the storage still has).
   */
  resourceVersion?: string;
  /** With a resourceVersion N: the state as ADDED events first all the same. */
  sendInitialEvents?: boolean;
  /**
   * Objects to keep. An object entering the selection arrives as ADDED and one leaving it as DELETED, as
   * kube's watch filtering does.
   */
  predicate?: SelectionPredicate;
}

export interface StorageEvent {
  /** BOOKMARK marks the end of the initial (synthetic ADDED) events of a watch. */
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  key: string;
  /** For DELETED: the last state, with resourceVersion set to the deletion revision. */
  object: KubeObject;
  prevObject?: KubeObject;
  revision: number;
}

/**
 * The storage of one resource, as kube's storage.Interface: the REST layer talks to this only. Objects are
 * addressed by namespace (undefined for cluster-scoped objects and for every namespace) and name. Failures are
 * StatusErrors with kube's codes and texts, and a failed write leaves storage unchanged.
 *
 * Implementations: EtcdStorage (etcd), Cacher (the watch cache in front of another implementation), and the
 * computed resources of the apiserver lib (reads only).
 */
export interface StorageInterface {
  readonly resource: GroupResource;
  /** Resolves once the storage can serve (the watch cache has listed); storage without start-up resolves at once. */
  start(): Promise<void>;
  /** 404 NotFound for a missing object. */
  get(namespace: string | undefined, name: string, opts?: GetOptions): Promise<KubeObject>;
  /** get with kube's GetOptions.IgnoreNotFound: undefined for a missing object. */
  tryGet(namespace: string | undefined, name: string, opts?: GetOptions): Promise<KubeObject | undefined>;
  /** kube's GetList: the objects of a namespace (or all), in key order. */
  list(namespace: string | undefined, opts?: ListOptions): Promise<ListResult>;
  /** Creates the object at its namespace/name unless something is there (409 AlreadyExists). */
  create(obj: KubeObject, opts?: CreateOptions): Promise<KubeObject>;
  /** Read-modify-write with optimistic concurrency (see UpdateFunc); an update that changes nothing writes nothing. */
  guaranteedUpdate(namespace: string | undefined, name: string, tryUpdate: UpdateFunc, opts?: UpdateOptions): Promise<UpdateResult>;
  /** Returns the deleted object with resourceVersion = the deletion's revision. */
  delete(namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<KubeObject>;
  /** The channel's `revision` says up to where every event was sent (what a BOOKMARK may claim). */
  watch(namespace: string | undefined, opts?: WatchOptions): Promise<WatchChannel<StorageEvent>>;
}

/**
 * kube's Preconditions.Check inside the etcd3 store: a mismatch is a StorageError (invalid object) that the
 * registry turns into 409 Conflict with the StorageError's own text, key included (storeerr.InterpretUpdateError).
 */
export function checkPreconditions(resource: GroupResource, name: string, obj: KubeObject, pre: Preconditions | undefined, key: string): void {
  if (!pre) return;
  const invalid = (why: string): StatusError => Errors.conflict(resource, name, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${why}`);
  if (pre.uid && obj.metadata.uid !== pre.uid) {
    throw invalid(`Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
  }
  if (pre.resourceVersion && obj.metadata.resourceVersion !== pre.resourceVersion) {
    throw invalid(`Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
  }
}
