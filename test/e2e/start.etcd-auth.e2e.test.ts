/**
 * Issue 26 item 3 against `npm start` itself (the compiled launcher, on free ports in a directory of its own): etcd
 * listened on plain HTTP without client authentication, and every service (the aggregated servers included) was
 * handed that endpoint. The directory starts as an older `npm start` left it — etcd data written over plain HTTP, a
 * PKI without etcd certificates — and must come up with TLS, client certificates and etcd's RBAC, its data kept.
 * Then each service's etcd settings, read from the process's own environment, are tried as an attacker holding them.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePki } from '@kube/pki';
import { EtcdClient, type EtcdTls } from '@kube/storage';
import { startEtcd, tempDir } from '@kube/testing';
import { kubectlSession } from '@test/support';
import { childPids, processName } from '../../bench/soak.sampler';
import { launchStack, type LaunchedStack } from '../../bench/soak.stack';

describe('npm start runs etcd over TLS with client certificates and a role per API server', () => {
  const dir = tempDir('start-etcd-auth');
  const local = join(dir, 'local');
  let stack: LaunchedStack;
  const clients: EtcdClient[] = [];
  const { k, ok } = kubectlSession(undefined, () => join(local, 'kubeconfig'));

  /** The KUBE_* environment the launcher gave a running service. */
  const environOf = (name: string): Record<string, string> => {
    const pid = childPids(stack.launcherPid).find((p) => {
      try {
        return processName(p) === name;
      } catch {
        return false;
      }
    });
    if (!pid) throw new Error(`${name} is not a child of the launcher`);
    const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((e) => e.startsWith('KUBE_ETCD_'));
    return Object.fromEntries(pairs.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  };

  /** An etcd client made exactly as the service would make it from those settings. */
  const etcdAs = (name: string): EtcdClient => {
    const env = environOf(name);
    const file = (v: string | undefined): string | undefined => (v ? readFileSync(v, 'utf8') : undefined);
    const tls: EtcdTls | undefined = env.KUBE_ETCD_CAFILE || env.KUBE_ETCD_CERTFILE ? { caPem: file(env.KUBE_ETCD_CAFILE), certPem: file(env.KUBE_ETCD_CERTFILE), keyPem: file(env.KUBE_ETCD_KEYFILE) } : undefined;
    const client = new EtcdClient({ endpoints: env.KUBE_ETCD_ENDPOINTS.split(','), tls });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    // What an `npm start` from before this change left behind: plain etcd data, and a PKI with no etcd CA.
    const pki = await ensurePki(join(local, 'pki'));
    for (const file of readdirSync(pki.dir).filter((f) => f.startsWith('etcd-'))) rmSync(join(pki.dir, file));
    const before = await startEtcd({ dataDir: join(local, 'etcd') });
    const plain = new EtcdClient({ endpoints: [before.endpoint] });
    const kept = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-before', namespace: 'default', uid: 'b3c9a9e4-0000-4000-8000-000000000001', creationTimestamp: '2024-01-01T00:00:00Z' }, data: { kept: 'yes' } };
    await plain.raw.put('/registry/configmaps/default/from-before').value(JSON.stringify(kept)).exec();
    plain.close();
    await before.stop();
    stack = await launchStack(local, join(dir, 'stack.log'));
  }, 300_000);

  afterAll(async () => {
    clients.forEach((c) => c.close());
    await stack?.stop();
  }, 120_000);

  it('serves kubectl round trips with etcd authentication on, and keeps the data from before', async () => {
    await ok(['create', 'configmap', 'etcd-auth', '--from-literal=a=1']);
    expect((await ok(['get', 'configmap', 'etcd-auth', '-o', 'jsonpath={.data.a}'])).trim()).toBe('1');
    expect((await ok(['get', 'configmap', 'from-before', '-o', 'jsonpath={.data.kept}'])).trim()).toBe('yes');
    await ok(['delete', 'configmap', 'etcd-auth']);
    expect((await k(['get', 'configmap', 'etcd-auth'])).code).not.toBe(0);
  }, 120_000);

  it("answers no plain HTTP on etcd's client port", async () => {
    const { port } = new URL(environOf('core-api').KUBE_ETCD_ENDPOINTS);
    const body = JSON.stringify({ key: Buffer.from('/registry/secrets/').toString('base64'), range_end: Buffer.from('/registry/secrets0').toString('base64') });
    const reply = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/v3/kv/range', method: 'POST' }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      });
      req.on('error', (err) => resolve(err.message));
      req.end(body);
    });
    expect(reply).not.toMatch(/^200 /);
    expect(reply).not.toContain('"kvs"');
  });

  it("hands the aggregated servers etcd credentials that reach their own keys only: no Secret read, no ClusterRoleBinding written", async () => {
    await ok(['-n', 'default', 'create', 'secret', 'generic', 'etcd-auth-target', '--from-literal=password=hunter2']);
    for (const name of ['sample-apiserver', 'counts-apiserver']) {
      const etcd = etcdAs(name);
      await expect(etcd.raw.get('/registry/secrets/default/etcd-auth-target').string(), name).rejects.toThrow(/permission denied/i);
      await expect(etcd.raw.getAll().prefix('/registry/secrets/').keys(), name).rejects.toThrow(/permission denied/i);
      await expect(etcd.raw.put('/registry/clusterrolebindings/pwned').value('{}').exec(), name).rejects.toThrow(/permission denied/i);
    }
    // The sample-apiserver stores Flunders under its own prefix, through the front door, with etcd RBAC on.
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'etcd-auth', namespace: 'default' }, spec: {} }));
    expect(await etcdAs('sample-apiserver').raw.get('/registry/wardle.example.com/flunders/default/etcd-auth').string()).toContain('etcd-auth');
  }, 120_000);

  it("hands each control-plane server its own etcd user: core-api's may not write APIServices, the aggregator's not Secrets", async () => {
    const names = ['core-api', 'extensions', 'aggregator'];
    expect(new Set(names.map((n) => environOf(n).KUBE_ETCD_CERTFILE)).size).toBe(names.length);
    await expect(etcdAs('core-api').raw.put('/registry/apiregistration.k8s.io/apiservices/v1.pwned').value('{}').exec()).rejects.toThrow(/permission denied/i);
    await expect(etcdAs('aggregator').raw.put('/registry/secrets/kube-system/pwned').value('{}').exec()).rejects.toThrow(/permission denied/i);
    await expect(etcdAs('extensions').raw.put('/registry/clusterrolebindings/pwned').value('{}').exec()).rejects.toThrow(/permission denied/i);
    // Nobody but the launcher holds etcd's root certificate.
    for (const name of [...names, 'sample-apiserver', 'counts-apiserver']) expect(Object.values(environOf(name)).join(' '), name).not.toMatch(/etcd-client-root/);
  });
});
