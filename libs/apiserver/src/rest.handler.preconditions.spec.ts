import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject, StatusError } from '@kube/apimachinery';
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

const def: ResourceDefinition = { group: 'pre.example.com', version: 'v1', kind: 'Gizmo', plural: 'gizmos', singular: 'gizmo', namespaced: true };
const handler = (): RestHandler => new RestHandler(def, storage.resource({ group: def.group, resource: def.plural }, `${def.group}/${def.plural}`), []);
const ctx: RequestContext = { user: { name: 'u', groups: [] }, namespace: 'ns', dryRun: false, warnings: [] };
const opts = { dryRun: false, fieldValidation: 'Strict' } as const;
const create = (h: RestHandler, name: string): Promise<KubeObject> => h.create(ctx, 'ns', { apiVersion: 'pre.example.com/v1', kind: 'Gizmo', metadata: { name } }, opts);
const failure = async (p: Promise<unknown>): Promise<StatusError> => p.then(() => expect.fail('expected a failure'), (e: unknown) => e as StatusError);

describe('RestHandler preconditions (kube texts)', () => {
  it('refuses a DELETE whose preconditions do not match with rest.BeforeDelete\'s texts, naming the kind', async () => {
    const h = handler();
    const obj = await create(h, 'd');
    const uid = await failure(h.delete(ctx, 'ns', 'd', { preconditions: { uid: 'other' } }, false));
    expect(uid.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on Gizmo.pre.example.com "d": the UID in the precondition (other) does not match the UID in record (${obj.metadata.uid as string}). The object might have been deleted and then recreated`,
      details: { name: 'd', group: 'pre.example.com', kind: 'Gizmo' },
    });
    const rv = await failure(h.delete(ctx, 'ns', 'd', { preconditions: { resourceVersion: '1' } }, false));
    expect(rv.message).toBe(`Operation cannot be fulfilled on Gizmo.pre.example.com "d": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${obj.metadata.resourceVersion as string}). The object might have been modified`);
    await h.delete(ctx, 'ns', 'd', { preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion } }, false);
  });

  it('refuses a PUT of an object whose uid is not the stored one (kubectl replace of a deleted and recreated object)', async () => {
    const h = handler();
    const old = await create(h, 'r');
    await h.delete(ctx, 'ns', 'r', {}, false);
    const recreated = await create(h, 'r');
    const body = (uid: string): JsonObject => ({ apiVersion: 'pre.example.com/v1', kind: 'Gizmo', metadata: { name: 'r', uid, labels: { a: 'b' } } });
    const err = await failure(h.update(ctx, 'ns', 'r', body(old.metadata.uid as string), opts));
    expect(err.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on gizmos.pre.example.com "r": StorageError: invalid object, Code: 4, Key: /registry/pre.example.com/gizmos/ns/r, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${old.metadata.uid as string}, UID in object meta: ${recreated.metadata.uid as string}`,
      details: { name: 'r', group: 'pre.example.com', kind: 'gizmos' },
    });
    expect((await h.get('ns', 'r')).metadata.labels).toBeUndefined();
    const { object } = await h.update(ctx, 'ns', 'r', body(recreated.metadata.uid as string), opts);
    expect(object.metadata.labels).toEqual({ a: 'b' });
  });
});
