/**
 * `npm start` encrypts Secrets at rest by default (issue 27, item 1, beyond kube's default): it writes an
 * EncryptionConfiguration with a generated aescbc key beside the PKI (mode 0600, never rewritten) and hands it to
 * the control-plane servers only. A Secret stored before (plain JSON, as an older `npm start` left it) stays readable.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePki, etcdClientPaths, pkiPaths } from '@kube/pki';
import { EtcdClient } from '@kube/storage';
import { startEtcd, tempDir } from '@kube/testing';
import { kubectlSession } from '@test/support';
import { childPids, processName } from '../../bench/soak.sampler';
import { launchStack, type LaunchedStack } from '../../bench/soak.stack';
import { ETCD_ROOT_CLIENT } from '../../scripts/etcd-access';

describe('npm start encrypts Secrets at rest by default', () => {
  const dir = tempDir('start-encryption');
  const local = join(dir, 'local');
  let stack: LaunchedStack;
  let etcd: EtcdClient;
  const { ok } = kubectlSession(undefined, () => join(local, 'kubeconfig'));
  const configPath = join(local, 'pki', 'encryption-config.yaml');

  const environOf = (name: string): Record<string, string> => {
    const pid = childPids(stack.launcherPid).find((p) => {
      try {
        return processName(p) === name;
      } catch {
        return false;
      }
    });
    if (!pid) throw new Error(`no ${name} process`);
    return Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((e) => e.startsWith('KUBE_')).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  };

  beforeAll(async () => {
    // A Secret an older npm start stored in plain JSON.
    await ensurePki(join(local, 'pki'));
    const before = await startEtcd({ dataDir: join(local, 'etcd') });
    const plain = new EtcdClient({ endpoints: [before.endpoint] });
    const old = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'from-before', namespace: 'default', uid: 'b3c9a9e4-0000-4000-8000-000000000002', creationTimestamp: '2024-01-01T00:00:00Z' }, data: { kept: Buffer.from('yes').toString('base64') } };
    await plain.raw.put('/registry/secrets/default/from-before').value(JSON.stringify(old)).exec();
    plain.close();
    await before.stop();
    stack = await launchStack(local, join(dir, 'stack.log'));
    const pki = pkiPaths(join(local, 'pki'));
    const root = etcdClientPaths(pki, ETCD_ROOT_CLIENT);
    etcd = new EtcdClient({ endpoints: [environOf('core-api').KUBE_ETCD_ENDPOINTS], tls: { caPem: readFileSync(pki.etcdCaCert, 'utf8'), certPem: readFileSync(root.cert, 'utf8'), keyPem: readFileSync(root.key, 'utf8') } });
  }, 300_000);

  afterAll(async () => {
    etcd?.close();
    await stack?.stop();
  }, 120_000);

  it('generates the key beside the PKI, owner-only, and hands it to the control-plane servers only', () => {
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(configPath, 'utf8')).toMatch(/kind: EncryptionConfiguration[\s\S]*- secrets[\s\S]*aescbc:[\s\S]*name: key1[\s\S]*- identity: \{\}/);
    expect(environOf('core-api').KUBE_ENCRYPTION_PROVIDER_CONFIG).toBe(configPath);
    // Only the server that stores Secrets holds their key.
    for (const server of ['extensions', 'aggregator', 'sample-apiserver', 'counts-apiserver', 'controller-manager']) expect(environOf(server).KUBE_ENCRYPTION_PROVIDER_CONFIG, server).toBeUndefined();
    for (const server of ['sample-apiserver', 'counts-apiserver']) expect(environOf(server).KUBE_ENCRYPTION_PROVIDER_CONFIG, server).toBeUndefined();
  });

  it('stores a new Secret encrypted and still reads the one stored before', async () => {
    await ok(['create', 'secret', 'generic', 'encrypted', '--from-literal=password=plaintext-to-hide']);
    const value = (await etcd.getKey('/registry/secrets/default/encrypted', 'test'))!.value;
    expect(value.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');
    expect(value.includes(Buffer.from(Buffer.from('plaintext-to-hide').toString('base64')))).toBe(false);
    expect(Buffer.from(await ok(['get', 'secret', 'encrypted', '-o', 'jsonpath={.data.password}']), 'base64').toString()).toBe('plaintext-to-hide');
    expect(Buffer.from(await ok(['get', 'secret', 'from-before', '-o', 'jsonpath={.data.kept}']), 'base64').toString()).toBe('yes');
  }, 120_000);
});
