/**
 * Issue 28 item 3: a CRD deleted and at once re-created under the same name must serve its new custom resources
 * to every watch opened on them, through the front door: from "now" (no resourceVersion), from a list's
 * resourceVersion and from a create's. A watch that cannot be served ends with an error (410 Gone), never in
 * silence.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { RestClient, type WatchStream } from '@kube/client';
import { until } from '@test/support';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { TerminatingCustomResources } from '../../apps/extensions/src/reconcilers/terminating.admission';

const GROUP = 'recreate.example.com';
const NAME = `widgets.${GROUP}`;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = `/apis/${GROUP}/v1/namespaces/default/widgets`;
const CYCLES = Number(process.env.CRD_RECREATE_CYCLES ?? 30);
const PER_CYCLE = 3;

function crd(scope: 'Namespaced' | 'Cluster' = 'Namespaced', version = 'v1'): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAME },
    spec: {
      group: GROUP,
      scope,
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: version, served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

/** Every ADDED name a watch delivers, and how it ended (an ERROR event's Status, or a plain end). */
function follow(watch: WatchStream): { added: string[]; ended: Promise<Error | undefined> } {
  const added: string[] = [];
  const ended = (async () => {
    for await (const ev of watch) if (ev.type === 'ADDED') added.push(ev.object.metadata.name as string);
    return watch.error;
  })();
  return { added, ended };
}

describe('a CRD deleted and re-created under the same name', () => {
  let stack: StackHarness;
  let client: RestClient;

  beforeAll(async () => {
    stack = await startStack();
    const pem = (path: string): string => readFileSync(path, 'utf8');
    client = new RestClient({ url: stack.url, caPem: pem(stack.pki.caCert), certPem: pem(stack.pki.adminCert), keyPem: pem(stack.pki.adminKey) });
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await stack?.stop();
  });

  async function create(obj: KubeObject, path = WIDGETS): Promise<void> {
    // Right after a deletion the name may still be held for a moment (the cleanup finalizer's last write).
    expect(await until(async () => client.request('POST', CRDS, { body: obj }).then(() => true, (err: unknown) => ((err as { code?: number }).code === 409 ? false : Promise.reject(err))), 30_000)).toBe(true);
    expect(await until(async () => client.list(path).then(() => true, () => false), 30_000)).toBe(true);
  }

  async function remove(): Promise<void> {
    await client.request('DELETE', `${CRDS}/${NAME}`);
    expect(await until(async () => client.get(`${CRDS}/${NAME}`).then(() => false, (err: unknown) => (err as { code?: number }).code === 404), 30_000)).toBe(true);
  }

  async function widget(name: string, path = WIDGETS, version = 'v1'): Promise<KubeObject> {
    return client.request<KubeObject>('POST', path, { body: { apiVersion: `${GROUP}/${version}`, kind: 'Widget', metadata: { name } } });
  }

  /** Waits until the watch saw `names`; failing that, says what it saw and whether it ended (and why) or is still open. */
  async function sees(w: ReturnType<typeof follow>, names: string[], what: string): Promise<void> {
    let end: Error | undefined | 'open' = 'open';
    void w.ended.then((e) => (end = e));
    await until(async () => names.every((n) => w.added.includes(n)) || end !== 'open', 30_000);
    if (names.every((n) => w.added.includes(n))) return;
    const how = end === 'open' ? 'is still open' : end === undefined ? 'ended without an error' : `ended with ${(end as Error).message}`;
    expect.fail(`${what}: the watch saw ${JSON.stringify(w.added)} of ${JSON.stringify(names)} and ${how}`);
  }

  /** Moves etcd's revision on (a write elsewhere), as the rest of a busy cluster does between a list and its watch. */
  let bumps = 0;
  async function elsewhere(): Promise<void> {
    await client.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bump-${bumps++}` } } });
  }

  it(`serves every new custom resource to watches opened after each of ${CYCLES} re-creations`, async () => {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await create(crd());
      // From a list's resourceVersion, from now, and from the first create's.
      // A list (paged: read from etcd) and a watch from its resourceVersion, with writes elsewhere in between: kube
      // serves it from the cache its CRD's storage started with, so must we (no 410 for a resource this new).
      const listed = await client.list(WIDGETS);
      expect(listed.items).toEqual([]);
      await elsewhere();
      const fromList = follow(await client.watch(WIDGETS, listed.resourceVersion));
      const fromNow = follow(await client.watch(WIDGETS, ''));
      const first = await widget(`c${cycle}-0`);
      const fromCreate = follow(await client.watch(WIDGETS, first.metadata.resourceVersion as string));
      const names = [`c${cycle}-0`];
      for (let n = 1; n < PER_CYCLE; n++) names.push((await widget(`c${cycle}-${n}`)).metadata.name as string);
      await sees(fromNow, names, `cycle ${cycle}, watch from now`);
      await sees(fromList, names, `cycle ${cycle}, watch from the list's resourceVersion ${listed.resourceVersion}`);
      await sees(fromCreate, names.slice(1), `cycle ${cycle}, watch from the create's resourceVersion ${first.metadata.resourceVersion}`);
      await remove();
      // Every watch of the deleted CRD's resources ended (kube destroys the old storage).
      for (const w of [fromNow, fromList, fromCreate]) {
        expect(await Promise.race([w.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30_000))]), `cycle ${cycle}: a watch outlived its CRD`).toBe(true);
      }
    }
  }, 1_800_000);

  it('serves a CRD re-created under the same name with another scope and version from its new paths only', async () => {
    await create(crd('Namespaced', 'v1'));
    await widget('namespaced');
    const old = follow(await client.watch(WIDGETS, ''));
    await remove();
    expect(await Promise.race([old.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30_000))]), 'the watch outlived its CRD').toBe(true);

    const clustered = `/apis/${GROUP}/v2/widgets`;
    await create(crd('Cluster', 'v2'), clustered);
    // The old version and scope are gone, with kube's 404.
    expect(await client.list(WIDGETS).then(() => 200, (err: unknown) => (err as { code?: number }).code)).toBe(404);
    expect(await client.list(`/apis/${GROUP}/v2/namespaces/default/widgets`).then(() => 200, (err: unknown) => (err as { code?: number }).code)).toBe(404);
    // The cleanup emptied the resource: the new CRD starts with nothing, and its watch sees what is created now.
    const listed = await client.list(clustered);
    expect(listed.items).toEqual([]);
    await elsewhere();
    const fromList = follow(await client.watch(clustered, listed.resourceVersion));
    const fromNow = follow(await client.watch(clustered, ''));
    await widget('clustered', clustered, 'v2');
    await sees(fromList, ['clustered'], 'cluster-scoped v2, watch from the list');
    await sees(fromNow, ['clustered'], 'cluster-scoped v2, watch from now');
    await remove();
    for (const w of [fromList, fromNow]) {
      expect(await Promise.race([w.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30_000))]), 'a watch outlived its CRD').toBe(true);
    }
  }, 300_000);

  it('lets a CRD that is not being deleted have custom resources created, whatever a terminated one of its name left', async () => {
    await create(crd());
    // What a terminated CRD of the same name leaves when extensions never saw it go (a relist shows the deletion
    // and the re-creation as one update): its resource marked terminating, so creates answer 405.
    stack.apps[1].get(TerminatingCustomResources).add(`widgets.${GROUP}`);
    expect(await widget('refused').then(() => 201, (err: unknown) => (err as { code?: number }).code)).toBe(405);
    await client.request('PATCH', `${CRDS}/${NAME}`, { body: { metadata: { labels: { touched: 'yes' } } }, contentType: 'application/merge-patch+json' });
    expect(await until(async () => widget('accepted').then(() => true, () => false), 30_000), 'creates are still refused').toBe(true);
    await remove();
  }, 120_000);
});
