import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors, isStatusError, type KubeObject } from '@kube/apimachinery';
import { EtcdClient, RevisionWatcher, Storage, type RawWatchEvent, type StorageInterface, type StorageEvent, type WatchChannel } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';

let etcd: EtcdProcess;
let storage: Storage;
let store: StorageInterface;

const gr = { group: '', resource: 'configmaps' };

function cm(name: string, data: Record<string, string> = {}, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

async function codeOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return err.code;
    throw err;
  }
  return undefined;
}

async function take(ch: WatchChannel<StorageEvent>, n: number, timeoutMs = 5000): Promise<StorageEvent[]> {
  const out: StorageEvent[] = [];
  const deadline = Date.now() + timeoutMs;
  while (out.length < n && Date.now() < deadline) {
    const next = await Promise.race([ch.next(), new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()))]);
    if (!next || next.done) break;
    if (next.value.type !== 'BOOKMARK') out.push(next.value);
  }
  return out;
}

beforeAll(async () => {
  etcd = await startEtcd();
  storage = new Storage({ endpoints: [etcd.endpoint], historyCapacity: 50 });
  store = storage.resource(gr, 'configmaps');
  await store.start();
});

afterAll(async () => {
  await storage?.close();
  await etcd?.stop();
});

describe('etcd storage with kube semantics', () => {
  it('creates once (409 AlreadyExists after), reads back with resourceVersion = mod revision', async () => {
    const created = await store.create(cm('a', { k: 'v' }));
    expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(await codeOf(store.create(cm('a')))).toBe(409);
    const got = await store.get('default', 'a');
    expect(got.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(got.data).toEqual({ k: 'v' });
    const raw = await storage.client.getKey('/registry/configmaps/default/a', 'test');
    expect(JSON.parse(raw!.value.toString()).metadata.resourceVersion).toBeUndefined();
    expect(await codeOf(store.get('default', 'missing'))).toBe(404);
  });

  it('lets exactly one of many concurrent conditional updates win; the rest get 409', async () => {
    const base = await store.create(cm('race'));
    const rv = base.metadata.resourceVersion;
    const attempts = Array.from({ length: 12 }, (_, i) =>
      store.guaranteedUpdate('default', 'race', (cur) => {
        if (cur!.metadata.resourceVersion !== rv) throw Errors.modified(gr, 'race');
        return { ...cur!, data: { writer: String(i) } };
      }),
    );
    const results = await Promise.allSettled(attempts);
    const wins = results.filter((r) => r.status === 'fulfilled');
    const conflicts = results.filter((r) => r.status === 'rejected' && isStatusError(r.reason) && r.reason.code === 409);
    expect(wins).toHaveLength(1);
    expect(conflicts).toHaveLength(11);
  });

  it('retries a guaranteed update on conflict so every unconditional increment lands', async () => {
    await store.create(cm('counter', { n: '0' }));
    await Promise.all(Array.from({ length: 10 }, () => store.guaranteedUpdate('default', 'counter', (cur) => ({ ...cur!, data: { n: String(Number((cur!.data as Record<string, string>).n) + 1) } }))));
    expect((await store.get('default', 'counter')).data).toEqual({ n: '10' });
  });

  it('does not bump resourceVersion nor emit an event for a no-op update', async () => {
    const c = await store.create(cm('noop', { a: '1' }));
    const ch = await store.watch('default', { resourceVersion: c.metadata.resourceVersion });
    const res = await store.guaranteedUpdate('default', 'noop', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, resourceVersion: undefined } }));
    expect(res.changed).toBe(false);
    expect(res.object.metadata.resourceVersion).toBe(c.metadata.resourceVersion);
    await store.guaranteedUpdate('default', 'noop', (cur) => ({ ...cur!, data: { a: '2' } }));
    const events = await take(ch, 2, 1500);
    ch.close();
    expect(events.map((e) => e.type)).toEqual(['MODIFIED']);
  });

  it('deletes with uid and resourceVersion preconditions', async () => {
    const c = await store.create({ ...cm('pre'), metadata: { name: 'pre', namespace: 'default', uid: 'u1' } });
    expect(await codeOf(store.delete('default', 'pre', { preconditions: { uid: 'other' } }))).toBe(409);
    expect(await codeOf(store.delete('default', 'pre', { preconditions: { resourceVersion: '1' } }))).toBe(409);
    const deleted = await store.delete('default', 'pre', { preconditions: { uid: 'u1', resourceVersion: c.metadata.resourceVersion } });
    expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(Number(c.metadata.resourceVersion));
    expect(await codeOf(store.get('default', 'pre'))).toBe(404);
  });

  it('pages a list with limit/continue at one revision, with remainingItemCount', async () => {
    for (let i = 0; i < 7; i++) await store.create(cm(`page-${i}`, {}, 'paging'));
    const first = await store.list('paging', { limit: 3 });
    expect(first.items.map((o) => o.metadata.name)).toEqual(['page-0', 'page-1', 'page-2']);
    expect(first.remainingItemCount).toBe(4);
    await store.create(cm('page-9', {}, 'paging'));
    const second = await store.list('paging', { limit: 3, continue: first.continue });
    expect(second.resourceVersion).toBe(first.resourceVersion);
    const third = await store.list('paging', { limit: 3, continue: second.continue });
    expect([...second.items, ...third.items].map((o) => o.metadata.name)).toEqual(['page-3', 'page-4', 'page-5', 'page-6']);
    expect(third.continue).toBeUndefined();
    const fresh = await store.list('paging', {});
    expect(fresh.items).toHaveLength(8);
    expect(await codeOf(store.list('paging', { limit: 3, continue: first.continue, resourceVersion: '5' }))).toBe(400);
  });

  it('fills pages of filtered lists up to limit', async () => {
    for (let i = 0; i < 6; i++) await store.create({ ...cm(`f-${i}`, {}, 'filter'), metadata: { name: `f-${i}`, namespace: 'filter', labels: { even: String(i % 2 === 0) } } });
    const page = await store.list('filter', { limit: 2, predicate: (o) => o.metadata.labels?.even === 'true' });
    expect(page.items.map((o) => o.metadata.name)).toEqual(['f-0', 'f-2']);
    const rest = await store.list('filter', { limit: 2, continue: page.continue, predicate: (o) => o.metadata.labels?.even === 'true' });
    expect(rest.items.map((o) => o.metadata.name)).toEqual(['f-4']);
  });

  it('serves consistent reads from the watch cache right after a write', async () => {
    for (let i = 0; i < 20; i++) {
      const c = await store.create(cm(`fresh-${i}`, {}, 'fresh'));
      const list = await store.list('fresh', {});
      expect(list.items).toHaveLength(i + 1);
      expect(Number(list.resourceVersion)).toBeGreaterThanOrEqual(Number(c.metadata.resourceVersion));
    }
  });

  it('watches from a resourceVersion in order, and answers 410 for one older than the window', async () => {
    const start = await store.create(cm('w0', {}, 'watch'));
    const ch = await store.watch('watch', { resourceVersion: start.metadata.resourceVersion });
    await store.create(cm('w1', {}, 'watch'));
    await store.guaranteedUpdate('watch', 'w1', (cur) => ({ ...cur!, data: { x: 'y' } }));
    await store.delete('watch', 'w1');
    const events = await take(ch, 3);
    ch.close();
    expect(events.map((e) => `${e.type}:${e.object.metadata.name}`)).toEqual(['ADDED:w1', 'MODIFIED:w1', 'DELETED:w1']);
    const revs = events.map((e) => e.revision);
    expect([...revs].sort((a, b) => a - b)).toEqual(revs);
    for (let i = 0; i < 80; i++) await store.create(cm(`churn-${i}`, {}, 'churn'));
    expect(await codeOf(store.watch('watch', { resourceVersion: start.metadata.resourceVersion }))).toBe(410);
  });

  it('answers 410 Expired for a continue token once etcd compacted its revision, and a fresh list works', async () => {
    for (let i = 0; i < 4; i++) await store.create(cm(`c-${i}`, {}, 'compact'));
    const first = await store.list('compact', { limit: 2 });
    await store.create(cm('c-after', {}, 'compact'));
    await storage.client.compact(await storage.client.currentRevision());
    const err = await store.list('compact', { limit: 2, continue: first.continue }).catch((e: unknown) => e);
    expect(isStatusError(err) && err.status.reason).toBe('Expired');
    expect((await store.list('compact', {})).items).toHaveLength(5);
  });

  it('keeps every acknowledged write across an etcd crash, each object whole', async () => {
    const acked: string[] = [];
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop && i < 400; i++) {
        try {
          await store.create(cm(`crash-${i}`, { payload: 'x'.repeat(2000) }, 'crash'));
          acked.push(`crash-${i}`);
        } catch {
          // unacknowledged: may or may not exist
        }
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    await etcd.kill();
    await new Promise((r) => setTimeout(r, 200));
    stop = true;
    await writer;
    await etcd.restart();
    const client = new EtcdClient({ endpoints: [etcd.endpoint] });
    try {
      const res = await client.rangePrefix('/registry/configmaps/crash/', {}, 'test');
      const stored = new Set(res.kvs.map((kv) => JSON.parse(kv.value.toString()).metadata.name as string));
      for (const kv of res.kvs) expect(JSON.parse(kv.value.toString()).data.payload).toHaveLength(2000);
      expect(acked.length).toBeGreaterThan(0);
      for (const name of acked) expect(stored.has(name)).toBe(true);
    } finally {
      client.close();
    }
  });
});

describe('RevisionWatcher', () => {
  it('resumes without gaps or duplicates when the etcd connection drops during catch-up', async () => {
    const client = new EtcdClient({ endpoints: [etcd.endpoint] });
    const prefix = '/registry/resume-test/';
    const first = (await client.currentRevision()) + 1;
    const total = 1500;
    const big = Buffer.alloc(8_000, 'v');
    for (let i = 0; i < total; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => client.raw.put(`${prefix}${String(i + j).padStart(5, '0')}`).value(big).exec()));
    }
    const seen: RawWatchEvent[] = [];
    let restarted = false;
    let restart: Promise<void> | undefined;
    const watcher = new RevisionWatcher(client, prefix, first, {
      onEvents: (events) => {
        seen.push(...events);
        if (!restarted) {
          restarted = true;
          restart = etcd.kill().then(() => etcd.restart());
        }
      },
      onError: (err) => {
        throw err;
      },
    });
    watcher.start();
    const deadline = Date.now() + 45_000;
    while (seen.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await restart;
    await new Promise((r) => setTimeout(r, 300));
    await watcher.stop();
    client.close();
    expect(restarted).toBe(true);
    const revisions = seen.map((e) => e.modRevision);
    expect(new Set(revisions).size).toBe(revisions.length);
    expect(seen).toHaveLength(total);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
  }, 90_000);
});
