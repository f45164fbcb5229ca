import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../resource.definition';
import { OpenApiDocuments } from './openapi.documents';

const resources: ResourceDefinition[] = [
  { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', namespaced: true },
  { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', singular: 'lease', namespaced: true },
];

function sha512(body: Buffer): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

describe('OpenApiDocuments', () => {
  const docs = new OpenApiDocuments(resources);

  it('indexes one v3 document per group/version, addressed by its hash', () => {
    const index = docs.v3Index();
    expect(Object.keys(index.paths)).toEqual(['api/v1', 'apis/coordination.k8s.io/v1']);
    const core = docs.v3Document('api/v1');
    expect(core).toBeDefined();
    expect(index.paths['api/v1'].serverRelativeURL).toBe(`/openapi/v3/api/v1?hash=${sha512(core!.body)}`);
    expect(core!.etag).toBe(`"${sha512(core!.body)}"`);
    expect(JSON.parse(core!.body.toString()).paths['/api/v1/namespaces/{namespace}/configmaps']).toBeDefined();
    expect(docs.v3Document('apis/apps/v1')).toBeUndefined();
  });

  it('serves v2 as JSON and protobuf, each with its own etag, built once', () => {
    const json = docs.v2Json();
    expect(JSON.parse(json.body.toString()).swagger).toBe('2.0');
    const proto = docs.v2Protobuf();
    expect(proto.body.length).toBeGreaterThan(0);
    expect(proto.etag).toBe(`"${sha512(proto.body)}"`);
    expect(proto.etag).not.toBe(json.etag);
    expect(docs.v2Json()).toBe(json);
    expect(docs.v2Protobuf()).toBe(proto);
  });

  it('produces identical bytes for the same resources', () => {
    const again = new OpenApiDocuments(resources);
    expect(again.v3Index()).toEqual(docs.v3Index());
    expect(again.v2Protobuf().etag).toBe(docs.v2Protobuf().etag);
  });
});
