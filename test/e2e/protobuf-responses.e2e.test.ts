/**
 * A client-go protobuf client (its Content-Type and Accept headers, raw HTTPS) through the front door: every
 * built-in kind answers in protobuf, writes included, and watches stream protobuf WatchEvent frames; custom
 * resources have no protobuf (415 for their bodies, JSON answers, 406 when only protobuf is acceptable), as in kube.
 * Answers are decoded with the codec that matches kube's testdata vectors byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeKubeProtobuf, encodeKubeProtobuf, type JsonObject } from '@kube/apimachinery';
import { kubeProtobufBody, pb } from '../../libs/apimachinery/src/protobuf/protobuf.testing';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { CLIENT_GO_ACCEPT, protobufClient, protobufWatch } from '../support/protobuf.client';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
type Json = Record<string, any>;

const statefulSet = (name: string): JsonObject => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, labels: { app: name } },
  spec: {
    replicas: 0,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '250m', memory: '64Mi' } } }] } },
  },
});

describe('protobuf answers through the front door', () => {
  let stack: StackHarness;
  let client: ReturnType<typeof protobufClient>;
  const asJson = (path: string): Promise<Json> => stack.request('GET', path).then((r) => r.json<Json>());

  beforeAll(async () => {
    stack = await startStack({ controllerManager: false });
    client = protobufClient(stack.url, stack.pki);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('creates a StatefulSet from a protobuf body and answers it in protobuf, as its JSON GET shows it', async () => {
    const created = await client.request('POST', '/apis/apps/v1/namespaces/default/statefulsets', { body: encodeKubeProtobuf(statefulSet('db')), headers: { 'Content-Type': PROTOBUF } });
    expect(created.status, created.body.toString('latin1')).toBe(201);
    expect(created.headers['content-type']).toBe(PROTOBUF);
    const json = await asJson('/apis/apps/v1/namespaces/default/statefulsets/db');
    expect(json.spec.replicas).toBe(0);
    expect(created.object()).toEqual(json);
    const got = await client.request('GET', '/apis/apps/v1/namespaces/default/statefulsets/db');
    expect(got.headers['content-type']).toBe(PROTOBUF);
    expect(got.object()).toEqual(json);
  });

  it('lists in protobuf: the List kind with its metadata and every item', async () => {
    for (const name of ['a', 'b', 'c']) {
      const r = await stack.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name }, data: { k: name }, binaryData: { b: 'AAE=' } }) });
      expect(r.status, r.body).toBe(201);
    }
    const list = await client.request('GET', '/api/v1/namespaces/default/configmaps?labelSelector=');
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe(PROTOBUF);
    const json = await asJson('/api/v1/namespaces/default/configmaps');
    const decoded = list.object();
    expect(decoded.kind).toBe('ConfigMapList');
    expect((decoded.metadata as Json).resourceVersion).toBe(json.metadata.resourceVersion);
    // Items of a typed list carry no type meta in kube's protobuf, nor in its JSON.
    expect(decoded.items).toEqual(json.items.map(({ apiVersion: _a, kind: _k, ...rest }: Json) => rest));
  });

  it('patches, updates and deletes with protobuf answers, and a Status error in protobuf', async () => {
    const patched = await client.request('PATCH', '/api/v1/namespaces/default/configmaps/a', { body: '{"data":{"k":"patched"}}', headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(patched.headers['content-type']).toBe(PROTOBUF);
    expect((patched.object().data as Json).k).toBe('patched');
    const current = await asJson('/api/v1/namespaces/default/configmaps/a');
    const updated = await client.request('PUT', '/api/v1/namespaces/default/configmaps/a', { body: encodeKubeProtobuf({ ...current, data: { k: 'put' } }), headers: { 'Content-Type': PROTOBUF } });
    expect(updated.status, updated.body.toString('latin1')).toBe(200);
    expect((updated.object().data as Json).k).toBe('put');
    const conflict = await client.request('PUT', '/api/v1/namespaces/default/configmaps/a', { body: encodeKubeProtobuf({ ...current, data: { k: 'stale' } }), headers: { 'Content-Type': PROTOBUF } });
    expect(conflict.status).toBe(409);
    expect(conflict.headers['content-type']).toBe(PROTOBUF);
    expect(conflict.object()).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
    const deleted = await client.request('DELETE', '/api/v1/namespaces/default/configmaps/c');
    expect(deleted.status).toBe(200);
    expect(deleted.headers['content-type']).toBe(PROTOBUF);
    expect(deleted.object()).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'c', kind: 'configmaps' } });
  });

  it('watches in protobuf: length-delimited WatchEvent frames holding each object enveloped', async () => {
    const rv = (await asJson('/api/v1/namespaces/default/configmaps')).metadata.resourceVersion as string;
    const watching = protobufWatch(client, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}&timeoutSeconds=3`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await stack.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'w' }, data: { x: '1' } }) });
    await stack.request('DELETE', '/api/v1/namespaces/default/configmaps/w');
    const { contentType, events } = await watching;
    expect(contentType).toBe(`${PROTOBUF};stream=watch`);
    expect(events.map((e) => `${e.type} ${(e.object.metadata as Json).name}`)).toEqual(['ADDED w', 'DELETED w']);
    expect(events[0].object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { x: '1' } });
  });

  it('keeps Tables in JSON and serves PartialObjectMetadataList in protobuf, as kube does', async () => {
    const table = await client.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { Accept: `${PROTOBUF};as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io,application/json` } });
    expect(table.headers['content-type']).toBe('application/json');
    expect(table.object().kind).toBe('Table');
    const partial = await client.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { Accept: `${PROTOBUF};as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json` } });
    expect(partial.headers['content-type']).toBe(PROTOBUF);
    const decoded = partial.object();
    expect(decoded).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' });
    expect((decoded.items as Json[]).map((i) => i.metadata.name)).toEqual(['a', 'b']);
  });

  it('answers APIServices, served by the aggregator itself, in protobuf', async () => {
    const r = await client.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.apps');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(PROTOBUF);
    expect(r.object()).toEqual(await asJson('/apis/apiregistration.k8s.io/v1/apiservices/v1.apps'));
  });

  describe('custom resources (no protobuf message)', () => {
    const crs = '/apis/stable.example.com/v1/namespaces/default/crontabs';

    beforeAll(async () => {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'crontabs.stable.example.com' },
        spec: {
          group: 'stable.example.com',
          scope: 'Namespaced',
          names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cron: { type: 'string' }, replicas: { type: 'integer' } } }, status: { type: 'object', properties: { replicas: { type: 'integer' } } } } } },
              subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
            },
          ],
        },
      };
      // The CRD itself is a built-in kind: created from protobuf and answered in protobuf.
      const created = await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: encodeKubeProtobuf(crd), headers: { 'Content-Type': PROTOBUF } });
      expect(created.status, created.body.toString('latin1')).toBe(201);
      expect(created.headers['content-type']).toBe(PROTOBUF);
      expect((created.object().spec as Json).versions[0].schema.openAPIV3Schema.properties.spec.properties.cron).toEqual({ type: 'string' });
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const r = await stack.request('POST', crs, { body: JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' }, spec: { cron: '* * * * *', replicas: 2 } }) });
        if (r.status === 201) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('crontabs were not served');
    });

    it('answers JSON to client-go’s Accept, and 406 when only protobuf is acceptable', async () => {
      const got = await client.request('GET', `${crs}/x`);
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.object()).toMatchObject({ kind: 'CronTab', spec: { cron: '* * * * *' } });
      const only = await client.request('GET', `${crs}/x`, { headers: { Accept: PROTOBUF } });
      expect(only.status).toBe(406);
      expect(only.headers['content-type']).toBe('application/json');
      expect(only.object()).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406, message: 'only the following media types are accepted: application/json, application/yaml, application/json;stream=watch' });
    });

    it('keeps a custom resource’s errors JSON for a client that prefers protobuf', async () => {
      const missing = await client.request('GET', `${crs}/nope`, { headers: { Accept: CLIENT_GO_ACCEPT } });
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toBe('application/json');
    });

    it('answers its /scale, an autoscaling/v1 Scale, in protobuf as kube does', async () => {
      const r = await client.request('GET', `${crs}/x/scale`);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe(PROTOBUF);
      expect(r.object()).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'x' }, spec: { replicas: 2 } });
    });

    it('answers 415 to a protobuf body', async () => {
      const envelope = kubeProtobufBody('stable.example.com/v1', 'CronTab', pb.msg(1, pb.str(1, 'y')));
      const r = await client.request('POST', crs, { body: envelope, headers: { 'Content-Type': PROTOBUF } });
      expect(r.status).toBe(415);
      expect(decodeMaybe(r.body, String(r.headers['content-type']))).toMatchObject({ reason: 'UnsupportedMediaType', code: 415 });
    });
  });
});

function decodeMaybe(body: Buffer, contentType: string): JsonObject {
  return contentType.startsWith(PROTOBUF) ? decodeKubeProtobuf(body).object : (JSON.parse(body.toString('utf8')) as JsonObject);
}
