import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GroupResource, KubeObject } from '@kube/apimachinery';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { Cacher } from './cacher';
import { EtcdClient } from './etcd.client';
import { EtcdStorage } from './etcd.storage';
import { resourcePrefix } from './keys';
import { LeaseManager } from './lease.manager';
import { RegistryWatch } from './registry.watch';
import type { CreateOptions, DeleteOptions, GetOptions, ListOptions, ListResult, StorageEvent, StorageInterface, UpdateFunc, UpdateOptions, UpdateResult, WatchOptions } from './storage.interface';
import { statusOf, take } from './storage.testing';
import { WatchCache } from './watch.cache';
import type { WatchChannel } from './watch.channel';

/** The wrapped storage, counting what reaches it: whatever the Cacher serves itself never shows up here. */
class CountingStorage implements StorageInterface {
  readonly calls: string[] = [];
  constructor(private readonly inner: StorageInterface) {}
  get resource(): GroupResource {
    return this.inner.resource;
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  get(ns: string | undefined, name: string, opts?: GetOptions): Promise<KubeObject> {
    this.calls.push('get');
    return this.inner.get(ns, name, opts);
  }
  tryGet(ns: string | undefined, name: string, opts?: GetOptions): Promise<KubeObject | undefined> {
    this.calls.push('tryGet');
    return this.inner.tryGet(ns, name, opts);
  }
  list(ns: string | undefined, opts?: ListOptions): Promise<ListResult> {
    this.calls.push('list');
    return this.inner.list(ns, opts);
  }
  create(obj: KubeObject, opts?: CreateOptions): Promise<KubeObject> {
    this.calls.push('create');
    return this.inner.create(obj, opts);
  }
  guaranteedUpdate(ns: string | undefined, name: string, tryUpdate: UpdateFunc, opts?: UpdateOptions): Promise<UpdateResult> {
    this.calls.push('guaranteedUpdate');
    return this.inner.guaranteedUpdate(ns, name, tryUpdate, opts);
  }
  delete(ns: string | undefined, name: string, opts?: DeleteOptions): Promise<KubeObject> {
    this.calls.push('delete');
    return this.inner.delete(ns, name, opts);
  }
  watch(ns: string | undefined, opts?: WatchOptions): Promise<WatchChannel<StorageEvent>> {
    this.calls.push('watch');
    return this.inner.watch(ns, opts);
  }
}

let etcd: EtcdProcess;
let client: EtcdClient;
let registry: RegistryWatch;
let wrapped: CountingStorage;
let cacher: Cacher;
const gr = { group: 'example.com', resource: 'gadgets' };

function gadget(name: string, ns: string, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name, namespace: ns, labels }, spec: {} };
}

const names = (items: KubeObject[]): string[] => items.map((o) => o.metadata.name as string);
const relabel = (team: string) => (cur: KubeObject | undefined): KubeObject => ({ ...(cur as KubeObject), metadata: { ...(cur as KubeObject).metadata, labels: { team } } });

beforeAll(async () => {
  etcd = await startEtcd();
  client = new EtcdClient({ endpoints: [etcd.endpoint] });
  registry = new RegistryWatch(client);
  const prefix = resourcePrefix('example.com/gadgets');
  wrapped = new CountingStorage(new EtcdStorage(gr, prefix, client, new LeaseManager(client)));
  cacher = new Cacher(wrapped, new WatchCache(prefix, gr.resource, client, registry, { historyCapacity: 20 }));
  await cacher.start();
});

beforeEach(() => {
  wrapped.calls.length = 0;
});

afterAll(async () => {
  await registry?.stop();
  client?.close();
  await etcd?.stop();
});

describe('Cacher (the watch cache as a decorator)', () => {
  it('sends writes to the wrapped storage and serves reads of every resourceVersion kind from memory', async () => {
    const a = await cacher.create(gadget('a', 'ns1'));
    await cacher.guaranteedUpdate('ns1', 'a', relabel('x'));
    await cacher.create(gadget('b', 'ns1'));
    await cacher.delete('ns1', 'b');
    expect(wrapped.calls).toEqual(['create', 'guaranteedUpdate', 'create', 'delete']);
    wrapped.calls.length = 0;
    // A consistent read right after the writes sees them: the cache is proven as fresh as etcd first.
    expect((await cacher.get('ns1', 'a')).metadata.labels).toEqual({ team: 'x' });
    expect(await cacher.tryGet('ns1', 'b')).toBeUndefined();
    expect((await statusOf(cacher.get('ns1', 'b'))).code).toBe(404);
    expect(names((await cacher.list('ns1')).items)).toEqual(['a']);
    expect((await cacher.get('ns1', 'a', { resourceVersion: '0' })).metadata.name).toBe('a');
    expect((await cacher.get('ns1', 'a', { resourceVersion: a.metadata.resourceVersion })).metadata.name).toBe('a');
    const notOlder = await cacher.list('ns1', { resourceVersion: a.metadata.resourceVersion, resourceVersionMatch: 'NotOlderThan', predicate: (o) => o.metadata.labels?.team === 'x' });
    expect(names(notOlder.items)).toEqual(['a']);
    expect(Number(notOlder.resourceVersion)).toBeGreaterThanOrEqual(Number(a.metadata.resourceVersion));
    // resourceVersion=0 ignores limit, as kube's cache does.
    expect((await cacher.list('ns1', { resourceVersion: '0', limit: 1 })).continue).toBeUndefined();
    expect(wrapped.calls).toEqual([]);
  });

  it('delegates the lists it cannot answer: continue tokens, Exact (and legacy exact), paged consistent lists', async () => {
    for (let i = 0; i < 3; i++) await cacher.create(gadget(`p-${i}`, 'paging'));
    wrapped.calls.length = 0;
    const first = await cacher.list('paging', { limit: 2 });
    const rest = await cacher.list('paging', { limit: 2, continue: first.continue });
    expect(names([...first.items, ...rest.items])).toEqual(['p-0', 'p-1', 'p-2']);
    const exact = await cacher.list('paging', { resourceVersion: first.resourceVersion, resourceVersionMatch: 'Exact' });
    expect(exact.resourceVersion).toBe(first.resourceVersion);
    // kube's legacy exact match: a resourceVersion (not 0) with a limit and no match reads that revision from etcd.
    await cacher.create(gadget('p-3', 'paging'));
    const legacy = await cacher.list('paging', { resourceVersion: first.resourceVersion, limit: 10 });
    expect([legacy.resourceVersion, names(legacy.items)]).toEqual([first.resourceVersion, ['p-0', 'p-1', 'p-2']]);
    expect(wrapped.calls).toEqual(['list', 'list', 'list', 'create', 'list']);
    // Bad options are refused the same way whoever answers.
    expect((await statusOf(cacher.list('paging', { resourceVersionMatch: 'NotOlderThan' }))).code).toBe(400);
    expect((await statusOf(cacher.list('paging', { resourceVersion: 'abc' }))).code).toBe(400);
    expect((await statusOf(cacher.list('paging', { continue: first.continue, resourceVersion: '5' }))).code).toBe(400);
  });

  it('watches with a predicate: entering the selection is ADDED, leaving it DELETED, others are not sent', async () => {
    await cacher.create(gadget('in', 'sel', { team: 'x' }));
    await cacher.create(gadget('out', 'sel', { team: 'y' }));
    const ch = await cacher.watch('sel', { predicate: (o) => o.metadata.labels?.team === 'x' });
    expect((await take(ch, 2)).map((e) => `${e.type}:${e.object.metadata.name ?? ''}`)).toEqual(['ADDED:in', 'BOOKMARK:']);
    await cacher.guaranteedUpdate('sel', 'out', relabel('x'));
    await cacher.guaranteedUpdate('sel', 'in', relabel('y'));
    await cacher.guaranteedUpdate('sel', 'in', relabel('z'));
    const last = await cacher.delete('sel', 'out');
    const events = await take(ch, 3);
    expect(events.map((e) => `${e.type}:${e.object.metadata.name ?? ''}`)).toEqual(['ADDED:out', 'DELETED:in', 'DELETED:out']);
    expect(ch.revision).toBeGreaterThanOrEqual(Number(last.metadata.resourceVersion));
    ch.close();
    expect(wrapped.calls).not.toContain('watch');
  });

  it('replays its event window from a resourceVersion and answers 410 for one that fell out of it', async () => {
    const start = await cacher.create(gadget('w', 'window'));
    await cacher.guaranteedUpdate('window', 'w', relabel('x'));
    await cacher.delete('window', 'w');
    const ch = await cacher.watch('window', { resourceVersion: start.metadata.resourceVersion });
    expect((await take(ch, 2)).map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    ch.close();
    for (let i = 0; i < 40; i++) await cacher.create(gadget(`churn-${i}`, 'churn'));
    const gone = await statusOf(cacher.watch('window', { resourceVersion: start.metadata.resourceVersion }));
    expect(gone).toMatchObject({ code: 410, reason: 'Expired' });
  });

  it('starts a watch from a resourceVersion it has not reached at once, delivering only what comes after it', async () => {
    // A client that watched on a replica ahead of this one resumes here (kube's Cacher.Watch does not wait either).
    const now = await client.currentRevision();
    const ch = await cacher.watch('ahead', { resourceVersion: String(now + 2) });
    expect(ch.revision).toBe(now + 2);
    for (const name of ['seen-1', 'seen-2', 'next']) await cacher.create(gadget(name, 'ahead'));
    const [ev] = await take(ch, 1);
    expect({ type: ev.type, name: ev.object.metadata.name, rv: ev.object.metadata.resourceVersion }).toEqual({ type: 'ADDED', name: 'next', rv: String(now + 3) });
    ch.close();
    // sendInitialEvents needs the state at that revision: kube waits 3 s for it, then 504.
    const initial = await statusOf(cacher.watch('ahead', { resourceVersion: String(now + 1000), sendInitialEvents: true }));
    expect(initial).toMatchObject({ code: 504, details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 } });
  });

  it('answers 504 for a resourceVersion it does not reach, and reads etcd when it cannot prove itself fresh', async () => {
    const future = String((await client.currentRevision()) + 1000);
    // kube's NewTooLargeResourceVersionError from the watch cache: the cause client-go looks for, a retry after 1 s.
    expect(await statusOf(cacher.get('ns1', 'a', { resourceVersion: future }))).toMatchObject({
      code: 504,
      reason: 'Timeout',
      message: expect.stringMatching(new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`)),
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    });
    // Without its registry watch the cache falls behind: a consistent read goes to etcd and still sees the write.
    await registry.stop();
    await new EtcdStorage(gr, resourcePrefix('example.com/gadgets'), client, new LeaseManager(client)).create(gadget('late', 'ns1'));
    wrapped.calls.length = 0;
    expect((await cacher.get('ns1', 'late')).metadata.name).toBe('late');
    expect(names((await cacher.list('ns1')).items)).toContain('late');
    expect(wrapped.calls).toEqual(['tryGet', 'list']);
    // resourceVersion=0 still answers from memory, where the write has not arrived.
    expect(await cacher.tryGet('ns1', 'late', { resourceVersion: '0' })).toBeUndefined();
  });
});

describe('a stopped Cacher (its resource is no longer served)', () => {
  // A registry watch of its own: the suite above stops the shared one.
  let registry: RegistryWatch;
  beforeAll(() => {
    registry = new RegistryWatch(client);
  });
  afterAll(() => registry.stop());

  it('leaves the registry watch, ends its watches and reads etcd for whatever is still in flight', async () => {
    const prefix = resourcePrefix('example.com/gizmos');
    const inner = new CountingStorage(new EtcdStorage({ group: 'example.com', resource: 'gizmos' }, prefix, client, new LeaseManager(client)));
    const stopping = new Cacher(inner, new WatchCache(prefix, 'gizmos', client, registry));
    await stopping.start();
    const before = registry.subscriberCount;
    await stopping.create(gadget('g', 'ns1'));
    const watch = await stopping.watch('ns1');
    expect((await take(watch, 2)).map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);

    stopping.stop();
    expect(registry.subscriberCount).toBe(before - 1);
    expect(await watch.next()).toEqual({ done: true, value: undefined });
    inner.calls.length = 0;
    expect(names((await stopping.list('ns1')).items)).toEqual(['g']);
    expect(inner.calls).toEqual(['list']);
  });

  it('never subscribes when stopped before its first sync got there', async () => {
    const prefix = resourcePrefix('example.com/widgets');
    const cache = new WatchCache(prefix, 'widgets', client, registry);
    const before = registry.subscriberCount;
    const starting = cache.start();
    cache.stop();
    await starting;
    expect(registry.subscriberCount).toBe(before);
  });
});

describe("the watch cache's window (kube's eventFreshDuration)", () => {
  let own: RegistryWatch;
  beforeAll(() => {
    own = new RegistryWatch(client);
  });
  afterAll(async () => {
    await own.stop();
  });

  async function cacheWith(resource: string, eventFreshMs?: number): Promise<Cacher> {
    const prefix = resourcePrefix(`example.com/${resource}`);
    const c = new Cacher(new EtcdStorage({ group: 'example.com', resource }, prefix, client, new LeaseManager(client)), new WatchCache(prefix, resource, client, own, { eventFreshMs }));
    await c.start();
    return c;
  }

  it('keeps events younger than eventFreshMs, or at least the last 100: older ones answer 410 and are freed', async () => {
    const aged = await cacheWith('aged', 1);
    const fresh = await cacheWith('fresh');
    const revisions: Record<string, string[]> = { aged: [], fresh: [] };
    for (let i = 0; i < 300; i++) {
      for (const [name, c] of [['aged', aged], ['fresh', fresh]] as const) revisions[name].push((await c.create(gadget(`g-${i}`, 'window'))).metadata.resourceVersion as string);
    }
    // Within 75 s every event is kept, as before.
    const all = await fresh.watch('window', { resourceVersion: revisions.fresh[0] });
    expect((await take(all, 299)).length).toBe(299);
    all.close();
    // Events older than eventFreshMs are dropped once more than 100 follow them…
    expect(await statusOf(aged.watch('window', { resourceVersion: revisions.aged[0] }))).toMatchObject({ code: 410, reason: 'Expired' });
    // …and the last 100 stay, however old.
    const recent = await aged.watch('window', { resourceVersion: revisions.aged[199] });
    expect((await take(recent, 100)).map((e) => e.object.metadata.name)).toEqual(Array.from({ length: 100 }, (_, i) => `g-${200 + i}`));
    recent.close();
  });
});
