/**
 * Encryption at rest (issue 27, item 1) through the real kubectl: a stack started with kube's
 * EncryptionConfiguration (aescbc) stores Secrets as `k8s:enc:aescbc:v1:<key>:` + ciphertext, reads them back,
 * rotates keys as kube documents it (add a key, reload, `kubectl get secrets -A -o json | kubectl replace -f -`,
 * drop the old key), and a server without the key answers kube's InternalError for that Secret while serving others.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { EncryptionConfig, EncryptionConfigSource, EtcdClient, Storage } from '@kube/storage';
import { parse } from 'yaml';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

const KEY1 = Buffer.alloc(32, 0x11).toString('base64');
const KEY2 = Buffer.alloc(32, 0x22).toString('base64');
const PLAINTEXT = 'correct-horse-battery-staple';

function configYaml(keys: Array<[string, string]>, identityOnly = false): string {
  const providers = identityOnly ? '      - identity: {}\n' : `      - aescbc:\n          keys:\n${keys.map(([n, s]) => `            - name: ${n}\n              secret: ${s}\n`).join('')}      - identity: {}\n`;
  return `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources:\n      - secrets\n    providers:\n${providers}`;
}

const dir = tempDir('encryption-at-rest');
const configPath = join(dir, 'encryption-config.yaml');
let stack: StackHarness;
let source: EncryptionConfigSource;
let etcd: EtcdClient;
const kubectl = kubectlSession(undefined, () => stack.kubeconfig);
const kubectl127 = kubectlSession('1.27', () => stack.kubeconfig);

const raw = async (key: string): Promise<Buffer> => (await etcd.getKey(key, 'test'))!.value;
/** The key name the stack's servers currently write Secrets with (the file is re-read by their automatic reload). */
const writingKey = (): string => source.transformerFor({ group: '', resource: 'secrets' })!.toStorage(Buffer.from('{}'), '/registry/secrets/x/y').subarray(0, 23).toString();

beforeAll(async () => {
  writeFileSync(configPath, configYaml([['key1', KEY1]]), { mode: 0o600 });
  source = EncryptionConfigSource.fromFile(configPath, { automaticReload: true, reloadIntervalMs: 100 });
  stack = await startStack({ encryption: source, controllerManager: false });
  etcd = new EtcdClient({ endpoints: [stack.etcd.endpoint] });
}, 120_000);

afterAll(async () => {
  source?.stop();
  etcd?.close();
  await stack?.stop();
});

describe('encryption at rest (aescbc) with kubectl', () => {
  it('kubectl create secret generic stores kube prefix and ciphertext; kubectl get reads it back', async () => {
    await kubectl.ok(['create', 'secret', 'generic', 's1', '-n', 'default', `--from-literal=password=${PLAINTEXT}`]);
    const value = await raw('/registry/secrets/default/s1');
    expect(value.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');
    expect(value.includes(Buffer.from(PLAINTEXT))).toBe(false);
    expect(value.includes(Buffer.from(Buffer.from(PLAINTEXT).toString('base64')))).toBe(false);
    for (const k of [kubectl, kubectl127]) {
      expect(Buffer.from(await k.ok(['get', 'secret', 's1', '-n', 'default', '-o', 'jsonpath={.data.password}']), 'base64').toString()).toBe(PLAINTEXT);
    }
  });

  it("rotates as kube documents it: add a key, reload, replace every Secret, drop the old key", async () => {
    await kubectl.ok(['create', 'namespace', 'rotation']);
    await kubectl.ok(['create', 'secret', 'generic', 's2', '-n', 'rotation', '--from-literal=a=b']);
    writeFileSync(configPath, configYaml([['key2', KEY2], ['key1', KEY1]]));
    expect(await until(async () => writingKey() === 'k8s:enc:aescbc:v1:key2:', 10_000)).toBe(true);
    const all = await kubectl.ok(['get', 'secrets', '-A', '-o', 'json']);
    await kubectl.ok(['replace', '-f', '-'], all);
    for (const key of ['/registry/secrets/default/s1', '/registry/secrets/rotation/s2']) expect((await raw(key)).subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key2:');
    writeFileSync(configPath, configYaml([['key2', KEY2]]));
    expect(await until(async () => !readableWith(KEY1), 10_000)).toBe(true);
    expect(Buffer.from(await kubectl.ok(['get', 'secret', 's1', '-n', 'default', '-o', 'jsonpath={.data.password}']), 'base64').toString()).toBe(PLAINTEXT);
    // From etcd, not from the watch cache: what the key now on disk decrypts.
    const fresh = new Storage({ endpoints: [stack.etcd.endpoint], encryption: source, watchCache: false });
    try {
      expect((await fresh.resource({ group: '', resource: 'secrets' }, 'secrets').get('default', 's1')).metadata.name).toBe('s1');
    } finally {
      await fresh.close();
    }
  });

  it('a server without the key answers an InternalError Status for that Secret and keeps serving others', async () => {
    const keylessPath = join(dir, 'keyless.yaml');
    writeFileSync(keylessPath, configYaml([], true));
    const keyless = await startStack({ etcd: stack.etcd, encryption: EncryptionConfigSource.fromFile(keylessPath), controllerManager: false });
    try {
      const k = kubectlSession(undefined, () => keyless.kubeconfig);
      await k.ok(['create', 'secret', 'generic', 'plain', '-n', 'default', '--from-literal=x=y']);
      const r = await k.k(['get', 'secret', 's1', '-n', 'default', '-o', 'json']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('Error from server (InternalError): Internal error occurred: no matching prefix found');
      const status = await keyless.request('GET', '/api/v1/namespaces/default/secrets/s1');
      expect(status.status).toBe(500);
      expect(JSON.parse(status.body)).toMatchObject({ kind: 'Status', code: 500, reason: 'InternalError', message: 'Internal error occurred: no matching prefix found' });
      expect(await k.ok(['get', 'secret', 'plain', '-n', 'default', '-o', 'jsonpath={.data.x}'])).toBe(Buffer.from('y').toString('base64'));
      // Nothing lost: the server with the key still reads it.
      expect(Buffer.from(await kubectl.ok(['get', 'secret', 's1', '-n', 'default', '-o', 'jsonpath={.data.password}']), 'base64').toString()).toBe(PLAINTEXT);
    } finally {
      await keyless.stop();
    }
  }, 120_000);
});

function readableWith(secret: string): boolean {
  try {
    const old = EncryptionConfig.from(parse(configYaml([['key1', secret]])));
    const stored = old.transformerFor({ group: '', resource: 'secrets' })!.toStorage(Buffer.from('{}'), '/k');
    source.transformerFor({ group: '', resource: 'secrets' })!.fromStorage(stored, '/k');
    return true;
  } catch {
    return false;
  }
}
