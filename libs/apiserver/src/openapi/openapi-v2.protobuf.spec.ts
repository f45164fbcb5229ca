import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { ResourceDefinition } from '../resource.definition';
import { buildOpenApiV2 } from './openapi-v2.builder';
import { openApiV2DocumentType } from './openapi-v2.proto';
import { encodeOpenApiV2Protobuf } from './openapi-v2.protobuf';

const configmaps: ResourceDefinition = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', namespaced: true };

/** Decoded messages, field names as in OpenAPIv2.proto. */
interface NamedAny {
  name: string;
  value: { yaml: string };
}
interface ProtoSchema {
  _ref?: string;
  description?: string;
  type?: { value: string[] };
  properties?: { additional_properties?: Array<{ name: string; value: ProtoSchema }> };
  items?: { schema: ProtoSchema[] };
  additional_properties?: { schema?: ProtoSchema; boolean?: boolean };
  default?: { yaml: string };
  vendor_extension?: NamedAny[];
}

function decode(buffer: Buffer): Record<string, unknown> {
  const type = openApiV2DocumentType();
  return type.toObject(type.decode(buffer), { defaults: false, arrays: true }) as Record<string, unknown>;
}

describe('encodeOpenApiV2Protobuf', () => {
  const swagger = buildOpenApiV2([configmaps]);
  const decoded = decode(encodeOpenApiV2Protobuf(swagger)) as {
    swagger: string;
    info: { title: string };
    paths: { path: Array<{ name: string; value: Record<string, { operation_id: string; consumes: string[]; vendor_extension: NamedAny[]; parameters: unknown[] }> }> };
    definitions: { additional_properties: Array<{ name: string; value: ProtoSchema }> };
  };
  const definition = (name: string): ProtoSchema | undefined => decoded.definitions.additional_properties.find((d) => d.name === name)?.value;

  it('decodes back to the same document shape', () => {
    expect(decoded.swagger).toBe('2.0');
    expect(decoded.info.title).toBe('Kubernetes');
    expect(decoded.paths.path.map((p) => p.name)).toEqual(Object.keys(swagger.paths));
    expect(decoded.definitions.additional_properties.map((d) => d.name)).toEqual(Object.keys(swagger.definitions));
  });

  it('carries the GVK extension as YAML, where kubectl looks for it', () => {
    const list = definition('io.k8s.api.core.v1.ConfigMapList');
    const gvk = list?.vendor_extension?.find((e) => e.name === 'x-kubernetes-group-version-kind');
    expect(parseYaml(gvk?.value.yaml ?? '')).toEqual([{ group: '', kind: 'ConfigMapList', version: 'v1' }]);
    const patch = decoded.paths.path.find((p) => p.name === '/api/v1/namespaces/{namespace}/configmaps/{name}')?.value.patch;
    expect(patch?.operation_id).toBe('patchCoreV1NamespacedConfigMap');
    expect(patch?.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json']);
    expect(parseYaml(patch?.vendor_extension.find((e) => e.name === 'x-kubernetes-group-version-kind')?.value.yaml ?? '')).toEqual({ group: '', kind: 'ConfigMap', version: 'v1' });
    expect(patch?.parameters).toHaveLength(5);
  });

  it('encodes schemas: refs, types, properties, items, maps and defaults', () => {
    const meta = definition('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const fields = Object.fromEntries((meta?.properties?.additional_properties ?? []).map((p) => [p.name, p.value]));
    expect(meta?.type?.value).toEqual(['object']);
    expect(fields.labels.additional_properties?.schema?.type?.value).toEqual(['string']);
    expect(fields.finalizers.items?.schema[0].type?.value).toEqual(['string']);
    expect(fields.creationTimestamp._ref).toBe('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Time');
    const list = definition('io.k8s.api.core.v1.ConfigMapList');
    const metadata = list?.properties?.additional_properties?.find((p) => p.name === 'metadata')?.value;
    expect(metadata?._ref).toBe('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta');
    expect(parseYaml(metadata?.default?.yaml ?? '')).toEqual({});
  });

  it('keeps an empty properties message, which tells an object with no fields from a map', () => {
    const doc = decode(
      encodeOpenApiV2Protobuf({
        swagger: '2.0',
        info: { title: 't', version: 'v' },
        paths: {},
        definitions: { Empty: { type: 'object', properties: {} }, Map: { type: 'object' } },
      }),
    ) as { definitions: { additional_properties: Array<{ name: string; value: ProtoSchema }> } };
    const [empty, map] = doc.definitions.additional_properties.map((d) => d.value);
    expect(empty.properties).toEqual({ additional_properties: [] });
    expect(map.properties).toBeUndefined();
  });

  it('produces a message that verifies against the schema', () => {
    const type = openApiV2DocumentType();
    expect(type.verify(type.decode(encodeOpenApiV2Protobuf(swagger)))).toBeNull();
  });
});
