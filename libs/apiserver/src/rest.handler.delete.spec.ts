import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '@kube/apimachinery';
import { Storage } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { RestHandler } from './rest.handler';
import type { AdmissionAttributes, AdmissionPlugin, RequestContext, ResourceDefinition } from './resource.definition';

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

/** A namespaced resource on real etcd, with an admission plugin and a delete hook that record what they saw. */
function widgets(plural: string): { h: RestHandler; seen: AdmissionAttributes[]; deletedByHook: string[] } {
  const seen: AdmissionAttributes[] = [];
  const deletedByHook: string[] = [];
  const def: ResourceDefinition = {
    group: 'dryrun.example.com', version: 'v1', kind: 'Widget', plural, singular: 'widget', namespaced: true,
    hooks: { afterDelete: async (obj) => void deletedByHook.push(obj.metadata.name as string) },
  };
  const recorder: AdmissionPlugin = { name: 'Recorder', validate: (a) => void (a.operation === 'DELETE' && seen.push(a)) };
  const store = storage.resource({ group: def.group, resource: plural }, `${def.group}/${plural}`);
  return { h: new RestHandler(def, store, [recorder]), seen, deletedByHook };
}

const ctx = (dryRun: boolean): RequestContext => ({ user: { name: 'u', groups: [] }, namespace: 'ns', dryRun, warnings: [] });

async function create(h: RestHandler, name: string, finalizers?: string[]): Promise<KubeObject> {
  return h.create(ctx(false), 'ns', { apiVersion: 'dryrun.example.com/v1', kind: 'Widget', metadata: finalizers ? { name, finalizers } : { name } }, { dryRun: false, fieldValidation: 'Strict' });
}

describe('RestHandler.delete with dryRun (kube\'s Store.Delete with DryRun All)', () => {
  it('answers the Status a delete would, runs admission with dryRun, and leaves the object and the hooks alone', async () => {
    const { h, seen, deletedByHook } = widgets('plain');
    const stored = await create(h, 'a');
    const { body, code } = await h.delete(ctx(true), 'ns', 'a', { propagationPolicy: 'Background', dryRun: ['All'] }, true);
    expect(code).toBe(200);
    expect(body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'a', group: 'dryrun.example.com', kind: 'plain', uid: stored.metadata.uid } } satisfies Partial<Status>);
    expect(await h.get('ns', 'a')).toEqual(stored);
    expect(deletedByHook).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ operation: 'DELETE', name: 'a', ctx: { dryRun: true }, options: { delete: { propagationPolicy: 'Background' } } });
    expect(seen[0].oldObject?.metadata.uid).toBe(stored.metadata.uid);
  });

  it('answers an object its finalizers keep as being deleted (deletionTimestamp, stored resourceVersion), without writing it', async () => {
    const { h } = widgets('finalized');
    const stored = await create(h, 'kept', ['example.com/keep']);
    const { body } = await h.delete(ctx(true), 'ns', 'kept', { dryRun: ['All'] }, true);
    const answer = body as KubeObject;
    expect(answer.metadata).toMatchObject({ name: 'kept', finalizers: ['example.com/keep'], resourceVersion: stored.metadata.resourceVersion, deletionGracePeriodSeconds: 0 });
    expect(answer.metadata.deletionTimestamp).toBeDefined();
    expect(await h.get('ns', 'kept')).toEqual(stored);
  });

  it('adds the garbage collector\'s finalizer to the answer only (Foreground, Orphan)', async () => {
    const { h } = widgets('propagated');
    const stored = await create(h, 'p');
    for (const [policy, finalizer] of [['Foreground', 'foregroundDeletion'], ['Orphan', 'orphan']] as const) {
      const { body } = await h.delete(ctx(true), 'ns', 'p', { propagationPolicy: policy, dryRun: ['All'] }, true);
      expect((body as KubeObject).metadata.finalizers).toEqual([finalizer]);
      expect((body as KubeObject).metadata.deletionTimestamp).toBeDefined();
    }
    expect(await h.get('ns', 'p')).toEqual(stored);
  });

  it('checks preconditions on a dry run too', async () => {
    const { h } = widgets('preconditioned');
    await create(h, 'c');
    const err = await h.delete(ctx(true), 'ns', 'c', { preconditions: { uid: 'other' }, dryRun: ['All'] }, true).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 409 });
    expect(await h.get('ns', 'c')).toBeDefined();
  });

  it('answers every object of a dry-run collection delete and deletes none', async () => {
    const { h, deletedByHook } = widgets('collection');
    const before = [await create(h, 'x'), await create(h, 'y', ['example.com/keep'])];
    const list = await h.deleteCollection(ctx(true), 'ns', {}, { dryRun: ['All'] }, true);
    expect(list.items.map((o) => o.metadata.name)).toEqual(['x', 'y']);
    expect(list.items[1].metadata.deletionTimestamp).toBeDefined();
    expect((await h.list('ns', {})).items).toEqual(before);
    expect(deletedByHook).toEqual([]);
  });

  it('deletes for real without dryRun (the same calls)', async () => {
    const { h, deletedByHook } = widgets('real');
    await create(h, 'r');
    await h.delete(ctx(false), 'ns', 'r', {}, false);
    await expect(h.get('ns', 'r')).rejects.toMatchObject({ code: 404 });
    expect(deletedByHook).toEqual(['r']);
  });
});
