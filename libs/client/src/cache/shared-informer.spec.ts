import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors, type KubeObject } from '@kube/apimachinery';
import { Storage, type StorageInterface } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import type { ListerWatcher, ListResult, WatchEvent, WatchStream } from './lister-watcher';
import { storageListerWatcher } from './lister-watcher';
import { SharedIndexInformer } from './shared-informer';

const obj = (name: string, rv: number, namespace?: string, labels?: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, resourceVersion: String(rv), labels } });

/** A watch stream the test feeds and ends by hand. */
class FakeStream implements WatchStream {
  private readonly buffer: WatchEvent[] = [];
  private waiting?: (r: IteratorResult<WatchEvent>) => void;
  private ended = false;
  error?: Error;

  push(ev: WatchEvent): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: ev, done: false });
    } else this.buffer.push(ev);
  }

  close(err?: Error): void {
    this.ended = true;
    this.error = err;
    this.waiting?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return {
      next: () => {
        const ev = this.buffer.shift();
        if (ev) return Promise.resolve({ value: ev, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((r) => (this.waiting = r));
      },
    };
  }
}

/** Scripted list results and watches; records every call. */
class FakeListerWatcher implements ListerWatcher {
  readonly calls: string[] = [];
  readonly streams: FakeStream[] = [];
  lists: ListResult[] = [];
  refuseWatchFrom = new Set<string>();
  private streamWaiters: Array<(s: FakeStream) => void> = [];

  async list(): Promise<ListResult> {
    this.calls.push('list');
    return this.lists.shift() ?? { items: [], resourceVersion: '1' };
  }

  async watch(resourceVersion: string): Promise<WatchStream> {
    this.calls.push(`watch ${resourceVersion}`);
    if (this.refuseWatchFrom.has(resourceVersion)) throw Errors.tooOldResourceVersion(resourceVersion, 100);
    const s = new FakeStream();
    this.streams.push(s);
    this.streamWaiters.splice(0).forEach((w) => w(s));
    return s;
  }

  nextStream(count: number): Promise<FakeStream> {
    if (this.streams.length >= count) return Promise.resolve(this.streams[count - 1]);
    return new Promise((resolve) => this.streamWaiters.push(() => this.streams.length >= count && resolve(this.streams[count - 1])));
  }
}

async function until(fn: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const fastBackoff = { initialMs: 5, maxMs: 20 };

describe('SharedIndexInformer over a fake ListerWatcher', () => {
  it('lists, is synced, then applies watch events to its cache and handlers, resuming from the last resourceVersion', async () => {
    const lw = new FakeListerWatcher();
    lw.lists = [{ items: [obj('a', 5, 'ns1'), obj('b', 6, 'ns2')], resourceVersion: '10' }];
    const informer = new SharedIndexInformer('configmaps', lw, fastBackoff);
    const seen: string[] = [];
    informer.addEventHandler({ add: (o) => seen.push(`add ${o.metadata.name}`), update: (_, o) => seen.push(`update ${o.metadata.name}`), delete: (o) => seen.push(`delete ${o.metadata.name}`) });
    expect(informer.hasSynced()).toBe(false);
    informer.run();
    await informer.waitForSync();
    expect(seen).toEqual(['add a', 'add b']);
    expect(informer.lister.byIndex('namespace', 'ns1').map((o) => o.metadata.name)).toEqual(['a']);

    const s1 = await lw.nextStream(1);
    s1.push({ type: 'MODIFIED', object: obj('a', 11, 'ns1') });
    s1.push({ type: 'DELETED', object: obj('b', 12, 'ns2') });
    s1.push({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } });
    await until(() => informer.lastSyncResourceVersion === '15');
    expect(seen.slice(2)).toEqual(['update a', 'delete b']);
    expect(informer.lister.get('ns2/b')).toBeUndefined();

    // A watch that breaks (not 410) is reopened from the last resourceVersion, without a list.
    s1.close(new Error('connection reset'));
    await lw.nextStream(2);
    expect(lw.calls).toEqual(['list', 'watch 10', 'watch 15']);
    informer.stop();
  });

  it('relists when the watch is refused with 410 Gone, and reports objects deleted meanwhile', async () => {
    const lw = new FakeListerWatcher();
    lw.lists = [
      { items: [obj('a', 5), obj('b', 6)], resourceVersion: '10' },
      { items: [obj('a', 30), obj('c', 31)], resourceVersion: '40' },
    ];
    const informer = new SharedIndexInformer('configmaps', lw, fastBackoff);
    const seen: string[] = [];
    informer.addEventHandler({ add: (o) => seen.push(`add ${o.metadata.name}`), update: (_, o) => seen.push(`update ${o.metadata.name}@${o.metadata.resourceVersion}`), delete: (o) => seen.push(`delete ${o.metadata.name}`) });
    informer.run();
    const s1 = await lw.nextStream(1);
    lw.refuseWatchFrom.add('10');
    s1.close(new Error('watch cache re-initialized'));
    await lw.nextStream(2);
    expect(lw.calls).toEqual(['list', 'watch 10', 'watch 10', 'list', 'watch 40']);
    expect(seen).toEqual(['add a', 'add b', 'update a@30', 'add c', 'delete b']);
    expect(informer.lister.keys().sort()).toEqual(['a', 'c']);
    informer.stop();
  });

  it('relists when an open watch ends with 410 Expired', async () => {
    const lw = new FakeListerWatcher();
    lw.lists = [{ items: [], resourceVersion: '10' }, { items: [obj('z', 50)], resourceVersion: '50' }];
    const informer = new SharedIndexInformer('configmaps', lw, fastBackoff);
    informer.run();
    const s1 = await lw.nextStream(1);
    s1.close(Errors.tooOldResourceVersion(10, 20));
    await lw.nextStream(2);
    expect(lw.calls).toEqual(['list', 'watch 10', 'list', 'watch 50']);
    expect(informer.lister.get('z')).toBeDefined();
    informer.stop();
  });

  it('resyncs a handler that asked for it with update(obj, obj) for every cached object', async () => {
    const lw = new FakeListerWatcher();
    lw.lists = [{ items: [obj('a', 5), obj('b', 6)], resourceVersion: '10' }];
    const informer = new SharedIndexInformer('configmaps', lw, fastBackoff);
    const resynced: string[] = [];
    const other: string[] = [];
    informer.addEventHandler({ update: (o, n) => o === n && resynced.push(String(n.metadata.name)) }, 20);
    informer.addEventHandler({ update: (_, n) => other.push(String(n.metadata.name)) });
    informer.run();
    await until(() => resynced.length >= 4);
    expect(new Set(resynced)).toEqual(new Set(['a', 'b']));
    expect(other).toEqual([]);
    informer.stop();
  });

  it('tells a handler added after sync about the cached objects, and keeps custom indexes current', async () => {
    const lw = new FakeListerWatcher();
    lw.lists = [{ items: [obj('a', 5, 'x', { app: 'web' }), obj('b', 6, 'x', { app: 'db' })], resourceVersion: '10' }];
    const informer = new SharedIndexInformer('configmaps', lw, fastBackoff);
    informer.addIndexers({ app: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) });
    informer.run();
    await informer.waitForSync();
    const late: string[] = [];
    informer.addEventHandler({ add: (o) => late.push(String(o.metadata.name)) });
    expect(late.sort()).toEqual(['a', 'b']);
    (await lw.nextStream(1)).push({ type: 'MODIFIED', object: obj('b', 11, 'x', { app: 'web' }) });
    await until(() => informer.lister.byIndex('app', 'web').length === 2);
    expect(informer.lister.byIndex('app', 'db')).toEqual([]);
    informer.stop();
  });
});

describe('SharedIndexInformer over etcd and the watch cache', () => {
  let etcd: EtcdProcess;
  let storage: Storage;
  let store: StorageInterface;

  beforeAll(async () => {
    etcd = await startEtcd();
    // A small event window, so a watch resumed from an old resourceVersion is answered 410.
    storage = new Storage({ endpoints: [etcd.endpoint], historyCapacity: 3 });
    store = storage.resource({ group: '', resource: 'configmaps' }, 'configmaps');
  });

  afterAll(async () => {
    await storage?.close();
    await etcd?.stop();
  });

  it('follows creates and deletes, and relists (410 from the watch cache) after missing more than the window', async () => {
    await store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'first', namespace: 'ns' } });
    const real = storageListerWatcher(store);
    let hold: Promise<void> | undefined;
    const calls: string[] = [];
    let current: WatchStream | undefined;
    // The real ListerWatcher, with a way to break the open watch and hold the next one back.
    const lw: ListerWatcher = {
      list: () => (calls.push('list'), real.list()),
      watch: async (rv) => {
        calls.push('watch');
        await hold;
        current = await real.watch(rv);
        return current;
      },
    };
    const informer = new SharedIndexInformer('configmaps', lw, fastBackoff);
    const deleted: string[] = [];
    informer.addEventHandler({ delete: (o) => deleted.push(String(o.metadata.name)) });
    informer.run();
    await informer.waitForSync();
    expect(informer.lister.keys()).toEqual(['ns/first']);

    await store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'second', namespace: 'ns' } });
    await until(() => informer.lister.get('ns/second') !== undefined);

    let release!: () => void;
    hold = new Promise((r) => (release = r));
    current?.close();
    await until(() => calls.length === 3);
    await store.delete('ns', 'first');
    for (let i = 0; i < 5; i++) await store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `gap-${i}`, namespace: 'ns' } });
    release();
    await until(() => informer.lister.keys().length === 6);
    expect(calls.filter((c) => c === 'list').length).toBe(2);
    expect(deleted).toEqual(['first']);
    expect(informer.lister.keys().sort()).toEqual(['ns/gap-0', 'ns/gap-1', 'ns/gap-2', 'ns/gap-3', 'ns/gap-4', 'ns/second']);
    informer.stop();
  });
});
