import type { SchemaComponents } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../resource.definition';
import { buildOpenApiV2, toV2Schema } from './openapi-v2.builder';

const LEASE = 'io.k8s.api.coordination.v1.Lease';
const components: SchemaComponents = {
  [LEASE]: {
    type: 'object',
    properties: {
      metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {}, description: 'meta' },
      spec: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.coordination.v1.LeaseSpec' }], default: {} },
    },
  },
  'io.k8s.api.coordination.v1.LeaseSpec': {
    type: 'object',
    properties: { holderIdentity: { type: 'string', nullable: true }, port: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' } },
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] },
};

const leases: ResourceDefinition = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  schema: { name: LEASE, components },
};
const configmaps: ResourceDefinition = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', namespaced: true };

describe('buildOpenApiV2', () => {
  const swagger = buildOpenApiV2([leases, configmaps]);
  const text = JSON.stringify(swagger);

  it('covers every group/version in one document', () => {
    expect(swagger.swagger).toBe('2.0');
    expect(swagger.paths['/api/v1/namespaces/{namespace}/configmaps']).toBeDefined();
    expect(swagger.paths['/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}']).toBeDefined();
    expect(swagger.definitions[LEASE]).toBeDefined();
    expect(swagger.definitions['io.k8s.api.core.v1.ConfigMapList']).toBeDefined();
  });

  it('leaves no v3 references or keywords behind, and every reference resolves', () => {
    expect(text).not.toContain('#/components');
    expect(text).not.toMatch(/"(oneOf|anyOf|nullable|requestBody)"/);
    for (const [, name] of text.matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) expect(swagger.definitions[name], name).toBeDefined();
  });

  it('turns allOf-wrapped refs into plain refs and IntOrString into a string', () => {
    const metadata = swagger.definitions[LEASE].properties?.metadata;
    expect(metadata).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', default: {}, description: 'meta' });
    expect(swagger.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({ format: 'int-or-string', type: 'string' });
  });

  it('converts operations: body parameter, consumes, produces, vendor extensions', () => {
    const patch = swagger.paths['/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}'].patch;
    expect(patch?.consumes).toContain('application/strategic-merge-patch+json');
    expect(patch?.produces).toEqual(['application/json', 'application/yaml']);
    expect(patch?.parameters?.[0]).toEqual({ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(patch?.parameters?.map((p) => p.name)).toContain('fieldValidation');
    expect(patch?.['x-kubernetes-group-version-kind']).toEqual({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' });
    // No schema, no strategic merge patch (RestHandler answers 415).
    const cmPatch = swagger.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch;
    expect(cmPatch?.consumes).not.toContain('application/strategic-merge-patch+json');
    // Nor for a custom resource, schema or not (kube's CRD builder lists JSON and merge patch; test-cmd's crd.sh
    // got a 415 from kubectl apply's strategic merge patch).
    const custom = buildOpenApiV2([{ ...leases, group: 'company.com', disableStrategicMergePatch: true }]);
    expect(custom.paths['/apis/company.com/v1/namespaces/{namespace}/leases/{name}'].patch?.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json']);
    const list = swagger.paths['/api/v1/namespaces/{namespace}/configmaps'].get;
    expect(list?.parameters?.find((p) => p.name === 'limit')).toEqual(expect.objectContaining({ in: 'query', type: 'integer' }));
    expect(list?.responses['200'].schema).toEqual({ $ref: '#/definitions/io.k8s.api.core.v1.ConfigMapList' });
  });
});

describe('toV2Schema', () => {
  it('keeps extensions, defaults and enums untouched', () => {
    const schema = { type: 'string' as const, enum: ['A', 'B'], default: 'A', 'x-kubernetes-list-type': 'atomic' as const };
    expect(toV2Schema(schema)).toEqual(schema);
  });

  it("publishes a kind that keeps unknown fields at its root as a bare object, and drops what kubectl breaks on beside unknown fields (apiextensions' v2 rules)", () => {
    const gvk = [{ group: 'company.com', version: 'v1', kind: 'Foo' }];
    const root = { type: 'object' as const, 'x-kubernetes-preserve-unknown-fields': true, properties: { apiVersion: { type: 'string' as const }, metadata: { $ref: '#/components/schemas/M' } }, 'x-kubernetes-group-version-kind': gvk };
    expect(toV2Schema(root)).toEqual({ type: 'object', 'x-kubernetes-group-version-kind': gvk });
    const nested = toV2Schema({
      type: 'object',
      properties: {
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } }, description: 'd' },
        list: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
        plain: { type: 'object', properties: { b: { type: 'integer' } } },
      },
    });
    expect(nested).toEqual({
      type: 'object',
      properties: { free: { 'x-kubernetes-preserve-unknown-fields': true, description: 'd' }, list: { 'x-kubernetes-preserve-unknown-fields': true }, plain: { type: 'object', properties: { b: { type: 'integer' } } } },
    });
  });

  it('converts additionalProperties and items recursively', () => {
    const v2 = toV2Schema({ type: 'object', additionalProperties: { allOf: [{ $ref: '#/components/schemas/Q' }] }, properties: { a: { type: 'array', items: { $ref: '#/components/schemas/R' } } } });
    expect(v2).toEqual({ type: 'object', additionalProperties: { $ref: '#/definitions/Q' }, properties: { a: { type: 'array', items: { $ref: '#/definitions/R' } } } });
  });
});
