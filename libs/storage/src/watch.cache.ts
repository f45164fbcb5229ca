import { Errors, isStatusError, type KubeObject } from '@kube/apimachinery';
import type { EtcdClient } from './etcd.client';
import { NO_TRANSFORMER, PreparedSequence, prepareStoredValues, readStoredValue, type TransformerLookup } from './encryption/stored.value';
import { decodeObject } from './object.codec';
import type { RegistrySubscriber, RegistryWatch } from './registry.watch';
import type { RawWatchEvent } from './revision.watcher';
import { SortedKeys } from './sorted.keys';
import type { SelectionPredicate, StorageEvent } from './storage.interface';
import { watchCacheEvents } from './storage.metrics';
import { WatchChannel } from './watch.channel';
import { filterEvent } from './watch.filter';

interface CacheWatcher {
  keyPrefix: string;
  predicate?: SelectionPredicate;
  channel: WatchChannel<StorageEvent>;
  /** Events up to this revision are skipped (a watch from a revision the cache had not reached); 0 otherwise. */
  after: number;
}

export class TooOldResourceVersionError extends Error {
  constructor(
    readonly requested: number,
    readonly oldest: number,
  ) {
    super(`too old resource version: ${requested} (${oldest})`);
  }
}

export interface WatchCacheOptions {
  /** At most this many past events are kept for watches that start at an older resourceVersion. */
  historyCapacity?: number;
  /** Events younger than this are kept (up to historyCapacity); older ones only while fewer than HISTORY_MINIMUM remain. */
  eventFreshMs?: number;
  /** Per-watcher buffer before a slow client is cut off. */
  watcherCapacity?: number;
}

/** kube's lowerBoundCapacity: a quiet resource keeps its last 100 events, however old. */
const HISTORY_MINIMUM = 100;
/** kube's eventFreshDuration: a watcher that fell behind by less than this resumes without a relist. */
const EVENT_FRESH_MS = 75_000;

/**
 * The in-memory copy of one resource (one key prefix) fed by the shared registry watch: current objects,
 * a window of recent events, and the client watches reading from it. One etcd watch serves every client.
 */
export class WatchCache implements RegistrySubscriber {
  private objects = new Map<string, KubeObject>();
  /** Keys whose stored value this server cannot decrypt, with the Status a read of them answers (kept out of `objects`). */
  private undecryptable = new Map<string, Error>();
  private readonly keys: SortedKeys;
  private history: StorageEvent[] = [];
  /** When each event of `history` was recorded (same indices). */
  private recordedAt: number[] = [];
  private windowStart = 0;
  private current = 0;
  private pending: Array<{ events: RawWatchEvent[]; revision: number }> | undefined = [];
  private readonly watchers = new Set<CacheWatcher>();
  private syncing?: Promise<void>;
  private stopped = false;
  private readonly historyCapacity: number;
  private readonly historyMinimum: number;
  private readonly eventFreshMs: number;
  private readonly watcherCapacity: number;
  /** Event batches in order, each once a KMS provider has the DEKs to read it (synchronous for every other provider). */
  private readonly sequence: PreparedSequence<{ events: RawWatchEvent[]; revision: number }>;

  constructor(
    readonly prefix: string,
    private readonly resource: string,
    private readonly client: EtcdClient,
    private readonly registry: RegistryWatch,
    options: WatchCacheOptions = {},
    /** Encryption at rest: values are decrypted once, as they enter the cache, never per read. */
    private readonly transformer: TransformerLookup = NO_TRANSFORMER,
  ) {
    this.historyCapacity = options.historyCapacity ?? 10_000;
    this.historyMinimum = Math.min(HISTORY_MINIMUM, this.historyCapacity);
    this.eventFreshMs = options.eventFreshMs ?? EVENT_FRESH_MS;
    this.watcherCapacity = options.watcherCapacity ?? 10_000;
    this.keys = new SortedKeys(prefix);
    this.sequence = new PreparedSequence(transformer, ({ events, revision }) => this.applyPrepared(events, revision), () => this.resync());
  }

  /** What every watch channel reports as its position: the cache's revision (one function for all of them). */
  private readonly position = (): number => this.current;

  /** Revision the cache reflects: every change up to it is applied. */
  get revision(): number {
    return this.current;
  }

  get synced(): boolean {
    return this.pending === undefined;
  }

  /** The objects the cache holds (APF's object count for the resource). */
  get size(): number {
    return this.objects.size;
  }

  /** Lists the prefix once and follows the registry watch; resolves when the cache can serve reads. */
  start(): Promise<void> {
    this.syncing ??= this.sync();
    return this.syncing;
  }

  /**
   * Waits until the cache holds everything etcd had when this was called (a consistent read).
   * Returns false if that could not be proven within the timeout (the caller then reads etcd).
   */
  async waitUntilFresh(timeoutMs = 3000): Promise<boolean> {
    await this.start();
    // A confined registry watch cannot prove any revision of etcd's: no round trip for a certain "no".
    if (!this.provesFreshness) return false;
    const target = await this.client.currentRevision();
    return this.waitForRevision(target, timeoutMs);
  }

  /** Resolves true once the cache reached `revision`; a cache that cannot prove it (provesFreshness) answers false at once. */
  async waitForRevision(revision: number, timeoutMs: number): Promise<boolean> {
    await this.start();
    if (this.current >= revision) return true;
    if (!this.provesFreshness) return false;
    return (await this.registry.waitFor(revision, timeoutMs)) && this.synced && this.current >= revision;
  }

  /**
   * Whether waiting can bring the cache to any revision of etcd's: true when the registry watch sees every
   * revision; false for a server confined to its own prefix, whose caches reach only the revisions of its own
   * writes (its Cacher reads etcd for the rest, as kube's Cacher without consistent reads from cache does).
   */
  get provesFreshness(): boolean {
    return this.registry.followsEveryRevision;
  }

  get(key: string): KubeObject | undefined {
    if (this.undecryptable.size !== 0) {
      const err = this.undecryptable.get(key);
      if (err) throw err;
    }
    return this.objects.get(key);
  }

  /** Objects under keyPrefix, in key order (as an etcd range returns them). */
  list(keyPrefix: string): KubeObject[] {
    // kube's list fails as a whole on a value it cannot decrypt.
    if (this.undecryptable.size !== 0) for (const [k, err] of this.undecryptable) if (k.startsWith(keyPrefix)) throw err;
    let keys = this.keys.under(keyPrefix);
    if (!keys) {
      const matching: string[] = [];
      for (const k of this.objects.keys()) if (k.startsWith(keyPrefix)) matching.push(k);
      keys = matching.sort();
    }
    return keys.map((k) => this.objects.get(k) as KubeObject);
  }

  /**
   * Watches keyPrefix. `fromRevision` undefined: synthetic ADDED for every current object, then changes.
   * A number: changes after that revision (replayed from history; TooOldResourceVersionError if evicted).
   */
  watch(keyPrefix: string, fromRevision: number | undefined, predicate: SelectionPredicate | undefined): WatchChannel<StorageEvent> {
    // A revision past the cache's (kube's cacheWatcher with a future resourceVersion): events up to it are not
    // delivered, and no bookmark claims less than it, so a client resuming here from a replica ahead of this one
    // sees each later event once.
    const after = fromRevision !== undefined && fromRevision > this.current ? fromRevision : 0;
    const channel = new WatchChannel<StorageEvent>(this.watcherCapacity, after ? () => Math.max(after, this.current) : this.position);
    if (this.stopped) {
      // Nothing feeds a stopped cache any more: a watch opened on it (set up while its CRD went away) ends at once, as
      // the ones open when it stopped did, instead of waiting in silence for events that never come.
      channel.close();
      return channel;
    }
    if (fromRevision === undefined) {
      for (const obj of this.list(keyPrefix)) {
        if (!predicate || predicate(obj)) channel.push({ type: 'ADDED', key: '', object: obj, revision: this.current });
      }
      channel.push({ type: 'BOOKMARK', key: '', object: { metadata: { resourceVersion: String(this.current) } }, revision: this.current });
    } else {
      if (fromRevision < this.windowStart) throw new TooOldResourceVersionError(fromRevision, this.windowStart);
      for (const ev of this.history) {
        if (ev.revision <= fromRevision || !ev.key.startsWith(keyPrefix)) continue;
        const out = predicate ? filterEvent(ev, predicate) : ev;
        if (out) channel.push(out);
      }
    }
    const watcher: CacheWatcher = { keyPrefix, predicate, channel, after };
    this.watchers.add(watcher);
    channel.onClose(() => this.watchers.delete(watcher));
    return channel;
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  /** Stopped caches answer nothing: their Cacher reads etcd instead. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /**
   * Leaves the registry watch and ends every watch of it (kube's Cacher.Stop, when a CRD's storage is
   * destroyed): the streams end as a server-side timeout does, and clients re-list (and find the resource gone).
   * Frees the objects and the event window.
   */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.registry.unsubscribe(this);
    for (const w of [...this.watchers]) w.channel.close();
    this.watchers.clear();
    this.objects = new Map();
    this.keys.clear();
    this.history = [];
    this.recordedAt = [];
  }

  apply(events: RawWatchEvent[], revision: number): void {
    this.sequence.push({ events, revision });
  }

  private applyPrepared(events: RawWatchEvent[], revision: number): void {
    if (this.stopped) return;
    if (this.pending) {
      this.pending.push({ events, revision });
      return;
    }
    this.applyNow(events, revision);
  }

  resync(): void {
    for (const w of this.watchers) w.channel.close(new Error('watch cache re-initialized'));
    this.pending = [];
    this.syncing = this.sync();
  }

  private async sync(): Promise<void> {
    await this.registry.start();
    if (this.stopped) return; // stopped while the registry watch started: never subscribe
    this.registry.subscribe(this);
    this.pending ??= [];
    for (;;) {
      const at = this.registry.revision;
      try {
        const res = await this.client.rangePrefix(this.prefix, { revision: at }, this.resource);
        const ready = prepareStoredValues(this.transformer, res.kvs);
        if (ready) await ready;
        const objects = new Map<string, KubeObject>();
        const undecryptable = new Map<string, Error>();
        for (const kv of res.kvs) {
          const key = kv.key.toString();
          const decoded = this.decode(key, kv.value, kv.mod_revision);
          if (decoded instanceof Error) undecryptable.set(key, decoded);
          else objects.set(key, decoded);
        }
        if (this.stopped) return; // stopped while listing: stays empty
        this.objects = objects;
        this.undecryptable = undecryptable;
        this.keys.clear();
        for (const key of objects.keys()) this.keys.add(key);
        this.history = [];
        this.recordedAt = [];
        this.windowStart = at;
        this.current = at;
        const queued = this.pending ?? [];
        this.pending = undefined;
        for (const batch of queued) {
          const fresh = batch.events.filter((e) => e.modRevision > at);
          if (batch.revision > at) this.applyNow(fresh, batch.revision);
        }
        return;
      } catch (err) {
        // A compaction between reading the position and the range: try again at the newer position.
        await new Promise((r) => setTimeout(r, 100));
        if (!(err instanceof Error)) throw err;
      }
    }
  }

  /** The object of a stored value, or the Status error of a value this server cannot decrypt (never thrown: one bad value must not stop the cache). */
  private decode(key: string, value: Buffer, modRevision: number | string): KubeObject | Error {
    try {
      const t = this.transformer();
      return decodeObject(t ? readStoredValue(t, value, key).data : value, modRevision);
    } catch (err) {
      // Also a value that is no JSON (an encrypted one read by a server without encryption): one object's 500, not a cache that never syncs.
      return isStatusError(err) ? err : Errors.internal(err);
    }
  }

  private applyNow(events: RawWatchEvent[], revision: number): void {
    for (const raw of events) {
      const ev = this.toStorageEvent(raw);
      if (!ev) continue;
      watchCacheEvents.inc({ resource: this.resource });
      this.record(ev);
      for (const w of this.watchers) {
        if (!ev.key.startsWith(w.keyPrefix) || ev.revision <= w.after) continue;
        const out = w.predicate ? filterEvent(ev, w.predicate) : ev;
        if (out) w.channel.push(out);
      }
    }
    if (revision > this.current) this.current = revision;
  }

  private toStorageEvent(raw: RawWatchEvent): StorageEvent | undefined {
    if (this.undecryptable.size !== 0) this.undecryptable.delete(raw.key);
    const prev = this.objects.get(raw.key);
    if (raw.type === 'delete') {
      if (!prev) return undefined;
      this.objects.delete(raw.key);
      this.keys.delete(raw.key);
      const object = { ...prev, metadata: { ...prev.metadata, resourceVersion: String(raw.modRevision) } };
      return { type: 'DELETED', key: raw.key, object, prevObject: prev, revision: raw.modRevision };
    }
    const object = this.decode(raw.key, raw.value as Buffer, raw.modRevision);
    if (object instanceof Error) {
      // Not readable here (a key this server lacks): reads of it answer the error, watchers see nothing of it.
      this.undecryptable.set(raw.key, object);
      if (prev) {
        this.objects.delete(raw.key);
        this.keys.delete(raw.key);
      }
      return undefined;
    }
    this.objects.set(raw.key, object);
    if (!prev) this.keys.add(raw.key);
    return { type: prev ? 'MODIFIED' : 'ADDED', key: raw.key, object, prevObject: prev, revision: raw.modRevision };
  }

  /**
   * Keeps the window kube's watch cache keeps (its capacity is resized between 100 and 100 × 1024 events so that
   * it holds eventFreshDuration of history): every event younger than eventFreshMs, at least the last
   * historyMinimum, at most historyCapacity. Without the age bound a busy resource holds historyCapacity events
   * (and their objects and encoded lines) for ever. Dropped in batches: splice is linear.
   */
  private record(ev: StorageEvent): void {
    const now = Date.now();
    this.history.push(ev);
    this.recordedAt.push(now);
    const len = this.history.length;
    let drop = Math.max(0, len - this.historyCapacity);
    while (len - drop > this.historyMinimum && now - this.recordedAt[drop] > this.eventFreshMs) drop++;
    if (drop > 0 && (len > this.historyCapacity * 1.25 || drop >= Math.max(64, len >> 3))) {
      this.windowStart = this.history[drop - 1].revision;
      this.history.splice(0, drop);
      this.recordedAt.splice(0, drop);
    }
  }
}
