/**
 * `kubectl delete --dry-run=server` must delete nothing (issue 28, item 0): kubectl sends the dry run in the
 * DeleteOptions body, `{"dryRun":["All"]}`, which was ignored, so the objects were deleted for real. Checked on
 * every kind of server behind the front door: core-api (configmaps), extensions (a custom resource) and an SDK
 * server (the wardle sample-apiserver's flunders), with the oldest and newest kubectl.
 */
import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

const CRD = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.dryrun.example.com' },
  spec: {
    group: 'dryrun.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
  },
});

/** The three kinds of resources, each as kubectl names it, with a manifest for one object of it. */
const KINDS = [
  { resource: 'configmaps', manifest: (name: string, ns: string, finalizers?: string[]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, finalizers, labels: MINE }, data: { a: name } }) },
  { resource: 'gadgets.dryrun.example.com', manifest: (name: string, ns: string, finalizers?: string[]) => ({ apiVersion: 'dryrun.example.com/v1', kind: 'Gadget', metadata: { name, namespace: ns, finalizers, labels: MINE }, spec: { size: 1 } }) },
  { resource: 'flunders.wardle.example.com', manifest: (name: string, ns: string, finalizers?: string[]) => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, namespace: ns, finalizers, labels: MINE }, spec: {} }) },
] as const;

/** The REST path of a collection of one of KINDS in a namespace. */
function pathOf(resource: string, ns: string): string {
  const [plural, ...group] = resource.split('.');
  return group.length ? `/apis/${group.join('.')}/${group[0] === 'wardle' ? 'v1alpha1' : 'v1'}/namespaces/${ns}/${plural}` : `/api/v1/namespaces/${ns}/${plural}`;
}

/** Our objects (the namespace also holds kube-root-ca.crt, published by the controller-manager). */
const MINE = { 'dry-run': 'yes' };

describe('kubectl delete --dry-run=server deletes nothing', () => {
  let stack: StackHarness;
  let wardle: INestApplicationContext;

  beforeAll(async () => {
    stack = await startStack();
    wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
    expect((await stack.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: CRD })).status).toBe(201);
    const served = async (path: string): Promise<boolean> => (await stack.request('GET', path)).status === 200;
    expect(await until(() => served('/apis/dryrun.example.com/v1/gadgets'), 30_000)).toBe(true);
    expect(await until(() => served('/apis/wardle.example.com/v1alpha1/flunders'), 60_000)).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await wardle?.close();
    await stack?.stop();
  });

  describe.each([
    ['1.27', '1.27'],
    ['newest', undefined],
  ])('with kubectl %s', (label, version) => {
    const ns = `dry-run-${label.replace('.', '-')}`;
    const { k, ok } = kubectlSession(version, () => stack.kubeconfig);

    /** Every object of the three kinds in the namespace, by kind and name (the whole object, resourceVersion included). */
    const snapshot = async (): Promise<Record<string, KubeObject>> => {
      const out: Record<string, KubeObject> = {};
      for (const { resource } of KINDS) {
        const list = JSON.parse(await ok(['get', resource, '-n', ns, '-l', 'dry-run=yes', '-o', 'json'])) as { items: KubeObject[] };
        for (const item of list.items) out[`${resource}/${item.metadata.name}`] = item;
      }
      return out;
    };

    beforeAll(async () => {
      await ok(['create', 'namespace', ns]);
      for (const { manifest } of KINDS) {
        const objects = [manifest('one', ns), manifest('two', ns), manifest('kept', ns, ['example.com/keep'])];
        await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
      }
    });

    it.each(KINDS.map((kind) => kind.resource))('of one %s: says "deleted (server dry run)", and the object is still there, unchanged', async (resource) => {
      const before = await snapshot();
      expect(Object.keys(before)).toHaveLength(9);
      expect(await ok(['delete', resource, 'one', '-n', ns, '--dry-run=server'])).toMatch(/ "one" deleted \(server dry run\)\n$/);
      expect(await ok(['delete', resource, 'one', '-n', ns, '--dry-run=server', '--cascade=foreground'])).toMatch(/ "one" deleted \(server dry run\)\n$/);
      expect(await ok(['delete', resource, 'one', '-n', ns, '--dry-run=server', '--cascade=orphan'])).toMatch(/ "one" deleted \(server dry run\)\n$/);
      expect(await snapshot()).toEqual(before);
    });

    it.each(KINDS.map((kind) => kind.resource))('of every %s (--all): every object is still there, unchanged', async (resource) => {
      const before = await snapshot();
      const out = await ok(['delete', resource, '--all', '-n', ns, '--dry-run=server']);
      for (const name of ['one', 'two', 'kept']) expect(out).toContain(`"${name}" deleted (server dry run)`);
      expect(await snapshot()).toEqual(before);
    });

    it.each(KINDS.map((kind) => kind.resource))('of a %s with a finalizer: answered as being deleted, nothing written (no deletionTimestamp)', async (resource) => {
      const before = await snapshot();
      expect(await ok(['delete', resource, 'kept', '-n', ns, '--dry-run=server'])).toMatch(/ "kept" deleted \(server dry run\)\n$/);
      // What kubectl sent, to see the answer (kubectl prints only the name): kube answers what a real delete
      // would, the object with its deletion under way.
      const r = await stack.request('DELETE', `${pathOf(resource, ns)}/kept`, { body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', dryRun: ['All'] }) });
      expect(r.status, r.body).toBe(200);
      const answer = JSON.parse(r.body) as KubeObject;
      expect(answer.metadata.deletionTimestamp).toBeDefined();
      expect(answer.metadata.finalizers).toEqual(['example.com/keep']);
      const after = await snapshot();
      expect(after).toEqual(before);
      expect(after[`${resource}/kept`].metadata.deletionTimestamp).toBeUndefined();
    });

    it('of a namespace: the namespace stays Active and keeps its objects', async () => {
      const before = await snapshot();
      expect(await ok(['delete', 'namespace', ns, '--dry-run=server'])).toBe(`namespace "${ns}" deleted (server dry run)\n`);
      expect(JSON.parse(await ok(['get', 'namespace', ns, '-o', 'json'])).status.phase).toBe('Active');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses an unknown dryRun value, in the body or the query, and deletes nothing', async () => {
      const before = await snapshot();
      const path = `/api/v1/namespaces/${ns}/configmaps/one`;
      for (const [query, body] of [['', { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['Bogus'] }], ['?dryRun=Bogus', undefined]] as const) {
        const r = await stack.request('DELETE', `${path}${query}`, { body: body && JSON.stringify(body) });
        expect(r.status).toBe(422);
        expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', code: 422, reason: 'Invalid', message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Bogus"]: supported values: "All"' });
      }
      expect(await snapshot()).toEqual(before);
      expect((await k(['get', 'cm', 'one', '-n', ns])).code).toBe(0);
    });
  });

  it.each([
    ['configmaps', '/api/v1/namespaces/dry-run-collection/configmaps'],
    ['a custom resource', '/apis/dryrun.example.com/v1/namespaces/dry-run-collection/gadgets'],
    ['flunders', '/apis/wardle.example.com/v1alpha1/namespaces/dry-run-collection/flunders'],
  ])('DELETE of the collection of %s with dryRun in the query or the body answers the list and deletes nothing', async (_what, path) => {
    const { ok } = kubectlSession(undefined, () => stack.kubeconfig);
    if ((await stack.request('GET', '/api/v1/namespaces/dry-run-collection')).status === 404) await ok(['create', 'namespace', 'dry-run-collection']);
    const kind = KINDS.find((k) => path.includes(`/${k.resource.split('.')[0]}`))!;
    for (const name of ['c1', 'c2']) await ok(['create', '-f', '-'], JSON.stringify(kind.manifest(name, 'dry-run-collection', name === 'c2' ? ['example.com/keep'] : undefined)));
    const mine = `${path}?labelSelector=dry-run%3Dyes`;
    const before = JSON.parse((await stack.request('GET', mine)).body) as { items: KubeObject[] };
    expect(before.items).toHaveLength(2);
    for (const [query, body] of [['?dryRun=All', undefined], ['', { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] }]] as const) {
      const r = await stack.request('DELETE', `${mine}${query.replace('?', '&')}`, { body: body && JSON.stringify(body) });
      expect(r.status, r.body).toBe(200);
      const answer = JSON.parse(r.body) as { items: KubeObject[] };
      expect(answer.items.map((o) => o.metadata.name).sort()).toEqual(['c1', 'c2']);
      expect(answer.items.find((o) => o.metadata.name === 'c2')?.metadata.deletionTimestamp).toBeDefined();
    }
    const after = JSON.parse((await stack.request('GET', mine)).body) as { items: KubeObject[] };
    expect(after.items).toEqual(before.items);
  });
});
