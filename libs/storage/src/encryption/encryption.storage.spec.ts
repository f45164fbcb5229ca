import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { Storage } from '../storage';
import { statusOf, take } from '../storage.testing';
import { EncryptionConfig } from './encryption.config';
import { EncryptionConfigSource } from './encryption.source';

let etcd: EtcdProcess;
const storages: Storage[] = [];
const secrets = { group: '', resource: 'secrets' };
const configmaps = { group: '', resource: 'configmaps' };
const KEY1 = Buffer.alloc(32, 1).toString('base64');
const KEY2 = Buffer.alloc(32, 2).toString('base64');

function encryption(providers: unknown[]): EncryptionConfigSource {
  return EncryptionConfigSource.of(EncryptionConfig.from({ kind: 'EncryptionConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', resources: [{ resources: ['secrets'], providers }] }));
}

function storage(source?: EncryptionConfigSource, watchCache = true): Storage {
  const s = new Storage({ endpoints: [etcd.endpoint], encryption: source, watchCache });
  storages.push(s);
  return s;
}

function secret(name: string, value: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default', uid: `uid-${name}` }, data: { k: Buffer.from(value).toString('base64') } } as KubeObject;
}

const raw = async (s: Storage, key: string): Promise<Buffer> => (await s.client.getKey(key, 'test'))!.value;

beforeAll(async () => {
  etcd = await startEtcd();
});

afterAll(async () => {
  for (const s of storages) await s.close();
  await etcd?.stop();
});

describe('Storage with encryption at rest', () => {
  it('encrypts the resources the configuration names, with kube prefix, and leaves the others plain', async () => {
    const s = storage(encryption([{ aescbc: { keys: [{ name: 'key1', secret: KEY1 }] } }]));
    const store = s.resource(secrets, 'secrets');
    await store.create(secret('s1', 'top-secret-1'));
    const value = await raw(s, '/registry/secrets/default/s1');
    expect(value.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');
    expect(value.includes(Buffer.from(Buffer.from('top-secret-1').toString('base64')))).toBe(false);
    expect((await store.get('default', 's1')).data).toEqual({ k: Buffer.from('top-secret-1').toString('base64') });
    expect((await store.get('default', 's1', { resourceVersion: '0' })).metadata.name).toBe('s1');
    expect((await store.list('default', { limit: 1 })).items.map((o) => o.metadata.name)).toEqual(['s1']);

    await s.resource(configmaps, 'configmaps').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace: 'default' }, data: { a: 'b' } } as KubeObject);
    expect(JSON.parse((await raw(s, '/registry/configmaps/default/c1')).toString()).data).toEqual({ a: 'b' });
  });

  it('decrypts a value once per write: GETs from the watch cache do not decrypt', async () => {
    const source = encryption([{ aesgcm: { keys: [{ name: 'g', secret: KEY1 }] } }, { aescbc: { keys: [{ name: 'key1', secret: KEY1 }] } }]);
    const t = source.transformerFor(secrets)!;
    const s = storage(source);
    const store = s.resource(secrets, 'secrets');
    await store.start();
    const spy = vi.spyOn(t, 'fromStorage');
    const created = await store.create(secret('s2', 'two'));
    const watch = await store.watch('default', { resourceVersion: created.metadata.resourceVersion });
    for (let i = 0; i < 5; i++) expect((await store.get('default', 's2', { resourceVersion: created.metadata.resourceVersion })).metadata.name).toBe('s2');
    watch.close();
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('a server without the key answers 500 for that Secret, keeps serving the others, and loses nothing', async () => {
    const writer = storage(encryption([{ aescbc: { keys: [{ name: 'key1', secret: KEY1 }] } }]));
    await writer.resource(secrets, 'secrets').create(secret('s3', 'three'));
    const plainKey = Buffer.from('/registry/secrets/other/plain');
    await writer.client.txn({ compare: [], success: [{ request_put: { key: plainKey, value: Buffer.from(JSON.stringify(secret('plain', 'p'))) } }], failure: [] }, 'test', 'create');
    for (const [watchCache, source] of [[true, encryption([{ identity: {} }])], [false, encryption([{ identity: {} }])], [true, undefined]] as const) {
      const keyless = storage(source, watchCache);
      const store = keyless.resource(secrets, 'secrets');
      const status = await statusOf(store.get('default', 's3'));
      expect(status).toMatchObject({ code: 500, reason: 'InternalError' });
      if (source) expect(status.message).toBe('Internal error occurred: no matching prefix found');
      expect((await store.get('other', 'plain')).metadata.name).toBe('plain');
      expect((await statusOf(store.list('default'))).code).toBe(500);
      // An event it cannot read does not stop its cache.
      await writer.resource(secrets, 'secrets').guaranteedUpdate('default', 's3', (o) => ({ ...o!, data: { k: 'eA==' } }));
      expect((await store.get('other', 'plain')).metadata.name).toBe('plain');
    }
    expect((await writer.resource(secrets, 'secrets').get('default', 's3')).data).toEqual({ k: 'eA==' });
  });

  it("rotation: a value read with an older key is stale, so an update with unchanged content rewrites it with the first key", async () => {
    const old = storage(encryption([{ aescbc: { keys: [{ name: 'key1', secret: KEY1 }] } }]), false);
    await old.resource(secrets, 'secrets').create(secret('s4', 'four'));
    const rotated = storage(encryption([{ aescbc: { keys: [{ name: 'key2', secret: KEY2 }, { name: 'key1', secret: KEY1 }] } }]), false);
    const store = rotated.resource(secrets, 'secrets');
    const res = await store.guaranteedUpdate('default', 's4', (o) => o!);
    expect(res.changed).toBe(true);
    expect((await raw(rotated, '/registry/secrets/default/s4')).subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key2:');
    // Fresh from the new key: the same content again is a no-op.
    expect((await store.guaranteedUpdate('default', 's4', (o) => o!)).changed).toBe(false);
    const onlyNew = storage(encryption([{ aescbc: { keys: [{ name: 'key2', secret: KEY2 }] } }]), false);
    expect((await onlyNew.resource(secrets, 'secrets').get('default', 's4')).data).toEqual({ k: Buffer.from('four').toString('base64') });
  });

  it('an etcd watch without the cache decrypts its events', async () => {
    const s = storage(encryption([{ secretbox: { keys: [{ name: 'sb', secret: KEY2 }] } }]), false);
    const store = s.resource(secrets, 'secrets');
    const w = await store.watch('watched', { resourceVersion: String(await s.client.currentRevision()) });
    await store.create({ ...secret('s5', 'five'), metadata: { name: 's5', namespace: 'watched' } });
    const [ev] = await take(w, 1);
    w.close();
    expect(ev).toMatchObject({ type: 'ADDED', object: { metadata: { name: 's5' } } });
  });
});
