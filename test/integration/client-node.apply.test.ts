import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiException, KubeConfig, KubernetesObjectApi, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { startStack, type StackHarness } from '../support/core-api.harness';

let stack: StackHarness;
let objects: KubernetesObjectApi;

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.apply.example.com' },
  spec: {
    group: 'apply.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  size: { type: 'integer' },
                  owner: { type: 'string' },
                  ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'], items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, name: { type: 'string' } } } },
                },
              },
            },
          },
        },
      },
    ],
  },
};

type Gadget = KubernetesObject & { spec?: { size?: number; owner?: string; ports?: Array<{ port: number; name?: string }> } };

const gadget = (spec: Gadget['spec']): Gadget => ({ apiVersion: 'apply.example.com/v1', kind: 'Gadget', metadata: { name: 'g', namespace: 'default' }, spec });

beforeAll(async () => {
  stack = await startStack();
  const kc = new KubeConfig();
  kc.loadFromFile(stack.kubeconfig);
  objects = KubernetesObjectApi.makeApiClient(kc);
  // Raw JSON: client-node's typed serializer would drop the x-kubernetes-* keys of a plain object literal.
  const res = await stack.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: JSON.stringify(CRD) });
  expect(res.status).toBe(201);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const crd = (await objects.read({ apiVersion: CRD.apiVersion, kind: CRD.kind, metadata: { name: CRD.metadata.name } })) as KubernetesObject & { status?: { conditions?: Array<{ type: string; status: string }> } };
    if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
    if (Date.now() > deadline) throw new Error('the CRD was not established');
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  await stack?.stop();
});

describe('@kubernetes/client-node server-side apply (PatchStrategy.ServerSideApply) of a custom resource', () => {
  it('creates, merges list-map items owned by two managers, reports a conflict and forces it', async () => {
    const created = await objects.patch(gadget({ size: 1, ports: [{ port: 80, name: 'http' }] }), undefined, undefined, 'team-a', undefined, PatchStrategy.ServerSideApply);
    expect(created.spec).toEqual({ size: 1, ports: [{ port: 80, name: 'http' }] });

    const shared = await objects.patch(gadget({ ports: [{ port: 443, name: 'https' }] }), undefined, undefined, 'team-b', undefined, PatchStrategy.ServerSideApply);
    expect(shared.spec?.ports).toEqual([
      { port: 80, name: 'http' },
      { port: 443, name: 'https' },
    ]);
    expect((shared.metadata?.managedFields ?? []).map((m) => `${m.manager}/${m.operation}`).sort()).toEqual(['team-a/Apply', 'team-b/Apply']);

    const conflict = await objects.patch(gadget({ size: 2 }), undefined, undefined, 'team-b', undefined, PatchStrategy.ServerSideApply).catch((err: unknown) => err);
    expect(conflict).toBeInstanceOf(ApiException);
    const status = JSON.parse(String((conflict as ApiException<unknown>).body)) as { code: number; reason: string; message: string };
    expect(status).toMatchObject({ code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "team-a": .spec.size' });

    const forced = await objects.patch(gadget({ size: 2, ports: [{ port: 443, name: 'https' }] }), undefined, undefined, 'team-b', true, PatchStrategy.ServerSideApply);
    expect(forced.spec?.size).toBe(2);

    // team-a no longer applies port 80: it goes, since nobody else owns it.
    const dropped = await objects.patch(gadget({}), undefined, undefined, 'team-a', undefined, PatchStrategy.ServerSideApply);
    expect(dropped.spec).toEqual({ size: 2, ports: [{ port: 443, name: 'https' }] });
  });
});
