import { applyStrategicMergePatch, pruneUnknownFields, resolveSchema, type JSONSchemaProps, type SchemaComponents } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
// The builders by path: @kube/apiserver re-exports them, but importing its index boots the whole server module graph.
import { buildOpenApiV2, buildOpenApiV3, referencedNames } from '../../../../libs/apiserver/src/openapi';
import { apiServicesResource } from '../apiservice/apiservices.resource';
import { APISERVICE_SCHEMA, apiregistrationV1Components as components } from './index';

const PREFIX = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.';

function danglingRefs(all: SchemaComponents): string[] {
  return Object.values(all)
    .flatMap((schema) => referencedNames(schema))
    .filter((name) => !all[name]);
}

/** Follows properties the way `kubectl explain apiservices.spec.service` does. */
function explain(path: string[]): JSONSchemaProps | undefined {
  let schema = resolveSchema(components[APISERVICE_SCHEMA], components);
  for (const field of path) schema = resolveSchema(schema?.properties?.[field], components);
  return schema;
}

describe('apiregistration.k8s.io/v1 schemas', () => {
  it('are closed under $ref once merged with meta/v1', () => {
    expect(danglingRefs(components)).toEqual([]);
  });

  it('describe APIService and its list with their GVKs', () => {
    expect(components[APISERVICE_SCHEMA]['x-kubernetes-group-version-kind']).toEqual([{ group: 'apiregistration.k8s.io', kind: 'APIService', version: 'v1' }]);
    expect(components[`${PREFIX}APIServiceList`]['x-kubernetes-group-version-kind']).toEqual([{ group: 'apiregistration.k8s.io', kind: 'APIServiceList', version: 'v1' }]);
    expect(apiServicesResource.schema).toEqual({ name: APISERVICE_SCHEMA, components });
  });

  it('carry the descriptions kubectl explain prints', () => {
    expect(explain(['spec'])?.description).toMatch(/^APIServiceSpec contains information for locating and communicating with a server/);
    expect(Object.keys(explain(['spec'])?.properties ?? {}).sort()).toEqual(['caBundle', 'group', 'groupPriorityMinimum', 'insecureSkipTLSVerify', 'service', 'version', 'versionPriority']);
    expect(explain(['spec', 'service', 'port'])).toMatchObject({ type: 'integer', format: 'int32' });
    expect(explain(['spec', 'caBundle'])).toMatchObject({ type: 'string', format: 'byte' });
    expect(explain(['status'])?.properties?.conditions).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
  });

  it('let kubectl apply merge conditions by type and warn about unknown fields', () => {
    const stored = { status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'no endpoints' }] } };
    const patch = { status: { conditions: [{ type: 'Available', status: 'True' }] } };
    // Merged by key, not replaced: the fields the patch does not mention survive.
    expect(applyStrategicMergePatch(stored, patch, { $ref: `#/components/schemas/${APISERVICE_SCHEMA}` }, components)).toEqual({
      status: { conditions: [{ type: 'Available', status: 'True', reason: 'MissingEndpoints', message: 'no endpoints' }] },
    });
    const obj = { metadata: { name: 'v1.x' }, spec: { group: 'x', version: 'v1', priority: 5, service: { namespace: 'n', name: 's', path: '/' } } };
    expect(pruneUnknownFields(obj, { $ref: `#/components/schemas/${APISERVICE_SCHEMA}` }, components).sort()).toEqual(['spec.priority', 'spec.service.path']);
  });

  it('build v3 and v2 documents with the /status paths', () => {
    const v3 = buildOpenApiV3({ group: 'apiregistration.k8s.io', version: 'v1' }, [apiServicesResource]);
    expect(v3.paths['/apis/apiregistration.k8s.io/v1/apiservices/{name}/status'].patch?.operationId).toBe('patchApiregistrationV1APIServiceStatus');
    expect(v3.components.schemas[`${PREFIX}ServiceReference`]).toBeDefined();
    const swagger = buildOpenApiV2([apiServicesResource]);
    expect(JSON.stringify(swagger)).not.toContain('#/components/');
    expect(swagger.definitions[`${PREFIX}APIServiceList`]).toBeDefined();
  });
});
