import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import type { Storage } from '@kube/storage';
import { RestHandler } from './rest.handler';
import { storageFor } from './source.storage';
import type { ResourceDefinition, SourceRequest, UserInfo } from './resource.definition';
import { servedVerbs } from './resource.definition';

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };

function counter(): { def: ResourceDefinition; calls: SourceRequest[] } {
  const calls: SourceRequest[] = [];
  const objects: KubeObject[] = [
    { metadata: { name: 'default', labels: { tier: 'system' } }, count: 3 } as KubeObject,
    { metadata: { name: 'team-a', labels: { tier: 'user' } }, count: 7 } as KubeObject,
  ];
  const def: ResourceDefinition = {
    group: 'counts.example.com',
    version: 'v1alpha1',
    kind: 'ObjectCount',
    plural: 'objectcounts',
    singular: 'objectcount',
    namespaced: false,
    source: {
      get: async (req) => {
        calls.push(req);
        return objects.find((o) => o.metadata.name === req.name);
      },
      list: async (req) => {
        calls.push(req);
        return objects;
      },
    },
  };
  return { def, calls };
}

// A computed resource never touches etcd: a Storage that throws proves it.
const noEtcd = new Proxy({}, { get: () => () => { throw new Error('etcd storage used by a computed resource'); } }) as unknown as Storage;

describe('RestHandler with a source (computed resources)', () => {
  it('serves GET from the source with type meta, and 404 for a missing object', async () => {
    const { def, calls } = counter();
    const h = new RestHandler(def, storageFor(def, noEtcd));
    const obj = await h.get(undefined, 'team-a', undefined, alice);
    expect(obj).toMatchObject({ kind: 'ObjectCount', apiVersion: 'counts.example.com/v1alpha1', metadata: { name: 'team-a' }, count: 7 });
    expect(calls[0]).toEqual({ namespace: undefined, name: 'team-a', user: alice });
    const missing = await h.get(undefined, 'nope', undefined, alice).catch((e: unknown) => e);
    expect(isStatusError(missing) && missing.status).toMatchObject({ code: 404, reason: 'NotFound', message: 'objectcounts.counts.example.com "nope" not found' });
  });

  it('lists through the source and applies label and field selectors', async () => {
    const { def } = counter();
    const h = new RestHandler(def, storageFor(def, noEtcd));
    const all = await h.list(undefined, {}, alice);
    expect(all.kind).toBe('ObjectCountList');
    expect(all.items.map((o) => o.metadata.name)).toEqual(['default', 'team-a']);
    expect(all.items.every((o) => o.kind === 'ObjectCount')).toBe(true);
    expect((await h.list(undefined, { labelSelector: 'tier=user' }, alice)).items.map((o) => o.metadata.name)).toEqual(['team-a']);
    expect((await h.list(undefined, { fieldSelector: 'metadata.name=default' }, alice)).items.map((o) => o.metadata.name)).toEqual(['default']);
  });

  it('answers writes and watch with 405 MethodNotSupported', async () => {
    const { def } = counter();
    const store = storageFor(def, noEtcd);
    const attempts: Array<Promise<unknown>> = [
      store.create({ metadata: { name: 'x' } }),
      store.guaranteedUpdate(undefined, 'default', (cur) => cur as KubeObject),
      store.delete(undefined, 'default'),
      store.watch(undefined),
    ];
    for (const attempt of attempts) {
      const err = await attempt.catch((e: unknown) => e);
      expect(isStatusError(err) && err.status).toMatchObject({ code: 405, reason: 'MethodNotAllowed' });
    }
  });

  it('defaults a computed resource to the read verbs', () => {
    const { def } = counter();
    expect(servedVerbs(def)).toEqual(['get', 'list']);
    expect(servedVerbs({ ...def, source: undefined })).toContain('create');
  });
});
