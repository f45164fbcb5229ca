/**
 * `KUBE_KMS_PLUGIN=true npm start`: the stack runs scripts/kms-plugin.ts beside it (key file made once beside the
 * PKI, owner-only) and core-api stores Secrets through KMS v2 (`k8s:enc:kms:v2:npm-start:`), the default aescbc key
 * listed second, so that a Secret stored before with it stays readable.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdClientPaths, pkiPaths } from '@kube/pki';
import { EtcdClient } from '@kube/storage';
import { tempDir } from '@kube/testing';
import { kubectlSession } from '@test/support';
import { childPids, processName } from '../../bench/soak.sampler';
import { launchStack, type LaunchedStack } from '../../bench/soak.stack';
import { ETCD_ROOT_CLIENT } from '../../scripts/etcd-access';

describe('KUBE_KMS_PLUGIN=true npm start encrypts Secrets through KMS v2', () => {
  const dir = tempDir('start-kms');
  const local = join(dir, 'local');
  let stack: LaunchedStack;
  let etcd: EtcdClient;
  const kubectl = kubectlSession('1.33', () => join(local, 'kubeconfig'));
  const kubectl127 = kubectlSession('1.27', () => join(local, 'kubeconfig'));

  const pidOf = (name: string): number | undefined =>
    childPids(stack.launcherPid).find((p) => {
      try {
        return processName(p) === name;
      } catch {
        return false;
      }
    });
  const environOf = (name: string): Record<string, string> => {
    const pid = pidOf(name);
    if (!pid) throw new Error(`no ${name} process`);
    return Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((e) => e.startsWith('KUBE_')).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  };

  beforeAll(async () => {
    const previous = process.env.KUBE_KMS_PLUGIN;
    process.env.KUBE_KMS_PLUGIN = 'true';
    try {
      stack = await launchStack(local, join(dir, 'stack.log'));
    } finally {
      if (previous === undefined) delete process.env.KUBE_KMS_PLUGIN;
      else process.env.KUBE_KMS_PLUGIN = previous;
    }
    const pki = pkiPaths(join(local, 'pki'));
    const root = etcdClientPaths(pki, ETCD_ROOT_CLIENT);
    etcd = new EtcdClient({ endpoints: [environOf('core-api').KUBE_ETCD_ENDPOINTS], tls: { caPem: readFileSync(pki.etcdCaCert, 'utf8'), certPem: readFileSync(root.cert, 'utf8'), keyPem: readFileSync(root.key, 'utf8') } });
  }, 300_000);

  afterAll(async () => {
    etcd?.close();
    await stack?.stop();
  }, 120_000);

  it('runs the plugin with an owner-only key file and hands core-api alone the KMS configuration', () => {
    const pkiDir = join(local, 'pki');
    for (const file of ['kms-keys', 'encryption-config-kms.yaml']) expect(statSync(join(pkiDir, file)).mode & 0o777, file).toBe(0o600);
    expect(readFileSync(join(pkiDir, 'encryption-config-kms.yaml'), 'utf8')).toMatch(/kms:[\s\S]*apiVersion: v2[\s\S]*name: npm-start[\s\S]*aescbc:[\s\S]*identity: \{\}/);
    expect(environOf('core-api').KUBE_ENCRYPTION_PROVIDER_CONFIG).toBe(join(pkiDir, 'encryption-config-kms.yaml'));
    expect(environOf('extensions').KUBE_ENCRYPTION_PROVIDER_CONFIG).toBeUndefined();
    const plugin = childPids(stack.launcherPid).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('dist/scripts/kms-plugin.js');
      } catch {
        return false;
      }
    });
    expect(plugin).toHaveLength(1);
  });

  it('stores a Secret as k8s:enc:kms:v2:npm-start: without its plaintext, read back by kubectl 1.33 and 1.27', async () => {
    await kubectl.ok(['create', 'secret', 'generic', 'through-kms', '--from-literal=password=plaintext-to-hide']);
    const value = (await etcd.getKey('/registry/secrets/default/through-kms', 'test'))!.value;
    expect(value.subarray(0, 25).toString()).toBe('k8s:enc:kms:v2:npm-start:');
    expect(value.includes(Buffer.from(Buffer.from('plaintext-to-hide').toString('base64')))).toBe(false);
    for (const k of [kubectl, kubectl127]) expect(Buffer.from(await k.ok(['get', 'secret', 'through-kms', '-o', 'jsonpath={.data.password}']), 'base64').toString()).toBe('plaintext-to-hide');
  }, 120_000);
});
