import type { JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../resource.definition';
import { statusSubresource } from '../subresources/status.subresource';
import { META_SCHEMA_NAMES, referencedNames } from './openapi.components';
import type { OperationV3 } from './openapi-document.types';
import { buildOpenApiV3 } from './openapi-v3.builder';

const WIDGET = 'com.example.v1.Widget';
const widgetComponents: SchemaComponents = {
  [WIDGET]: {
    description: 'Widget is a test kind.',
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { allOf: [{ $ref: `#/components/schemas/${META_SCHEMA_NAMES.objectMeta}` }], default: {} },
      spec: { $ref: '#/components/schemas/com.example.v1.WidgetSpec' },
    },
  },
  'com.example.v1.WidgetSpec': {
    type: 'object',
    properties: {
      ports: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' } } }, 'x-kubernetes-patch-merge-key': 'port' },
    },
  },
};

const widgets: ResourceDefinition = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  namespaced: true,
  subresources: { status: statusSubresource() },
  schema: { name: WIDGET, components: widgetComponents },
};

const gadgets: ResourceDefinition = {
  group: 'example.com',
  version: 'v1',
  kind: 'Gadget',
  plural: 'gadgets',
  singular: 'gadget',
  namespaced: false,
  verbs: ['get', 'list'],
};

const gv = { group: 'example.com', version: 'v1' };

function operations(doc: ReturnType<typeof buildOpenApiV3>): OperationV3[] {
  return Object.values(doc.paths).flatMap((item) => [item.get, item.put, item.post, item.delete, item.patch].filter((op): op is OperationV3 => !!op));
}

describe('buildOpenApiV3', () => {
  const doc = buildOpenApiV3(gv, [widgets, gadgets]);

  it('publishes collection, item, status and all-namespaces paths', () => {
    expect(Object.keys(doc.paths)).toEqual([
      '/apis/example.com/v1/gadgets',
      '/apis/example.com/v1/gadgets/{name}',
      '/apis/example.com/v1/namespaces/{namespace}/widgets',
      '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}',
      '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status',
      '/apis/example.com/v1/widgets',
    ]);
  });

  it('names operations and actions the way kube does', () => {
    const ns = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets'];
    expect(ns.get?.operationId).toBe('listExampleComV1NamespacedWidget');
    expect(ns.post?.operationId).toBe('createExampleComV1NamespacedWidget');
    expect(ns.delete?.operationId).toBe('deleteExampleComV1CollectionNamespacedWidget');
    expect(ns.delete?.['x-kubernetes-action']).toBe('deletecollection');
    const item = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'];
    expect([item.get, item.put, item.patch, item.delete].map((op) => op?.['x-kubernetes-action'])).toEqual(['get', 'put', 'patch', 'delete']);
    expect(item.patch?.operationId).toBe('patchExampleComV1NamespacedWidget');
    expect(item.parameters?.map((p) => p.name)).toEqual(['name', 'namespace']);
    const status = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status'];
    expect(status.put?.operationId).toBe('replaceExampleComV1NamespacedWidgetStatus');
    expect(doc.paths['/apis/example.com/v1/widgets'].get?.operationId).toBe('listExampleComV1WidgetForAllNamespaces');
    expect(item.get?.tags).toEqual(['exampleCom_v1']);
    expect(item.get?.['x-kubernetes-group-version-kind']).toEqual({ group: 'example.com', version: 'v1', kind: 'Widget' });
  });

  it('offers what kubectl looks for on PATCH: dryRun, fieldValidation and the patch types', () => {
    const patch = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    expect(patch?.parameters?.map((p) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(Object.keys(patch?.requestBody?.content ?? {})).toContain('application/strategic-merge-patch+json');
  });

  it('lists watch parameters only for watchable resources, and only the verbs a resource has', () => {
    const widgetList = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets'].get;
    expect(widgetList?.parameters?.map((p) => p.name)).toContain('watch');
    expect(Object.keys(widgetList?.responses['200'].content ?? {})).toContain('application/json;stream=watch');
    const gadgetPaths = doc.paths['/apis/example.com/v1/gadgets'];
    expect(gadgetPaths.get?.parameters?.map((p) => p.name)).not.toContain('watch');
    expect(gadgetPaths.post).toBeUndefined();
    expect(doc.paths['/apis/example.com/v1/gadgets/{name}'].patch).toBeUndefined();
  });

  it('holds every schema an operation or schema references', () => {
    const schemas = doc.components.schemas;
    const refs = new Set<string>();
    for (const op of operations(doc)) {
      const bodies = [op.requestBody?.content, ...Object.values(op.responses).map((r) => r.content)];
      for (const content of bodies) for (const media of Object.values(content ?? {})) referencedNames(media.schema).forEach((n) => refs.add(n));
    }
    for (const schema of Object.values(schemas)) referencedNames(schema).forEach((n) => refs.add(n));
    for (const name of refs) expect(schemas[name], name).toBeDefined();
    expect(refs).toContain(META_SCHEMA_NAMES.patch);
  });

  it('synthesizes list schemas and a placeholder for kinds without one, tagged with their GVK', () => {
    const schemas = doc.components.schemas;
    const widgetList = schemas['com.example.v1.WidgetList'] as JSONSchemaProps;
    expect(widgetList.properties?.items.items?.$ref).toBe(`#/components/schemas/${WIDGET}`);
    expect(widgetList['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', kind: 'WidgetList', version: 'v1' }]);
    expect(schemas[WIDGET]['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', kind: 'Widget', version: 'v1' }]);
    expect(schemas['com.example.v1.Gadget']['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(Object.keys(schemas)).toEqual([...Object.keys(schemas)].sort());
  });

  it('ignores resources of other group/versions and rejects dangling references', () => {
    expect(buildOpenApiV3({ group: 'other.io', version: 'v1' }, [widgets]).paths).toEqual({});
    const broken: ResourceDefinition = { ...widgets, schema: { name: WIDGET, components: { [WIDGET]: widgetComponents[WIDGET] } } };
    expect(() => buildOpenApiV3(gv, [broken])).toThrow(/com.example.v1.WidgetSpec/);
  });
});
