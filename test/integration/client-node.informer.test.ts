import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { startCoreApi, type CoreApiHarness } from '../support/core-api.harness';

let api: CoreApiHarness;

beforeAll(async () => {
  api = await startCoreApi();
});

afterAll(async () => {
  await api?.stop();
});

const until = async (cond: () => boolean, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
};

describe('@kubernetes/client-node informer (list + watch)', () => {
  it('sees every change, in order', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(api.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'informed' } } });
    await core.createNamespacedConfigMap({ namespace: 'informed', body: { metadata: { name: 'pre' }, data: { v: '0' } } });

    // kube-root-ca.crt is the controller-manager's (published in every namespace): not part of this sequence.
    const seen: string[] = [];
    const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/informed/configmaps', () => core.listNamespacedConfigMap({ namespace: 'informed' }));
    informer.on('add', (o) => o.metadata?.name !== 'kube-root-ca.crt' && seen.push(`add:${o.metadata?.name}:${o.data?.v}`));
    informer.on('update', (o) => o.metadata?.name !== 'kube-root-ca.crt' && seen.push(`update:${o.metadata?.name}:${o.data?.v}`));
    informer.on('delete', (o) => o.metadata?.name !== 'kube-root-ca.crt' && seen.push(`delete:${o.metadata?.name}`));
    await informer.start();
    await until(() => seen.length >= 1);

    for (let i = 1; i <= 5; i++) {
      await core.createNamespacedConfigMap({ namespace: 'informed', body: { metadata: { name: `cm-${i}` }, data: { v: '0' } } });
      // client-node sends PATCH bodies as application/json-patch+json.
      await core.patchNamespacedConfigMap({ namespace: 'informed', name: `cm-${i}`, body: [{ op: 'replace', path: '/data/v', value: String(i) }] });
    }
    await core.deleteNamespacedConfigMap({ namespace: 'informed', name: 'cm-3' });
    const expected = ['add:pre:0'];
    for (let i = 1; i <= 5; i++) expected.push(`add:cm-${i}:0`, `update:cm-${i}:${i}`);
    expected.push('delete:cm-3');
    await until(() => seen.length >= expected.length);
    await informer.stop();
    expect(seen).toEqual(expected);
    expect(informer.list('informed').map((o) => o.metadata?.name).filter((n) => n !== 'kube-root-ca.crt').sort()).toEqual(['cm-1', 'cm-2', 'cm-4', 'cm-5', 'pre']);
  });
});
