import { Errors, type GroupResource, type KubeObject } from '@kube/apimachinery';
import { encodeContinueToken, LATEST_REVISION_TOKEN } from './continue-token';
import { CompactedError, type EtcdClient } from './etcd.client';
import { collectionKey, objectKey } from './keys';
import type { LeaseManager } from './lease.manager';
import { parseListOptions, parseResourceVersion, tooLargeResourceVersion } from './list.request';
import { NO_TRANSFORMER, PreparedSequence, prepareStoredValues, readStoredValue, sealStoredValue, type TransformerLookup } from './encryption/stored.value';
import { decodeObject, encodeObject, sameStoredContent } from './object.codec';
import { RevisionWatcher, type RawWatchEvent } from './revision.watcher';
import { checkPreconditions, type CreateOptions, type DeleteOptions, type GetOptions, type ListOptions, type ListResult, type StorageEvent, type StorageInterface, type UpdateFunc, type UpdateOptions, type UpdateResult, type WatchOptions } from './storage.interface';
import { WatchChannel } from './watch.channel';
import { filterEvent } from './watch.filter';

const MAX_CONFLICT_RETRIES = 16;

interface StoredObject {
  object: KubeObject;
  /** The plain (decrypted) bytes. */
  bytes: Buffer;
  /** Read by a provider other than the writing one: an update writes even unchanged content (key rotation). */
  stale: boolean;
  modRevision: number;
  lease?: string;
}

/**
 * kube's etcd3 store for one resource, under /registry/<prefix>/[<namespace>/]<name>: resourceVersion is the
 * etcd mod revision, creates are create-only transactions, updates are transactions conditioned on the mod
 * revision read (retried on conflict), identical bytes are not written, lists page at one revision with
 * continue tokens, and a compacted revision answers 410. Every call is an etcd round trip: the Cacher in
 * front of it serves reads and watches from memory.
 */
export class EtcdStorage implements StorageInterface {
  constructor(
    readonly resource: GroupResource,
    readonly prefix: string,
    private readonly client: EtcdClient,
    private readonly leases: LeaseManager,
    private readonly watcherCapacity = 10_000,
    /** Encryption at rest (kube's value transformers) for this resource, when configured. */
    private readonly transformer: TransformerLookup = NO_TRANSFORMER,
  ) {}

  /** Bytes to put under `key`: the JSON, through the resource's first encryption provider when it has one. */
  private seal(key: string, bytes: Buffer): Buffer {
    const t = this.transformer();
    return t ? sealStoredValue(t, bytes, key) : bytes;
  }

  private decode(key: Buffer | string, value: Buffer, modRevision: number | string): KubeObject {
    const t = this.transformer();
    return decodeObject(t ? readStoredValue(t, value, key.toString()).data : value, modRevision);
  }

  private stored(kv: { key: Buffer; value: Buffer; mod_revision: number | string; lease?: string }): StoredObject {
    const t = this.transformer();
    const plain = t ? readStoredValue(t, kv.value, kv.key.toString()) : { data: kv.value, stale: false };
    return { object: decodeObject(plain.data, kv.mod_revision), bytes: plain.data, stale: plain.stale, modRevision: Number(kv.mod_revision), lease: kv.lease === '0' ? undefined : kv.lease };
  }

  /** Fetches what reading these values needs first (a KMS plugin's Decrypt of a new DEK); undefined for every other provider. */
  private prepare(items: readonly { value?: Buffer; prevValue?: Buffer }[]): Promise<void> | undefined {
    return prepareStoredValues(this.transformer, items);
  }

  private get type(): string {
    return this.resource.resource;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  async create(obj: KubeObject, opts: CreateOptions = {}): Promise<KubeObject> {
    const name = obj.metadata.name as string;
    const key = objectKey(this.prefix, obj.metadata.namespace, name);
    if (opts.dryRun) {
      if (await this.client.getKey(key, this.type)) throw Errors.alreadyExists(this.resource, name);
      return obj;
    }
    const lease = opts.ttlSeconds ? await this.leases.leaseFor(opts.ttlSeconds) : undefined;
    const res = await this.client.txn(
      {
        compare: [{ key: Buffer.from(key), target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key: Buffer.from(key), value: this.seal(key, encodeObject(obj)), lease } }],
        failure: [],
      },
      this.type,
      'create',
    );
    if (!res.succeeded) throw Errors.alreadyExists(this.resource, name);
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: res.header.revision } };
  }

  async get(namespace: string | undefined, name: string, opts: GetOptions = {}): Promise<KubeObject> {
    const obj = await this.tryGet(namespace, name, opts);
    if (!obj) throw Errors.notFound(this.resource, name);
    return obj;
  }

  /** Reads the latest state; a resourceVersion newer than etcd's revision is 504, as kube's etcd3 store answers. */
  async tryGet(namespace: string | undefined, name: string, opts: GetOptions = {}): Promise<KubeObject | undefined> {
    const rv = parseResourceVersion(opts.resourceVersion);
    const res = await this.client.range({ key: Buffer.from(objectKey(this.prefix, namespace, name)) }, this.type);
    if (rv && rv > Number(res.header.revision)) throw tooLargeResourceVersion(rv, Number(res.header.revision));
    const kv = res.kvs[0];
    const ready = this.prepare(res.kvs);
    if (ready) await ready;
    return kv ? this.decode(kv.key, kv.value, kv.mod_revision) : undefined;
  }

  async list(namespace: string | undefined, opts: ListOptions = {}): Promise<ListResult> {
    const keyPrefix = collectionKey(this.prefix, namespace);
    const req = parseListOptions(opts);
    // A token of kube's 410 for a compacted one (revision -1) reads the rest at the latest revision.
    if (req.token) return this.listAt(keyPrefix, opts, Math.max(req.token.resourceVersion, 0), keyPrefix + req.token.startKey);
    const rv = req.resourceVersion;
    if (req.match === 'Exact') return this.listAt(keyPrefix, opts, rv as number);
    // kube's legacy exact match: a resourceVersion other than 0 with a limit and no resourceVersionMatch reads that revision.
    if (req.match === '' && rv && opts.limit && opts.limit > 0) return this.listAt(keyPrefix, opts, rv);
    const result = await this.listAt(keyPrefix, opts, 0);
    if (rv && rv > Number(result.resourceVersion)) throw tooLargeResourceVersion(rv, Number(result.resourceVersion));
    return result;
  }

  /** Pages through etcd at one revision (0: the current one), filling up to `limit` matching items. */
  private async listAt(keyPrefix: string, opts: ListOptions, revision: number, startKey?: string): Promise<ListResult> {
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const items: KubeObject[] = [];
    let start = startKey;
    let readRevision = revision;
    for (;;) {
      let res;
      try {
        res = await this.client.rangePrefix(keyPrefix, { start, limit, revision: readRevision }, this.type);
      } catch (err) {
        // kube's interpretListError: a compacted continue token gets a token that reads the rest at the latest revision.
        // etcd refuses a future revision before kube's store could answer 504: kube passes etcd's error on as a 500.
        if (isFutureRevisionError(err)) throw Errors.internal(new Error('etcdserver: mvcc: required revision is a future revision'));
        if (err instanceof CompactedError) throw startKey !== undefined ? Errors.continueExpired(encodeContinueToken({ resourceVersion: LATEST_REVISION_TOKEN, startKey: startKey.slice(keyPrefix.length) })) : Errors.listExpired();
        throw err;
      }
      if (readRevision === 0) readRevision = Number(res.header.revision);
      const ready = this.prepare(res.kvs);
      if (ready) await ready;
      let lastKey = '';
      let stoppedEarly = false;
      // etcd counts every key from `start` to the end of the prefix, whatever the limit: what follows this page.
      let remaining = Number(res.count);
      for (let i = 0; i < res.kvs.length; i++) {
        const kv = res.kvs[i];
        lastKey = kv.key.toString();
        remaining--;
        const obj = this.decode(lastKey, kv.value, kv.mod_revision);
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
        // kube's remainingItemCount from the page's own range (no further round trips: counting the whole prefix
        // again on every page made paging through N objects cost three O(N) etcd calls per page). With a
        // predicate the count of matching items is unknown, and kube leaves it out.
        if (!opts.predicate && remaining >= 0) result.remainingItemCount = remaining;
        return result;
      }
      start = lastKey + '\u0000';
    }
  }

  async guaranteedUpdate(namespace: string | undefined, name: string, tryUpdate: UpdateFunc, opts: UpdateOptions = {}): Promise<UpdateResult> {
    const key = objectKey(this.prefix, namespace, name);
    let current = await this.readForUpdate(key);
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      if (!current && !opts.ignoreNotFound) throw Errors.notFound(this.resource, name);
      if (current) checkPreconditions(this.resource, name, current.object, opts.preconditions, key);
      const desired = await tryUpdate(current?.object);
      const bytes = encodeObject(desired);
      // A no-op (kube: identical bytes of Go's fixed-order encoding): the same content in another key order is one too.
      if (current && !current.stale && (bytes.equals(current.bytes) || sameStoredContent(desired, current.object))) return { object: current.object, created: false, changed: false };
      if (opts.dryRun) return { object: desired, created: !current, changed: true };
      const res = await this.client.txn(
        {
          compare: [current ? { key: Buffer.from(key), target: 'Mod', result: 'Equal', mod_revision: current.modRevision } : { key: Buffer.from(key), target: 'Create', result: 'Equal', create_revision: 0 }],
          success: [{ request_put: { key: Buffer.from(key), value: this.seal(key, bytes), lease: current?.lease } }],
          failure: [{ request_range: { key: Buffer.from(key) } }],
        },
        this.type,
        'update',
      );
      if (res.succeeded) {
        return { object: { ...desired, metadata: { ...desired.metadata, resourceVersion: res.header.revision } }, created: !current, changed: true };
      }
      // The failed transaction read the key: the next attempt starts from what won, without another round trip.
      const kv = res.responses[0]?.response_range?.kvs[0];
      const ready = kv && this.prepare([kv]);
      if (ready) await ready;
      current = kv ? this.stored(kv) : undefined;
    }
    throw Errors.modified(this.resource, name);
  }

  private async readForUpdate(key: string): Promise<StoredObject | undefined> {
    const kv = await this.client.getKey(key, this.type);
    const ready = kv && this.prepare([kv]);
    if (ready) await ready;
    return kv ? this.stored(kv) : undefined;
  }

  async delete(namespace: string | undefined, name: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    const key = objectKey(this.prefix, namespace, name);
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const current = await this.readForUpdate(key);
      if (!current) throw Errors.notFound(this.resource, name);
      checkPreconditions(this.resource, name, current.object, opts.preconditions, key);
      await opts.validateDeletion?.(current.object);
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

  /**
   * A watch of its own on etcd (what serves watches when no Cacher is in front): the initial state read at one
   * revision, then etcd's events after it. A compacted start is 410, before or during the watch.
   */
  async watch(namespace: string | undefined, opts: WatchOptions = {}): Promise<WatchChannel<StorageEvent>> {
    const keyPrefix = collectionKey(this.prefix, namespace);
    const rv = parseResourceVersion(opts.resourceVersion);
    const predicate = opts.predicate;
    let position = rv ?? 0;
    const channel = new WatchChannel<StorageEvent>(this.watcherCapacity, () => position);
    if (opts.sendInitialEvents ?? (rv === undefined || rv === 0)) {
      const res = await this.client.rangePrefix(keyPrefix, {}, this.type);
      position = Number(res.header.revision);
      const ready = this.prepare(res.kvs);
      if (ready) await ready;
      for (const kv of res.kvs) {
        const object = this.decode(kv.key, kv.value, kv.mod_revision);
        if (!predicate || predicate(object)) channel.push({ type: 'ADDED', key: kv.key.toString(), object, revision: position });
      }
      channel.push({ type: 'BOOKMARK', key: '', object: { metadata: { resourceVersion: String(position) } }, revision: position });
    } else if (!rv) {
      // sendInitialEvents=false without a resourceVersion: from etcd's current revision on.
      position = Number((await this.client.rangePrefix(keyPrefix, { limit: 1 }, this.type)).header.revision);
    }
    // Events (and progress) wait, in order, for the DEKs a KMS provider must fetch to read them; at once for every other provider.
    const sequence = new PreparedSequence<{ events: RawWatchEvent[]; progress?: number }>(
      this.transformer,
      ({ events, progress }) => {
        if (progress !== undefined) {
          position = progress;
          return;
        }
        for (const raw of events) {
          let ev: StorageEvent;
          try {
            ev = this.toStorageEvent(raw);
          } catch (err) {
            // A value this server cannot decrypt ends the watch with its Status, as kube's watch reports the error.
            channel.close(err instanceof Error ? err : new Error(String(err)));
            return;
          }
          const out = predicate ? filterEvent(ev, predicate) : ev;
          if (out) channel.push(out);
        }
        position = events[events.length - 1].modRevision;
      },
      (err) => channel.close(err instanceof Error ? err : new Error(String(err))),
    );
    const watcher = new RevisionWatcher(this.client, keyPrefix, position + 1, {
      onEvents: (events) => sequence.push({ events }),
      onProgress: (revision) => sequence.push({ events: [], progress: revision }),
      onError: (err) => channel.close(err instanceof CompactedError ? Errors.watchExpired() : err),
    });
    watcher.start();
    channel.onClose(() => void watcher.stop());
    return channel;
  }

  private toStorageEvent(raw: RawWatchEvent): StorageEvent {
    const prevObject = raw.prevValue ? this.decode(raw.key, raw.prevValue, raw.modRevision) : undefined;
    if (raw.type === 'delete') {
      const object = prevObject ?? { metadata: { resourceVersion: String(raw.modRevision) } };
      return { type: 'DELETED', key: raw.key, object, prevObject, revision: raw.modRevision };
    }
    const object = this.decode(raw.key, raw.value as Buffer, raw.modRevision);
    return { type: prevObject ? 'MODIFIED' : 'ADDED', key: raw.key, object, prevObject, revision: raw.modRevision };
  }
}

/** etcd's ErrFutureRev, as grpc-js words it ("11 OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision"). */
function isFutureRevisionError(err: unknown): boolean {
  return err instanceof Error && /required revision is a future revision/.test(err.message);
}
