import type { JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
// The builders by path: @kube/apiserver re-exports them, but its index pulls in the whole server module graph.
import { buildOpenApiV2, buildOpenApiV3, referencedNames } from '../../../../libs/apiserver/src/openapi';
import { customResourceDefinitionsResource } from '../crd/customresourcedefinitions.resource';
import { apiextensionsV1Components as own } from './apiextensions-v1.schemas';
import { apiextensionsV1Components, CUSTOM_RESOURCE_DEFINITION_SCHEMA } from './index';

const AX = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';

function danglingRefs(components: SchemaComponents): string[] {
  return Object.values(components)
    .flatMap((schema) => referencedNames(schema))
    .filter((name) => !components[name]);
}

function property(kind: string, name: string): JSONSchemaProps | undefined {
  return apiextensionsV1Components[`${AX}${kind}`].properties?.[name];
}

describe('apiextensions.k8s.io/v1 schemas', () => {
  it('hold only apiextensions types and are closed under $ref once merged with meta/v1', () => {
    expect(Object.keys(own).every((name) => name.startsWith(AX))).toBe(true);
    expect(Object.keys(own)).toHaveLength(24);
    expect(danglingRefs(apiextensionsV1Components)).toEqual([]);
  });

  it('describe the CRD kind and its list with their GVK', () => {
    expect(CUSTOM_RESOURCE_DEFINITION_SCHEMA).toBe(`${AX}CustomResourceDefinition`);
    const gvk = (kind: string): unknown => apiextensionsV1Components[`${AX}${kind}`]['x-kubernetes-group-version-kind'];
    expect(gvk('CustomResourceDefinition')).toEqual([{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', version: 'v1' }]);
    expect(gvk('CustomResourceDefinitionList')).toEqual([{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinitionList', version: 'v1' }]);
  });

  it('keep what kubectl validation and explain read: required fields, descriptions, list types, recursion', () => {
    expect(apiextensionsV1Components[`${AX}CustomResourceDefinitionVersion`].required).toEqual(['name', 'served', 'storage']);
    expect(property('CustomResourceDefinitionVersion', 'served')?.description).toMatch(/^served is a flag enabling\/disabling this version/);
    expect(property('CustomResourceDefinitionStatus', 'conditions')).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
    const nested = property('JSONSchemaProps', 'properties')?.additionalProperties;
    expect(nested).toMatchObject({ allOf: [{ $ref: `#/components/schemas/${AX}JSONSchemaProps` }] });
  });

  it('build the v3 and v2 documents for the CRD resource', () => {
    const v3 = buildOpenApiV3({ group: 'apiextensions.k8s.io', version: 'v1' }, [customResourceDefinitionsResource]);
    expect(v3.paths['/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}/status'].get?.operationId).toBe('readApiextensionsV1CustomResourceDefinitionStatus');
    expect(v3.components.schemas[`${AX}JSONSchemaProps`]).toBe(apiextensionsV1Components[`${AX}JSONSchemaProps`]);
    const swagger = buildOpenApiV2([customResourceDefinitionsResource]);
    expect(JSON.stringify(swagger)).not.toContain('#/components/');
    expect(swagger.definitions[`${AX}CustomResourceDefinitionList`]).toBeDefined();
  });
});
