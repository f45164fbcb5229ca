/**
 * Hole 8 of issue 14: the watch cache of a CRD's resource is released when the CRD is deleted or serves no
 * version any more (it leaves the registry watch, its watches end), so CRD churn leaves nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Storage } from '@kube/storage';
import { until } from '@test/support';
import { startStack, type StackHarness } from '../support/core-api.harness';

const GROUP = 'churn.example.com';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(plural: string, versions: Array<{ name: string; served: boolean; storage: boolean }> = [{ name: 'v1', served: true, storage: true }]): Record<string, unknown> {
  const kind = plural[0].toUpperCase() + plural.slice(1, -1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural, singular: plural.slice(0, -1), kind },
      versions: versions.map((v) => ({ ...v, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })),
    },
  };
}

describe('watch caches of CRDs under churn', () => {
  let stack: StackHarness;
  let storage: Storage;

  beforeAll(async () => {
    stack = await startStack();
    storage = stack.apps[1].get(Storage); // the extensions server's
  }, 60_000);
  afterAll(() => stack?.stop());

  /** Creates the CRD and waits until extensions serves (and caches) its resource. */
  async function serve(plural: string, versions?: Parameters<typeof crd>[1]): Promise<void> {
    expect((await stack.request('POST', CRDS, { body: JSON.stringify(crd(plural, versions)) })).status).toBe(201);
    const path = `/apis/${GROUP}/v1/namespaces/default/${plural}`;
    expect(await until(async () => (await stack.extensions.request('GET', path)).status === 200, 30_000)).toBe(true);
  }

  async function remove(plural: string): Promise<void> {
    expect((await stack.request('DELETE', `${CRDS}/${plural}.${GROUP}`)).status).toBe(200);
    expect(await until(async () => (await stack.request('GET', `${CRDS}/${plural}.${GROUP}`)).status === 404, 30_000)).toBe(true);
  }

  it('ends the watches of a deleted CRD and leaves as many watch caches as before 50 CRDs came and went', async () => {
    // Warm up whatever else the extensions server caches lazily, then take the baseline.
    await serve('warmups');
    const served = storage.stats;
    await remove('warmups');
    expect(await until(async () => storage.stats.resources === served.resources - 1, 30_000)).toBe(true);
    const baseline = storage.stats;
    expect(baseline.watchCaches).toBe(served.watchCaches - 1);

    // A watch of a CRD's resource ends when the CRD goes (as kube's destroyed storage ends it), long before its timeout.
    await serve('watcheds');
    let ended = false;
    const watching = stack.extensions.request('GET', `/apis/${GROUP}/v1/namespaces/default/watcheds?watch=true&timeoutSeconds=1800`).then((r) => {
      ended = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(ended).toBe(false);
    await remove('watcheds');
    expect((await watching).status).toBe(200);

    const plurals = Array.from({ length: 50 }, (_, i) => `churns${i}s`.replace(/s(\d)/, '$1'));
    for (let i = 0; i < plurals.length; i += 10) {
      await Promise.all(plurals.slice(i, i + 10).map((p) => serve(p)));
    }
    expect(storage.stats.resources).toBeGreaterThanOrEqual(baseline.resources + 50);
    expect(storage.stats.watchCaches).toBeGreaterThanOrEqual(baseline.watchCaches + 50);
    for (let i = 0; i < plurals.length; i += 10) {
      await Promise.all(plurals.slice(i, i + 10).map((p) => remove(p)));
    }
    expect(await until(async () => storage.stats.watchCaches === baseline.watchCaches && storage.stats.resources === baseline.resources, 60_000)).toBe(true);
  }, 300_000);

  it('keeps the cache while one version is still served, and releases it when none is', async () => {
    await serve('versioneds', [
      { name: 'v1', served: true, storage: true },
      { name: 'v2', served: true, storage: false },
    ]);
    const before = storage.stats;
    const path = `${CRDS}/versioneds.${GROUP}`;
    // The CRD controller writes status meanwhile: read, modify, write again on a conflict.
    const update = async (served: Record<string, boolean>): Promise<void> => {
      // Anything but 200 or a conflict fails the test (until would retry a throwing condition).
      const unexpected: string[] = [];
      expect(
        await until(async () => {
          const current = (await stack.request('GET', path)).json<{ spec: { versions: Array<{ name: string; served: boolean }> } }>();
          for (const v of current.spec.versions) v.served = served[v.name];
          const res = await stack.request('PUT', path, { body: JSON.stringify(current) });
          if (res.status !== 409 && res.status !== 200) unexpected.push(`${res.status} ${res.body.slice(0, 300)}`);
          return res.status === 200 || unexpected.length > 0;
        }, 30_000),
      ).toBe(true);
      expect(unexpected).toEqual([]);
    };
    await update({ v1: true, v2: false });
    expect(await until(async () => (await stack.extensions.request('GET', `/apis/${GROUP}/v2/namespaces/default/versioneds`)).status === 404, 30_000)).toBe(true);
    expect(storage.stats).toEqual(before);
    await update({ v1: false, v2: false });
    expect(await until(async () => (await stack.extensions.request('GET', `/apis/${GROUP}/v1/namespaces/default/versioneds`)).status === 404, 30_000)).toBe(true);
    expect(await until(async () => storage.stats.watchCaches === before.watchCaches - 1 && storage.stats.resources === before.resources - 1, 30_000)).toBe(true);
    await remove('versioneds');
  }, 120_000);
});
