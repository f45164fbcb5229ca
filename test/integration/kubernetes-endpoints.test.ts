/**
 * core-api's half of kube's lease endpoint reconciler (KubernetesEndpointsController), against a real etcd: the
 * `kubernetes` Endpoints and EndpointSlice follow the front doors recorded under /registry/masterleases/ as the
 * keys come and go (an etcd watch, no waiting for the 10 s pass), and with no record at all they are left as they
 * are (kube refuses to erase them) — at first they name core-api itself, as before front doors recorded themselves.
 */
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreApiHarness, startCoreApi } from '../support/core-api.harness';
import { until } from '../support/until';

let core: CoreApiHarness;
let etcd: Etcd3;

const record = (ip: string, port: number): string => JSON.stringify({ kind: 'Endpoints', apiVersion: 'v1', subsets: [{ addresses: [{ ip }], ports: [{ name: 'https', port, protocol: 'TCP' }] }] });

async function addresses(): Promise<string[]> {
  const r = await core.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
  const ep = r.json<{ subsets?: Array<{ addresses?: Array<{ ip: string }>; ports?: Array<{ port: number }> }> }>();
  return (ep.subsets ?? []).flatMap((s) => (s.addresses ?? []).flatMap((a) => (s.ports ?? []).map((p) => `${a.ip}:${p.port}`))).sort();
}

async function sliceAddresses(): Promise<string[]> {
  const r = await core.request('GET', `/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=${encodeURIComponent('kubernetes.io/service-name=kubernetes')}`);
  const list = r.json<{ items: Array<{ endpoints?: Array<{ addresses: string[] }>; ports?: Array<{ port: number }> }> }>();
  return list.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses.flatMap((a) => (s.ports ?? []).map((p) => `${a}:${p.port}`)))).sort();
}

const is = (want: string[]) => async (): Promise<boolean> => JSON.stringify(await addresses()) === JSON.stringify(want) && JSON.stringify(await sliceAddresses()) === JSON.stringify(want);

beforeAll(async () => {
  core = await startCoreApi({ controllerManager: false });
  etcd = new Etcd3({ hosts: core.etcd.endpoint });
}, 120_000);

afterAll(async () => {
  etcd?.close();
  await core?.stop();
});

describe('the kubernetes Endpoints from the front doors recorded in etcd', () => {
  it('name core-api while no front door is recorded, then every recorded one, and keep the last set when none is left', async () => {
    expect(await until(is([`127.0.0.1:${core.port}`]), 30_000)).toBe(true);
    await etcd.put('/registry/masterleases/10.0.0.2:6443').value(record('10.0.0.2', 6443));
    await etcd.put('/registry/masterleases/10.0.0.1:6443').value(record('10.0.0.1', 6443));
    expect(await until(is(['10.0.0.1:6443', '10.0.0.2:6443']), 30_000)).toBe(true);
    // One subset for apiservers sharing a port, as kube.
    const ep = (await core.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json<{ metadata: { labels: Record<string, string> }; subsets: unknown[] }>();
    expect(ep.subsets).toEqual([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    expect(ep.metadata.labels['endpointslice.kubernetes.io/skip-mirror']).toBe('true');
    // The Service's targetPort is the apiservers' port (kube's kubernetesservice controller), not core-api's own.
    const targetPort = async (): Promise<unknown> => (await core.request('GET', '/api/v1/namespaces/default/services/kubernetes')).json<{ spec: { ports: Array<{ targetPort: unknown }> } }>().spec.ports[0].targetPort;
    expect(await until(async () => (await targetPort()) === 6443, 30_000)).toBe(true);

    await etcd.delete().key('/registry/masterleases/10.0.0.2:6443').exec();
    expect(await until(is(['10.0.0.1:6443']), 30_000)).toBe(true);
    const rv = (await core.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
    // The last one gone: nothing listed is taken as a fault, not as "no apiserver" (kube's refusal to erase).
    await etcd.delete().key('/registry/masterleases/10.0.0.1:6443').exec();
    await etcd.put('/registry/masterleases/garbage').value('not an endpoints');
    await etcd.delete().key('/registry/masterleases/garbage').exec();
    // A front door recording itself again: the one write since is to that set (nothing erased in between).
    await etcd.put('/registry/masterleases/10.0.0.3:6443').value(record('10.0.0.3', 6443));
    expect(await until(is(['10.0.0.3:6443']), 30_000)).toBe(true);
    const history = await core.request('GET', `/api/v1/namespaces/default/endpoints?watch=1&resourceVersion=${rv}&timeoutSeconds=1&fieldSelector=metadata.name%3Dkubernetes`);
    const events = history.body.toString().trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; object: { subsets?: unknown[] } });
    expect(events.map((e) => e.type)).toEqual(['MODIFIED']);
    expect(events[0].object.subsets).toEqual([{ addresses: [{ ip: '10.0.0.3' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
  }, 120_000);
});
