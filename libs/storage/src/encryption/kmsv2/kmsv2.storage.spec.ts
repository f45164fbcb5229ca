import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { startKmsPlugin, type KmsPlugin } from '../../../../../scripts/kms-plugin';
import { Storage } from '../../storage';
import { statusOf, take } from '../../storage.testing';
import { EncryptionConfig } from '../encryption.config';
import { EncryptionConfigSource } from '../encryption.source';
import { decodeEncryptedObject } from './encrypted.object';

let etcd: EtcdProcess;
const dir = mkdtempSync(join(tmpdir(), 'kmsv2-storage-'));
const socket = join(dir, 'kms.sock');
const keyFile = join(dir, 'keys');
const storages: Storage[] = [];
let plugin: KmsPlugin | undefined;
const secrets = { group: '', resource: 'secrets' };
const FAST = { pollMs: 100, retryMs: 100, writeTtlMs: 180_000, healthyTtlMs: 0, unhealthyTtlMs: 0 };

function kms(name: string, timeout = '3s'): EncryptionConfigSource {
  const config = EncryptionConfig.from(
    { kind: 'EncryptionConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', resources: [{ resources: ['secrets'], providers: [{ kms: { apiVersion: 'v2', name, endpoint: `unix://${socket}`, timeout } }, { identity: {} }] }] },
    'test',
    { kmsTimings: FAST },
  );
  return EncryptionConfigSource.of(config);
}

async function storage(source: EncryptionConfigSource, watchCache = true): Promise<Storage> {
  await source.ready();
  const s = new Storage({ endpoints: [etcd.endpoint], encryption: source, watchCache });
  storages.push(s);
  return s;
}

const writeKeys = (...ids: string[]): void => writeFileSync(keyFile, ids.map((id) => `${id} ${Buffer.alloc(32, id.charCodeAt(id.length - 1)).toString('base64')}\n`).join(''));

function secret(name: string, value: string, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, uid: `uid-${name}` }, data: { k: Buffer.from(value).toString('base64') } } as KubeObject;
}

const raw = async (s: Storage, key: string): Promise<Buffer> => (await s.client.getKey(key, 'test'))!.value;

async function eventually(check: () => Promise<void>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

beforeAll(async () => {
  etcd = await startEtcd();
});

afterEach(async () => {
  for (const s of storages.splice(0)) await s.close();
  await plugin?.close();
  plugin = undefined;
});

afterAll(async () => {
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Storage with a KMS v2 provider', () => {
  it('stores k8s:enc:kms:v2:<name>: values and reads them through the watch cache with one decrypt per write and one Decrypt per DEK', async () => {
    writeKeys('key-1');
    plugin = await startKmsPlugin({ socket, keyFile });
    const writer = await storage(kms('one'));
    const created = await writer.resource(secrets, 'secrets').create(secret('s1', 'top-secret-1'));
    const value = await raw(writer, '/registry/secrets/default/s1');
    expect(value.subarray(0, 19).toString()).toBe('k8s:enc:kms:v2:one:');
    expect(value.includes(Buffer.from(Buffer.from('top-secret-1').toString('base64')))).toBe(false);
    expect(decodeEncryptedObject(value.subarray(19)).keyID).toBe('key-1');

    // Another server: its watch cache fetches the writer's DEK seed once, and decrypts each value once.
    const source = kms('one');
    const t = source.transformerFor(secrets)!;
    const reader = await storage(source);
    const store = reader.resource(secrets, 'secrets');
    await store.start();
    const spy = vi.spyOn(t, 'fromStorage');
    const decrypts = plugin.calls.decrypt;
    await writer.resource(secrets, 'secrets').create(secret('s2', 'two'));
    const w = await store.watch('default', { resourceVersion: created.metadata.resourceVersion });
    const [ev] = await take(w, 1);
    w.close();
    expect(ev).toMatchObject({ type: 'ADDED', object: { metadata: { name: 's2' } } });
    for (let i = 0; i < 5; i++) {
      expect((await store.get('default', 's1')).data).toEqual({ k: Buffer.from('top-secret-1').toString('base64') });
      expect((await store.get('default', 's2', { resourceVersion: '0' })).metadata.name).toBe('s2');
      expect((await store.list('default')).items).toHaveLength(2);
    }
    expect(spy).toHaveBeenCalledTimes(1);
    expect(plugin.calls.decrypt - decrypts).toBeLessThanOrEqual(1);
  });

  it('an etcd watch (no cache) waits for the DEK, in order, and decrypts its events', async () => {
    writeKeys('key-1');
    plugin = await startKmsPlugin({ socket, keyFile });
    const writer = await storage(kms('two'));
    const reader = await storage(kms('two'), false);
    const store = reader.resource(secrets, 'secrets');
    const w = await store.watch('watched', { resourceVersion: String(await reader.client.currentRevision()) });
    for (let i = 0; i < 3; i++) await writer.resource(secrets, 'secrets').create(secret(`w${i}`, `v${i}`, 'watched'));
    const events = await take(w, 3);
    w.close();
    expect(events.map((e) => (e.object as KubeObject).metadata.name)).toEqual(['w0', 'w1', 'w2']);
  });

  it('a server started with the plugin down answers 500 for Secrets, writes nothing, and serves them once the plugin is up', async () => {
    writeKeys('key-1');
    plugin = await startKmsPlugin({ socket, keyFile });
    const writer = await storage(kms('three'));
    await writer.resource(secrets, 'secrets').create(secret('kept', 'kept-value', 'three'));
    const before = await raw(writer, '/registry/secrets/three/kept');
    await plugin.close();
    plugin = undefined;

    const down = await storage(kms('three', '200ms'));
    const store = down.resource(secrets, 'secrets');
    await store.start();
    expect(await statusOf(store.get('three', 'kept'))).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: got unexpected nil transformer' });
    expect((await statusOf(store.list('three'))).code).toBe(500);
    expect(await statusOf(store.create(secret('new', 'x', 'three')))).toMatchObject({ code: 500, message: 'Internal error occurred: got unexpected nil transformer' });
    expect((await raw(writer, '/registry/secrets/three/kept')).equals(before)).toBe(true);
    expect(await writer.client.getKey('/registry/secrets/three/new', 'test')).toBeUndefined();

    plugin = await startKmsPlugin({ socket, keyFile });
    await eventually(async () => expect((await store.get('three', 'kept')).data).toEqual({ k: Buffer.from('kept-value').toString('base64') }));
    expect((await store.list('three')).items.map((o) => o.metadata.name)).toContain('kept');
    await store.create(secret('new', 'x', 'three'));
  });

  it('rotation: after the plugin reports a new key ID, an unchanged update rewrites a value under it', async () => {
    writeKeys('key-1');
    plugin = await startKmsPlugin({ socket, keyFile });
    const s = await storage(kms('four'), false);
    const store = s.resource(secrets, 'secrets');
    await store.create(secret('r1', 'rotate-me'));
    writeKeys('key-2', 'key-1');
    plugin.reload();
    await eventually(async () => {
      expect((await store.guaranteedUpdate('default', 'r1', (o) => o!)).changed).toBe(true);
      expect(decodeEncryptedObject((await raw(s, '/registry/secrets/default/r1')).subarray(20)).keyID).toBe('key-2');
    });
    expect((await store.guaranteedUpdate('default', 'r1', (o) => o!)).changed).toBe(false);
    expect((await store.get('default', 'r1')).data).toEqual({ k: Buffer.from('rotate-me').toString('base64') });
  });
});
