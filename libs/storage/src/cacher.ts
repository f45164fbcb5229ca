import { Errors, type GroupResource, isStatusError, type KubeObject } from '@kube/apimachinery';
import { collectionKey, objectKey } from './keys';
import { parseListOptions, parseResourceVersion, tooLargeResourceVersion } from './list.request';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  StorageEvent,
  StorageInterface,
  UpdateFunc,
  UpdateOptions,
  UpdateResult,
  WatchOptions,
} from './storage.interface';
import { TooOldResourceVersionError, type WatchCache } from './watch.cache';
import type { WatchChannel } from './watch.channel';

/** kube's blockTimeout: how long a read waits for the cache to reach its resourceVersion. */
const READ_FRESHNESS_TIMEOUT_MS = 3000;
/** kube's resourceVersionTooHighRetrySeconds. */
const TOO_LARGE_RETRY_AFTER_SECONDS = 1;

/**
 * kube's Cacher: the watch cache as a decorator over another StorageInterface (the etcd one). Writes go to the
 * wrapped storage; GET and LIST are served from memory whenever the requested resourceVersion allows it
 * ("0": whatever the cache holds; unset: once the cache is proven as fresh as etcd; N: once it reached N),
 * else they are delegated; WATCH always reads the cache's event window.
 */
export class Cacher implements StorageInterface {
  constructor(
    private readonly storage: StorageInterface,
    private readonly cache: WatchCache,
  ) {}

  get resource(): GroupResource {
    return this.storage.resource;
  }

  start(): Promise<void> {
    return this.cache.start();
  }

  create(obj: KubeObject, opts?: CreateOptions): Promise<KubeObject> {
    return this.storage.create(obj, opts);
  }

  guaranteedUpdate(namespace: string | undefined, name: string, tryUpdate: UpdateFunc, opts?: UpdateOptions): Promise<UpdateResult> {
    return this.storage.guaranteedUpdate(namespace, name, tryUpdate, opts);
  }

  delete(namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<KubeObject> {
    return this.storage.delete(namespace, name, opts);
  }

  async get(namespace: string | undefined, name: string, opts?: GetOptions): Promise<KubeObject> {
    const obj = await this.tryGet(namespace, name, opts);
    if (!obj) throw Errors.notFound(this.storage.resource, name);
    return obj;
  }

  /**
   * Stops the watch cache (its resource is no longer served, kube's destroyed storage): reads still in flight go to
   * etcd; its watches end, those still being set up too.
   */
  stop(): void {
    this.cache.stop();
  }

  async tryGet(namespace: string | undefined, name: string, opts?: GetOptions): Promise<KubeObject | undefined> {
    if (!(await this.servable(parseResourceVersion(opts?.resourceVersion)))) return this.storage.tryGet(namespace, name, opts);
    try {
      return this.cache.get(objectKey(this.cache.prefix, namespace, name));
    } catch (cached) {
      // A value the cache could not decrypt when it arrived (a KMS plugin that was down, a key added since): etcd's
      // read tries again, and answers the same error while it still fails.
      return this.storage.tryGet(namespace, name, opts).catch((err: unknown) => Promise.reject(isStatusError(err) ? err : cached));
    }
  }

  /** A LIST read from etcd names the cache's object count too, once the cache has one. */
  private readonly withCount = (r: ListResult): ListResult => (this.cache.synced && !this.cache.isStopped ? { ...r, storedObjects: this.cache.size } : r);

  async list(namespace: string | undefined, opts: ListOptions = {}): Promise<ListResult> {
    if (this.cache.isStopped) return this.storage.list(namespace, opts);
    if (shouldDelegateList(opts)) {
      // A resource's first request starts its cache (kube's cacher starts with the storage a CRD's first request
      // creates): a client's paged list is read from etcd, and its watch from that list's resourceVersion then finds
      // the cache's window open from before it, instead of the watch starting it later and answering 410 Gone.
      this.cache.start().catch(() => undefined);
      return this.storage.list(namespace, opts).then(this.withCount);
    }
    if (!(await this.servable(parseListOptions(opts).resourceVersion))) return this.storage.list(namespace, opts).then(this.withCount);
    let all: KubeObject[];
    try {
      all = this.cache.list(collectionKey(this.cache.prefix, namespace));
    } catch (cached) {
      return this.storage.list(namespace, opts).catch((err: unknown) => Promise.reject(isStatusError(err) ? err : cached));
    }
    return { items: opts.predicate ? all.filter(opts.predicate) : all, resourceVersion: String(this.cache.revision), storedObjects: this.cache.size };
  }

  async watch(namespace: string | undefined, opts: WatchOptions = {}): Promise<WatchChannel<StorageEvent>> {
    const rv = parseResourceVersion(opts.resourceVersion);
    // A stopped cache (see stop) answers with a watch that has ended: its client re-watches whatever serves the resource now.
    if (this.cache.isStopped) return this.cache.watch('', undefined, undefined);
    // sendInitialEvents=false without a resourceVersion watches from now (kube's WatchList semantics).
    const initial = opts.sendInitialEvents ?? (rv === undefined || rv === 0);
    if (rv === 0) await this.cache.start();
    else if (rv !== undefined && !initial && this.cache.provesFreshness) {
      // kube's Cacher.Watch: a resourceVersion the cache has not reached yet (a client that moved from a replica
      // ahead of this one) is not waited for: the watch starts at once and delivers only what comes after it.
      await this.cache.start();
    }
    // A confined cache that cannot prove it holds what was asked for: etcd's own watch starts there.
    else if (!(await this.fresh(rv)) && !this.cache.provesFreshness) return this.storage.watch(namespace, opts);
    try {
      return this.cache.watch(collectionKey(this.cache.prefix, namespace), initial ? undefined : rv || this.cache.revision, opts.predicate);
    } catch (err) {
      if (err instanceof TooOldResourceVersionError) throw Errors.tooOldResourceVersion(err.requested, err.oldest);
      throw err;
    }
  }

  /**
   * Whether the cache answers a read at `rv` (see fresh). Not once it was stopped, before or while the read waited
   * for it (its CRD deleted): the emptied cache would answer nothing found, so the read goes to etcd instead.
   */
  private async servable(rv: number | undefined): Promise<boolean> {
    if (this.cache.isStopped) return false;
    if (rv === 0) await this.cache.start();
    else if (!(await this.fresh(rv))) return false;
    return !this.cache.isStopped;
  }

  /**
   * Whether the cache may answer: unset, once proven as fresh as etcd (false when that takes too long: the
   * caller reads etcd); N, once the cache reached N (504 when it does not in time). A cache that cannot prove
   * freshness (a server confined to its own etcd prefix) answers false instead: the caller reads etcd.
   */
  private async fresh(rv: number | undefined): Promise<boolean> {
    if (rv === undefined) return this.cache.waitUntilFresh(READ_FRESHNESS_TIMEOUT_MS);
    if (await this.cache.waitForRevision(rv, READ_FRESHNESS_TIMEOUT_MS)) return true;
    if (!this.cache.provesFreshness || this.cache.isStopped) return false;
    throw tooLargeResourceVersion(rv, this.cache.revision, TOO_LARGE_RETRY_AFTER_SECONDS);
  }
}

/**
 * Lists the cache cannot answer (kube's shouldDelegateList): a continue token or an exact resourceVersion
 * (pages of a past revision; also a resourceVersion with a limit and no match), and a paged consistent list, so
 * that its continue token reads the same revision.
 */
function shouldDelegateList(opts: ListOptions): boolean {
  if (opts.continue || opts.resourceVersionMatch === 'Exact') return true;
  if (!opts.limit || opts.limit <= 0) return false;
  // Unset: a paged consistent list; anything but 0 without a match: kube's legacy exact read of that revision.
  return opts.resourceVersion === undefined || opts.resourceVersion === '' || (opts.resourceVersion !== '0' && !opts.resourceVersionMatch);
}
