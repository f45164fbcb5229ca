import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { Storage } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { RestHandler } from './rest.handler';
import type { RequestContext, ResourceDefinition } from './resource.definition';

let etcd: EtcdProcess;
let storage: Storage;

beforeAll(async () => {
  etcd = await startEtcd();
  storage = new Storage({ endpoints: [etcd.endpoint], watchCache: false });
});

afterAll(async () => {
  await storage?.close();
  await etcd?.stop();
});

/** A resource with a graceful delete strategy as the pod's: spec.grace by default, none when spec.now. */
function graceful(plural: string): RestHandler {
  const def: ResourceDefinition = {
    group: 'graceful.example.com', version: 'v1', kind: 'Sleeper', plural, singular: 'sleeper', namespaced: true, tracksGeneration: true,
    strategy: { checkGracefulDelete: (obj, requested) => ((obj.spec as { now?: boolean }).now ? 0 : (requested ?? (obj.spec as { grace: number }).grace)) },
  };
  return new RestHandler(def, storage.resource({ group: def.group, resource: plural }, `${def.group}/${plural}`), []);
}

const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: 'ns', dryRun: false, warnings: [] };
const create = (h: RestHandler, name: string, spec: { grace?: number; now?: boolean }): Promise<KubeObject> =>
  h.create(ctx, 'ns', { apiVersion: 'graceful.example.com/v1', kind: 'Sleeper', metadata: { name }, spec }, { dryRun: false, fieldValidation: 'Ignore' });

describe("RestHandler.delete with a graceful strategy (kube's rest.BeforeDelete)", () => {
  it('marks the object with deletionTimestamp and the period, bumps generation, and keeps it', async () => {
    const h = graceful('marked');
    const before = Date.now();
    await create(h, 'a', { grace: 30 });
    const { body, code } = await h.delete(ctx, 'ns', 'a', {}, false);
    expect(code).toBe(200);
    const marked = body as KubeObject;
    expect(marked.metadata).toMatchObject({ name: 'a', deletionGracePeriodSeconds: 30, generation: 2 });
    const due = Date.parse(marked.metadata.deletionTimestamp as string);
    expect(due).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 29_000);
    expect((await h.get('ns', 'a')).metadata.deletionGracePeriodSeconds).toBe(30);
  });

  it('leaves a pending deletion alone unless shortened; 0 deletes', async () => {
    const h = graceful('shortened');
    await create(h, 'b', { grace: 30 });
    const first = (await h.delete(ctx, 'ns', 'b', {}, false)).body as KubeObject;
    const again = await h.delete(ctx, 'ns', 'b', { gracePeriodSeconds: 60 }, false);
    expect(again.body).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await h.get('ns', 'b')).metadata.deletionTimestamp).toBe(first.metadata.deletionTimestamp);
    const shorter = (await h.delete(ctx, 'ns', 'b', { gracePeriodSeconds: 10 }, false)).body as KubeObject;
    expect(shorter.metadata.deletionGracePeriodSeconds).toBe(10);
    expect(Date.parse(shorter.metadata.deletionTimestamp as string)).toBe(Date.parse(first.metadata.deletionTimestamp as string) - 20_000);
    expect(shorter.metadata.generation).toBe(2);
    await h.delete(ctx, 'ns', 'b', { gracePeriodSeconds: 0 }, false);
    await expect(h.get('ns', 'b')).rejects.toMatchObject({ code: 404 });
  });

  it('deletes at once when the strategy gives no period', async () => {
    const h = graceful('immediate');
    await create(h, 'c', { now: true });
    expect((await h.delete(ctx, 'ns', 'c', {}, false)).body).toMatchObject({ kind: 'Status', status: 'Success' });
    await expect(h.get('ns', 'c')).rejects.toMatchObject({ code: 404 });
  });
});
