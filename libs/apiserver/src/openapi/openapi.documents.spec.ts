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

  it('writes v2 with paths and definitions sorted by key, as one JSON document', () => {
    const v2 = JSON.parse(docs.v2Json().body.toString()) as { swagger: string; info: unknown; paths: Record<string, unknown>; definitions: Record<string, unknown> };
    expect(Object.keys(v2)).toEqual(['swagger', 'info', 'paths', 'definitions']);
    const sorted = (keys: string[]): string[] => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(Object.keys(v2.paths)).toEqual(sorted(Object.keys(v2.paths)));
    expect(Object.keys(v2.definitions)).toEqual(sorted(Object.keys(v2.definitions)));
    expect(Object.keys(v2.paths)).toEqual(expect.arrayContaining(['/api/v1/namespaces/{namespace}/configmaps', '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases']));
    expect(docs.v2Json().body.toString()).toBe(JSON.stringify(v2));
  });

  it('hands unchanged group/versions on to the next resource set and rebuilds only the changed ones', () => {
    const first = new OpenApiDocuments(resources);
    const core = first.v3Document('api/v1');
    const leases = first.v3Document('apis/coordination.k8s.io/v1');
    const widget: ResourceDefinition = { group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', singular: 'widget', namespaced: true };
    const lease2: ResourceDefinition = { ...resources[1] };
    const next = new OpenApiDocuments([resources[0], lease2, widget], first);
    expect(next.v3Document('api/v1')).toBe(core);
    // The same content in a new object is rebuilt (identity is what is compared), to the same bytes.
    expect(next.v3Document('apis/coordination.k8s.io/v1')).not.toBe(leases);
    expect(next.v3Document('apis/coordination.k8s.io/v1')?.etag).toBe(leases?.etag);
    expect(Object.keys(next.v3Index().paths)).toEqual(['api/v1', 'apis/coordination.k8s.io/v1', 'apis/example.com/v1']);
    expect(JSON.parse(next.v2Json().body.toString()).paths['/apis/example.com/v1/namespaces/{namespace}/widgets']).toBeDefined();
    const without = new OpenApiDocuments([resources[0]], next);
    expect(Object.keys(without.v3Index().paths)).toEqual(['api/v1']);
    expect(without.v3Document('apis/example.com/v1')).toBeUndefined();
    expect(JSON.parse(without.v2Json().body.toString()).paths['/apis/example.com/v1/namespaces/{namespace}/widgets']).toBeUndefined();
  });
});
