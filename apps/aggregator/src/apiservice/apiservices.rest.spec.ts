/**
 * APIServices through the generic REST handler on a real etcd: the strategy hooks as the server runs them,
 * including the parts the generic handler owns (/status keeping everything but status, conditional PUTs).
 */
import { isStatusError, type JsonValue, type KubeObject } from '@kube/apimachinery';
import { Storage } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// By path: @kube/apiserver's index boots the whole server module graph.
import { RestHandler, type WriteOptions } from '../../../../libs/apiserver/src/rest.handler';
import { coordination, ctx, wardle } from './apiservice.testing';
import type { APIService } from './apiservice.types';
import { apiServicesResource } from './apiservices.resource';

const WRITE: WriteOptions = { dryRun: false, fieldValidation: 'Strict' };

let etcd: EtcdProcess;
let storage: Storage;
let handler: RestHandler;

const body = (obj: object): JsonValue => structuredClone(obj) as unknown as JsonValue;

async function failure(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected the request to fail');
}

async function created(svc: APIService): Promise<APIService> {
  return (await handler.create(ctx, undefined, body(svc), WRITE)) as APIService;
}

beforeAll(async () => {
  etcd = await startEtcd();
  storage = new Storage({ endpoints: [etcd.endpoint] });
  handler = new RestHandler(apiServicesResource, storage.resource({ group: 'apiregistration.k8s.io', resource: 'apiservices' }, 'apiregistration.k8s.io/apiservices'));
});

afterAll(async () => {
  await storage?.close();
  await etcd?.stop();
});

describe('apiservices over etcd', () => {
  it('creates a local APIService Available and a remote one with an empty status and port 443', async () => {
    const local = await created(coordination());
    expect(local.status?.conditions).toMatchObject([{ type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' }]);
    const remote = await created(wardle());
    expect(remote.status).toEqual({});
    expect(remote.spec.service).toEqual({ namespace: 'wardle', name: 'api', port: 443 });
    // kube's APIService strategy sets no metadata.generation.
    expect(remote.metadata.generation).toBeUndefined();
  });

  it('answers 422 with kube message for an invalid APIService', async () => {
    const svc = wardle();
    svc.metadata.name = 'wardle.example.com';
    svc.spec.versionPriority = 0;
    expect(await failure(created(svc))).toEqual({
      code: 422,
      message:
        'APIService.apiregistration.k8s.io "wardle.example.com" is invalid: [metadata.name: Invalid value: "wardle.example.com": must be `spec.version+"."+spec.group`: "v1alpha1.wardle.example.com", spec.versionPriority: Invalid value: 0: must be positive and less than 1000]',
    });
  });

  it('never creates on PUT and requires a resourceVersion', async () => {
    const missing = { ...wardle(), metadata: { name: 'v1beta1.wardle.example.com' }, spec: { ...wardle().spec, version: 'v1beta1' } };
    expect((await failure(handler.update(ctx, undefined, 'v1beta1.wardle.example.com', body(missing), WRITE))).code).toBe(404);
    const current = (await handler.get(undefined, 'v1alpha1.wardle.example.com')) as APIService;
    const { resourceVersion: _rv, ...meta } = current.metadata;
    expect(await failure(handler.update(ctx, undefined, 'v1alpha1.wardle.example.com', body({ ...current, metadata: meta }), WRITE))).toMatchObject({
      code: 422,
      message: expect.stringContaining('metadata.resourceVersion: Invalid value: 0: must be specified for an update'),
    });
  });

  it('keeps status on PUT; a spec change moves no generation (APIServices have none)', async () => {
    const current = (await handler.get(undefined, 'v1.coordination.k8s.io')) as APIService;
    const next = { ...current, spec: { ...current.spec, versionPriority: 20 }, status: { conditions: [{ type: 'Available', status: 'False', reason: 'Forged' }] } };
    const { object } = await handler.update(ctx, undefined, 'v1.coordination.k8s.io', body(next), WRITE);
    expect((object as APIService).status).toEqual(current.status);
    expect(object.metadata.generation).toBeUndefined();
  });

  it('changes only status through /status', async () => {
    const current = (await handler.get(undefined, 'v1alpha1.wardle.example.com')) as APIService;
    const next: KubeObject = {
      ...current,
      metadata: { ...current.metadata, labels: { forged: 'true' } },
      spec: { ...current.spec, groupPriorityMinimum: 0 },
      status: { conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'MissingEndpoints', message: 'no endpoints' }] },
    };
    const { object } = await handler.update(ctx, undefined, 'v1alpha1.wardle.example.com', body(next), WRITE, 'status');
    expect(object.spec).toEqual(current.spec);
    expect(object.metadata.labels).toBeUndefined();
    expect(object.metadata.generation).toBeUndefined();
    expect((object as APIService).status?.conditions?.[0]).toMatchObject({ status: 'False', reason: 'MissingEndpoints' });
  });

  it('merges a strategic patch of /status by condition type', async () => {
    const patched = (await handler.patch(ctx, undefined, 'v1alpha1.wardle.example.com', 'strategic', { status: { conditions: [{ type: 'Available', status: 'True', reason: 'Passed' }] } }, WRITE, 'status')) as APIService;
    expect(patched.status?.conditions).toEqual([{ type: 'Available', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'Passed', message: 'no endpoints' }]);
  });
});
