import { Errors, type GroupResource, type KubeObject } from '@kube/apimachinery';
import { decodeContinueToken, encodeContinueToken } from './continue-token';
import { CompactedError, type EtcdClient } from './etcd.client';
import { collectionKey, objectKey } from './keys';
import { decodeObject, encodeObject } from './object.codec';
import type { LeaseManager } from './lease.manager';
import { TooOldResourceVersionError, type StorageEvent, type WatchCache } from './watch-cache';
import type { WatchChannel } from './watch.channel';

export interface ListOptions {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  /** Objects to keep (label/field selectors); applied before paging, as kube does. */
  predicate?: (obj: KubeObject) => boolean;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/** Called with the current object (undefined when absent); returns the desired object. */
export type UpdateFn = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
  /** False for a no-op: nothing was written, resourceVersion unchanged. */
  changed: boolean;
}

const MAX_CONFLICT_RETRIES = 16;
const READ_FRESHNESS_TIMEOUT_MS = 3000;

function parseRV(value: string | undefined, what = 'resourceVersion'): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw Errors.badRequest(`invalid ${what}: ${value}`);
  return Number(value);
}

/**
 * Kubernetes storage semantics for one resource on etcd: create-only transactions, guaranteed updates with
 * mod-revision preconditions, preconditioned deletes, paged lists at a fixed revision, and reads/watches
 * served by the resource's watch cache whenever that is provably as fresh as etcd.
 */
export class ResourceStore {
  constructor(
    readonly resource: GroupResource,
    readonly prefix: string,
    private readonly client: EtcdClient,
    private readonly cache: WatchCache,
    private readonly leases: LeaseManager,
  ) {}

  key(namespace: string | undefined, name: string): string {
    return objectKey(this.prefix, namespace, name);
  }

  get type(): string {
    return this.resource.resource;
  }

  start(): Promise<void> {
    return this.cache.start();
  }

  get cacheRevision(): number {
    return this.cache.revision;
  }

  async create(obj: KubeObject, opts: { dryRun?: boolean; ttlSeconds?: number } = {}): Promise<KubeObject> {
    const name = obj.metadata.name as string;
    const key = this.key(obj.metadata.namespace, name);
    if (opts.dryRun) {
      if (await this.client.getKey(key, this.type)) throw Errors.alreadyExists(this.resource, name);
      return obj;
    }
    const lease = opts.ttlSeconds ? await this.leases.leaseFor(opts.ttlSeconds) : undefined;
    const res = await this.client.txn(
      {
        compare: [{ key: Buffer.from(key), target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key: Buffer.from(key), value: encodeObject(obj), lease } }],
        failure: [],
      },
      this.type,
      'create',
    );
    if (!res.succeeded) throw Errors.alreadyExists(this.resource, name);
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: res.header.revision } };
  }

  /**
   * GET. resourceVersion "0": whatever the cache holds; unset: a consistent read (cache once proven fresh,
   * else etcd); N: at least as new as N.
   */
  async get(namespace: string | undefined, name: string, resourceVersion?: string): Promise<KubeObject> {
    const key = this.key(namespace, name);
    const obj = await this.readKey(key, resourceVersion);
    if (!obj) throw Errors.notFound(this.resource, name);
    return obj;
  }

  async tryGet(namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    return this.readKey(this.key(namespace, name), undefined);
  }

  private async readKey(key: string, resourceVersion: string | undefined): Promise<KubeObject | undefined> {
    const rv = parseRV(resourceVersion);
    if (rv === 0) {
      await this.cache.start();
      return this.cache.get(key);
    }
    const fresh = rv === undefined ? await this.cache.waitUntilFresh(READ_FRESHNESS_TIMEOUT_MS) : await this.waitForRV(rv);
    if (fresh) return this.cache.get(key);
    const kv = await this.client.getKey(key, this.type);
    return kv ? decodeObject(kv.value, kv.mod_revision) : undefined;
  }

  private async waitForRV(rv: number): Promise<boolean> {
    if (await this.cache.waitForRevision(rv, READ_FRESHNESS_TIMEOUT_MS)) return true;
    throw Errors.timeout(`Too large resource version: ${rv}, current: ${this.cache.revision}`);
  }

  async list(namespace: string | undefined, opts: ListOptions = {}): Promise<ListResult> {
    const keyPrefix = collectionKey(this.prefix, namespace);
    const match = opts.resourceVersionMatch ?? '';
    if (match && !['Exact', 'NotOlderThan'].includes(match)) throw Errors.badRequest(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`);
    if (opts.continue) {
      if (opts.resourceVersion) throw Errors.badRequest('specifying resource version is not allowed when using continue');
      const token = decodeContinueToken(opts.continue);
      return this.listFromEtcd(keyPrefix, opts, token.resourceVersion, keyPrefix + token.startKey);
    }
    const rv = parseRV(opts.resourceVersion);
    if (match && rv === undefined) throw Errors.badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (match === 'Exact') {
      if (rv === 0) throw Errors.badRequest('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
      return this.listFromEtcd(keyPrefix, opts, rv as number);
    }
    // A paged consistent list reads etcd so that its continue token can be served at the same revision.
    if (rv === undefined && opts.limit && opts.limit > 0) return this.listFromEtcd(keyPrefix, opts, 0);
    if (rv === 0) await this.cache.start();
    else if (rv === undefined ? !(await this.cache.waitUntilFresh(READ_FRESHNESS_TIMEOUT_MS)) : !(await this.waitForRV(rv))) {
      return this.listFromEtcd(keyPrefix, opts, 0);
    }
    const all = this.cache.list(keyPrefix);
    const items = opts.predicate ? all.filter(opts.predicate) : all;
    return { items, resourceVersion: String(this.cache.revision) };
  }

  /** Pages through etcd at one revision, filling up to `limit` matching items. */
  private async listFromEtcd(keyPrefix: string, opts: ListOptions, revision: number, startKey?: string): Promise<ListResult> {
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const items: KubeObject[] = [];
    let start = startKey;
    let readRevision = revision;
    for (;;) {
      let res;
      try {
        res = await this.client.rangePrefix(keyPrefix, { start, limit: limit ? Math.max(limit, 1) : 0, revision: readRevision }, this.type);
      } catch (err) {
        if (err instanceof CompactedError) throw opts.continue ? Errors.continueExpired() : Errors.tooOldResourceVersion(revision, 'compacted');
        throw err;
      }
      if (readRevision === 0) readRevision = Number(res.header.revision);
      let lastKey = '';
      let stoppedEarly = false;
      for (let i = 0; i < res.kvs.length; i++) {
        const kv = res.kvs[i];
        lastKey = kv.key.toString();
        const obj = decodeObject(kv.value, kv.mod_revision);
        if (!opts.predicate || opts.predicate(obj)) items.push(obj);
        if (limit && items.length >= limit) {
          stoppedEarly = i < res.kvs.length - 1 || res.more;
          break;
        }
      }
      const more = stoppedEarly || (res.more && (!limit || items.length < limit));
      if (!limit || !more) return { items, resourceVersion: String(readRevision) };
      if (items.length >= limit) {
        const result: ListResult = {
          items,
          resourceVersion: String(readRevision),
          continue: encodeContinueToken({ resourceVersion: readRevision, startKey: lastKey.slice(keyPrefix.length) + '\u0000' }),
        };
        if (!opts.predicate) {
          const { count } = await this.client.countPrefix(keyPrefix, this.type, readRevision).catch(() => ({ count: -1 }));
          const remaining = count - (await this.countBefore(keyPrefix, lastKey, readRevision));
          if (count >= 0 && remaining >= 0) result.remainingItemCount = remaining;
        }
        return result;
      }
      start = lastKey + '\u0000';
    }
  }

  /** Number of keys in [keyPrefix, upTo] at a revision (for remainingItemCount). */
  private async countBefore(keyPrefix: string, upTo: string, revision: number): Promise<number> {
    const res = await this.client.range(
      { key: Buffer.from(keyPrefix), range_end: Buffer.from(upTo + '\u0000'), count_only: true, revision },
      this.type,
      'count',
    );
    return Number(res.count);
  }

  /**
   * Read-modify-write with optimistic concurrency: `update` sees the current object and returns the desired
   * one; if etcd changed in between, it runs again on the fresh object. Identical bytes are not written.
   */
  async guaranteedUpdate(namespace: string | undefined, name: string, update: UpdateFn, opts: { ignoreNotFound?: boolean; dryRun?: boolean } = {}): Promise<UpdateResult> {
    const key = this.key(namespace, name);
    let current = await this.readForUpdate(key);
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      if (!current && !opts.ignoreNotFound) throw Errors.notFound(this.resource, name);
      const desired = await update(current?.object);
      const bytes = encodeObject(desired);
      if (current && bytes.equals(current.bytes)) return { object: current.object, created: false, changed: false };
      if (opts.dryRun) return { object: desired, created: !current, changed: true };
      const res = await this.client.txn(
        {
          compare: [current ? { key: Buffer.from(key), target: 'Mod', result: 'Equal', mod_revision: current.modRevision } : { key: Buffer.from(key), target: 'Create', result: 'Equal', create_revision: 0 }],
          success: [{ request_put: { key: Buffer.from(key), value: bytes, lease: current?.lease } }],
          failure: [{ request_range: { key: Buffer.from(key) } }],
        },
        this.type,
        'update',
      );
      if (res.succeeded) {
        return { object: { ...desired, metadata: { ...desired.metadata, resourceVersion: res.header.revision } }, created: !current, changed: true };
      }
      const kv = res.responses[0]?.response_range?.kvs[0];
      current = kv ? { object: decodeObject(kv.value, kv.mod_revision), bytes: kv.value, modRevision: Number(kv.mod_revision), lease: kv.lease } : undefined;
    }
    throw Errors.modified(this.resource, name);
  }

  private async readForUpdate(key: string): Promise<{ object: KubeObject; bytes: Buffer; modRevision: number; lease?: string } | undefined> {
    const kv = await this.client.getKey(key, this.type);
    if (!kv) return undefined;
    return { object: decodeObject(kv.value, kv.mod_revision), bytes: kv.value, modRevision: Number(kv.mod_revision), lease: kv.lease === '0' ? undefined : kv.lease };
  }

  /**
   * Deletes with preconditions; `check` may veto based on the current object (e.g. finalizers handled by the
   * caller). Returns the deleted object with resourceVersion = the deletion revision.
   */
  async delete(namespace: string | undefined, name: string, preconditions: Preconditions = {}, opts: { dryRun?: boolean } = {}): Promise<KubeObject> {
    const key = this.key(namespace, name);
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const current = await this.readForUpdate(key);
      if (!current) throw Errors.notFound(this.resource, name);
      this.checkPreconditions(current.object, preconditions, name);
      if (opts.dryRun) return current.object;
      const res = await this.client.txn(
        {
          compare: [{ key: Buffer.from(key), target: 'Mod', result: 'Equal', mod_revision: current.modRevision }],
          success: [{ request_delete_range: { key: Buffer.from(key) } }],
          failure: [],
        },
        this.type,
        'delete',
      );
      if (res.succeeded) return { ...current.object, metadata: { ...current.object.metadata, resourceVersion: res.header.revision } };
    }
    throw Errors.modified(this.resource, name);
  }

  checkPreconditions(obj: KubeObject, pre: Preconditions, name: string): void {
    if (pre.uid && obj.metadata.uid !== pre.uid) {
      throw Errors.conflict(this.resource, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
    }
    if (pre.resourceVersion && obj.metadata.resourceVersion !== pre.resourceVersion) {
      throw Errors.conflict(
        this.resource,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
      );
    }
  }

  /**
   * WATCH from the cache. resourceVersion unset: consistent snapshot as ADDED events, then changes; "0": the
   * cache's snapshot as ADDED, then changes; N: changes after N (410 Expired when N is older than the window).
   */
  async watch(namespace: string | undefined, resourceVersion?: string, sendInitialEvents?: boolean): Promise<WatchChannel<StorageEvent>> {
    const keyPrefix = collectionKey(this.prefix, namespace);
    const rv = parseRV(resourceVersion);
    if (rv === undefined) await this.cache.waitUntilFresh(READ_FRESHNESS_TIMEOUT_MS);
    else if (rv > 0) await this.waitForRV(rv);
    else await this.cache.start();
    const initial = rv === undefined || rv === 0 || sendInitialEvents === true;
    try {
      return this.cache.watch(keyPrefix, initial ? undefined : rv);
    } catch (err) {
      if (err instanceof TooOldResourceVersionError) throw Errors.tooOldResourceVersion(err.requested, err.oldest);
      throw err;
    }
  }

  get watchCacheRevision(): number {
    return this.cache.revision;
  }
}
