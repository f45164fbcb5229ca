/**
 * A resource's storage released while requests on it are still being set up (a CRD deleted, and at once
 * re-created, while a client opens a watch on its resources): kube destroys the old storage and ends its
 * watches; in-flight reads finish against etcd. Nothing may hang on the stopped cache in silence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { Storage } from './storage';
import type { StorageEvent } from './storage.interface';
import type { WatchChannel } from './watch.channel';

let etcd: EtcdProcess;
let storage: Storage;
const PREFIX = 'release.example.com/widgets';
const gr = { group: 'release.example.com', resource: 'widgets' };

function widget(name: string, namespace = 'ns'): KubeObject {
  return { apiVersion: 'release.example.com/v1', kind: 'Widget', metadata: { name, namespace }, spec: {} };
}

/** Every event until the channel ends, or 'open' if it is still open after `ms`. */
async function drain(ch: WatchChannel<StorageEvent>, ms: number): Promise<StorageEvent[] | 'open'> {
  const events: StorageEvent[] = [];
  const ended = (async () => {
    for (let next = await ch.next(); !next.done; next = await ch.next()) events.push(next.value);
    return events;
  })();
  return Promise.race([ended, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))]);
}

beforeAll(async () => {
  etcd = await startEtcd();
  storage = new Storage({ endpoints: [etcd.endpoint] });
});

afterAll(async () => {
  await storage?.close();
  await etcd?.stop();
});

describe('Storage.release with requests in flight', () => {
  it('ends a watch that was being set up when the storage was released, and the re-created resource serves its new objects', async () => {
    const old = storage.resource(gr, PREFIX);
    await old.start();
    await old.create(widget('before'));
    // The watch waits for the cache to be proven fresh (a round trip to etcd) while the CRD goes away.
    const opening = old.watch('ns', {});
    storage.release(PREFIX);
    const stale = await opening;

    // The same resource served again (the CRD re-created): its watch sees what is created now.
    const renewed = storage.resource(gr, PREFIX);
    expect(renewed).not.toBe(old);
    const watch = await renewed.watch('ns', {});
    await renewed.create(widget('after'));
    const seen: string[] = [];
    for (let next = await watch.next(); !next.done; next = await watch.next()) {
      if (next.value.type === 'ADDED') seen.push(next.value.object.metadata.name as string);
      if (seen.includes('after')) break;
    }
    watch.close();
    expect(seen).toEqual(['before', 'after']);

    // The watch opened on the released storage ended (its client re-watches and finds the resource as it is
    // now), instead of waiting on a cache that nothing feeds any more.
    const events = await drain(stale, 5_000);
    expect(events, 'the watch opened on the released storage is still open and gets nothing').not.toBe('open');
    storage.release(PREFIX);
  });

  it('answers reads in flight when the storage was released from etcd, not from the emptied cache', async () => {
    const store = storage.resource(gr, PREFIX);
    await store.start();
    await store.create(widget('kept', 'reads'));
    // The cache holds it: a consistent read is then answered from memory.
    await store.list('reads');
    const listing = store.list('reads');
    const getting = store.tryGet('reads', 'kept');
    storage.release(PREFIX);
    expect((await listing).items.map((o) => o.metadata.name)).toEqual(['kept']);
    expect((await getting)?.metadata.name).toBe('kept');
  });
});
