import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Errors, isStatusError, type KubeObject } from '@kube/apimachinery';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { EtcdClient } from './etcd.client';
import { EtcdStorage } from './etcd.storage';
import { resourcePrefix } from './keys';
import { LeaseManager } from './lease.manager';
import { statusOf, take } from './storage.testing';

let etcd: EtcdProcess;
let client: EtcdClient;
let store: EtcdStorage;
const gr = { group: 'example.com', resource: 'widgets' };

function widget(name: string, ns: string, spec: Record<string, string> = {}, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: ns, uid: `uid-${name}`, labels }, spec };
}

beforeAll(async () => {
  etcd = await startEtcd();
  client = new EtcdClient({ endpoints: [etcd.endpoint] });
  store = new EtcdStorage(gr, resourcePrefix('example.com/widgets'), client, new LeaseManager(client));
});

afterAll(async () => {
  client?.close();
  await etcd?.stop();
});

describe('EtcdStorage (kube etcd3 store semantics)', () => {
  it('stores under kube key layout without resourceVersion; resourceVersion is the mod revision', async () => {
    const created = await store.create(widget('a', 'ns1', { size: 's' }));
    const kv = await client.getKey('/registry/example.com/widgets/ns1/a', 'test');
    expect(kv && Number(kv.mod_revision)).toBe(Number(created.metadata.resourceVersion));
    expect(JSON.parse(kv!.value.toString()).metadata.resourceVersion).toBeUndefined();
    expect((await statusOf(store.create(widget('a', 'ns1')))).reason).toBe('AlreadyExists');
    expect(await store.tryGet('ns1', 'missing')).toBeUndefined();
    expect((await statusOf(store.get('ns1', 'missing'))).code).toBe(404);
  });

  it('checks update preconditions before calling tryUpdate, with kube texts', async () => {
    const c = await store.create(widget('pre', 'ns1'));
    let calls = 0;
    const tryUpdate = (cur: KubeObject | undefined): KubeObject => (calls++, { ...(cur as KubeObject), spec: { size: 'l' } });
    const uid = await statusOf(store.guaranteedUpdate('ns1', 'pre', tryUpdate, { preconditions: { uid: 'other' } }));
    expect(uid).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(uid.message).toContain('Precondition failed: UID in precondition: other, UID in object meta: uid-pre');
    const rv = await statusOf(store.guaranteedUpdate('ns1', 'pre', tryUpdate, { preconditions: { resourceVersion: '1' } }));
    expect(rv.message).toContain(`Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${c.metadata.resourceVersion}`);
    expect(calls).toBe(0);
    const ok = await store.guaranteedUpdate('ns1', 'pre', tryUpdate, { preconditions: { uid: 'uid-pre', resourceVersion: c.metadata.resourceVersion } });
    expect(ok).toMatchObject({ changed: true, created: false, object: { spec: { size: 'l' } } });
    expect(calls).toBe(1);
  });

  it('runs tryUpdate again on the winner of a race, and writes nothing for a no-op', async () => {
    await store.create(widget('race', 'ns1', { n: '0' }));
    const seen: string[] = [];
    const result = await store.guaranteedUpdate('ns1', 'race', async (cur) => {
      const obj = cur as KubeObject;
      seen.push((obj.spec as Record<string, string>).n);
      // Another writer gets in between our read and our write, once.
      if (seen.length === 1) await store.guaranteedUpdate('ns1', 'race', (c) => ({ ...(c as KubeObject), spec: { n: '1' } }));
      return { ...obj, spec: { n: String(Number((obj.spec as Record<string, string>).n) + 10) } };
    });
    expect(seen).toEqual(['0', '1']);
    expect(result.object.spec).toEqual({ n: '11' });
    const before = await client.currentRevision();
    const noop = await store.guaranteedUpdate('ns1', 'race', (cur) => ({ ...(cur as KubeObject) }));
    expect(noop).toMatchObject({ changed: false, object: { metadata: { resourceVersion: result.object.metadata.resourceVersion } } });
    expect(await client.currentRevision()).toBe(before);
  });

  it('creates through an update only with ignoreNotFound', async () => {
    expect((await statusOf(store.guaranteedUpdate('ns1', 'fresh', () => widget('fresh', 'ns1')))).code).toBe(404);
    const res = await store.guaranteedUpdate('ns1', 'fresh', (cur) => (expect(cur).toBeUndefined(), widget('fresh', 'ns1')), { ignoreNotFound: true });
    expect(res).toMatchObject({ created: true, changed: true });
    expect((await store.get('ns1', 'fresh')).metadata.resourceVersion).toBe(res.object.metadata.resourceVersion);
  });

  it('deletes after preconditions and validateDeletion, which may veto; dry run deletes nothing', async () => {
    await store.create(widget('del', 'ns1'));
    expect((await statusOf(store.delete('ns1', 'del', { preconditions: { uid: 'nope' } }))).code).toBe(409);
    let vetoed: KubeObject | undefined;
    const veto = await statusOf(
      store.delete('ns1', 'del', {
        validateDeletion: (obj) => {
          vetoed = obj;
          throw Errors.forbidden(gr, 'del', 'not now');
        },
      }),
    );
    expect(veto.code).toBe(403);
    expect(vetoed?.metadata.uid).toBe('uid-del');
    expect(await store.tryGet('ns1', 'del')).toBeDefined();
    const dry = await store.delete('ns1', 'del', { dryRun: true, validateDeletion: () => undefined });
    expect(dry.metadata.name).toBe('del');
    expect(await store.tryGet('ns1', 'del')).toBeDefined();
    const gone = await store.delete('ns1', 'del', { preconditions: { uid: 'uid-del' } });
    expect(Number(gone.metadata.resourceVersion)).toBeGreaterThan(Number(dry.metadata.resourceVersion));
    expect(await store.tryGet('ns1', 'del')).toBeUndefined();
  });

  it('pages at one revision with continue tokens; Exact reads the past; a future resourceVersion is 504', async () => {
    for (let i = 0; i < 5; i++) await store.create(widget(`p-${i}`, 'paging'));
    const first = await store.list('paging', { limit: 2 });
    expect(first.items.map((o) => o.metadata.name)).toEqual(['p-0', 'p-1']);
    expect(first.remainingItemCount).toBe(3);
    await store.delete('paging', 'p-3');
    const second = await store.list('paging', { limit: 2, continue: first.continue });
    expect(second.items.map((o) => o.metadata.name)).toEqual(['p-2', 'p-3']);
    expect(second.resourceVersion).toBe(first.resourceVersion);
    const past = await store.list('paging', { resourceVersion: first.resourceVersion, resourceVersionMatch: 'Exact' });
    expect(past.items).toHaveLength(5);
    expect((await store.list('paging', {})).items).toHaveLength(4);
    const future = String((await client.currentRevision()) + 100);
    expect((await statusOf(store.list('paging', { resourceVersion: future }))).message).toMatch(/^Timeout: Too large resource version: /);
    expect((await statusOf(store.get('paging', 'p-0', { resourceVersion: future }))).code).toBe(504);
    expect((await statusOf(store.list('paging', { resourceVersionMatch: 'Bogus', resourceVersion: '1' }))).code).toBe(400);
  });

  it('reads a past revision for a resourceVersion with a limit, and answers a compacted one with kube 410s', async () => {
    for (let i = 0; i < 3; i++) await store.create(widget(`c-${i}`, 'compacted'));
    const first = await store.list('compacted', { limit: 1 });
    // kube's legacy exact match: resourceVersion N (not 0) with a limit and no resourceVersionMatch reads revision N.
    await store.create(widget('c-3', 'compacted'));
    const legacy = await store.list('compacted', { resourceVersion: first.resourceVersion, limit: 10 });
    expect(legacy.resourceVersion).toBe(first.resourceVersion);
    expect(legacy.items.map((o) => o.metadata.name)).toEqual(['c-0', 'c-1', 'c-2']);
    await store.delete('compacted', 'c-1');
    await client.compact(await client.currentRevision());
    expect(await statusOf(store.list('compacted', { resourceVersion: first.resourceVersion, resourceVersionMatch: 'Exact' }))).toMatchObject({ code: 410, reason: 'Expired', message: 'The resourceVersion for the provided list is too old.' });
    expect(await statusOf(store.list('compacted', { resourceVersion: first.resourceVersion, limit: 1 }))).toMatchObject({ code: 410, message: 'The resourceVersion for the provided list is too old.' });
    // A continue token of a compacted revision: kube's 410 carries a token that goes on at the latest revision.
    const expired = await statusOf(store.list('compacted', { limit: 1, continue: first.continue }));
    expect(expired).toMatchObject({ code: 410, reason: 'Expired', message: expect.stringMatching(/^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response/) });
    const token = expired.metadata.continue as string;
    expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: -1, start: 'c-0\u0000' });
    const rest = await store.list('compacted', { limit: 1, continue: token });
    expect(rest.items.map((o) => o.metadata.name)).toEqual(['c-2']);
    expect(Number(rest.resourceVersion)).toBeGreaterThan(Number(first.resourceVersion));
    const last = await store.list('compacted', { limit: 1, continue: rest.continue });
    expect(last.items.map((o) => o.metadata.name)).toEqual(['c-3']);
    // etcd's own watch from a compacted revision ends with kube's interpretWatchError text.
    const watch = await store.watch('compacted', { resourceVersion: first.resourceVersion });
    expect(await take(watch, 10)).toEqual([]);
    expect(watch.error && isStatusError(watch.error) && watch.error.status, String(watch.error)).toMatchObject({ code: 410, reason: 'Expired', message: 'The resourceVersion for the provided watch is too old.' });
  });

  it('pages with one etcd range per page: remainingItemCount comes from that range, as in kube', async () => {
    for (let i = 0; i < 5; i++) await store.create(widget(`r-${i}`, 'one-range'));
    const range = vi.spyOn(client, 'range');
    try {
      const first = await store.list('one-range', { limit: 2 });
      const second = await store.list('one-range', { limit: 2, continue: first.continue });
      const last = await store.list('one-range', { limit: 2, continue: second.continue });
      expect([first, second, last].map((p) => p.items.map((o) => o.metadata.name))).toEqual([['r-0', 'r-1'], ['r-2', 'r-3'], ['r-4']]);
      expect([first.remainingItemCount, second.remainingItemCount, last.remainingItemCount]).toEqual([3, 1, undefined]);
      expect(last.continue).toBeUndefined();
      // Counting the prefix again per page made paging through N objects O(N²/limit) in etcd.
      expect(range).toHaveBeenCalledTimes(3);
    } finally {
      range.mockRestore();
    }
  });

  it('watches etcd directly: initial state, then changes, with the predicate applied to transitions', async () => {
    await store.create(widget('w-a', 'watch', {}, { team: 'x' }));
    await store.create(widget('w-b', 'watch', {}, { team: 'y' }));
    const ch = await store.watch('watch', { predicate: (o) => o.metadata.labels?.team === 'x' });
    const initial = await take(ch, 2);
    expect(initial.map((e) => `${e.type}:${e.object.metadata.name ?? ''}`)).toEqual(['ADDED:w-a', 'BOOKMARK:']);
    const at = ch.revision;
    expect(at).toBeGreaterThan(0);
    await store.guaranteedUpdate('watch', 'w-b', (c) => ({ ...(c as KubeObject), metadata: { ...(c as KubeObject).metadata, labels: { team: 'x' } } }));
    await store.guaranteedUpdate('watch', 'w-a', (c) => ({ ...(c as KubeObject), metadata: { ...(c as KubeObject).metadata, labels: { team: 'y' } } }));
    await store.guaranteedUpdate('watch', 'w-a', (c) => ({ ...(c as KubeObject), spec: { unseen: 'yes' } }));
    await store.delete('watch', 'w-b');
    const events = await take(ch, 3);
    ch.close();
    expect(events.map((e) => `${e.type}:${e.object.metadata.name ?? ''}`)).toEqual(['ADDED:w-b', 'DELETED:w-a', 'DELETED:w-b']);
    expect(ch.revision).toBeGreaterThan(at);
    const replay = await store.watch('watch', { resourceVersion: String(at) });
    const again = await take(replay, 4);
    replay.close();
    expect(again.map((e) => `${e.type}:${e.object.metadata.name ?? ''}`)).toEqual(['MODIFIED:w-b', 'MODIFIED:w-a', 'MODIFIED:w-a', 'DELETED:w-b']);
  });
});
