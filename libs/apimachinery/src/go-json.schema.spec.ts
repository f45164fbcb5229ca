import { describe, expect, it } from 'vitest';
import { goDecodeError } from './go-json.typecheck';
import { goTypeOfSchema } from './go-json.schema';
import type { SchemaComponents } from './openapi.types';

const components: SchemaComponents = {
  'io.k8s.api.example.v1.Widget': {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      spec: { $ref: '#/components/schemas/io.k8s.api.example.v1.WidgetSpec' },
    },
  },
  'io.k8s.api.example.v1.WidgetSpec': {
    type: 'object',
    properties: {
      replicas: { type: 'integer', format: 'int32' },
      paused: { type: 'boolean' },
      ratio: { type: 'number' },
      since: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' }] },
      cpu: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' },
      port: { 'x-kubernetes-int-or-string': true },
      raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      args: { type: 'array', items: { type: 'string' } },
      children: { type: 'array', items: { $ref: '#/components/schemas/io.k8s.api.example.v1.WidgetSpec' } },
      anything: { type: 'object' },
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: 'string', format: 'date-time' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { oneOf: [{ type: 'string' }, { type: 'number' }] },
};
const widget = goTypeOfSchema('io.k8s.api.example.v1.Widget', components);

describe('goTypeOfSchema (a typed kind\'s schema as Go decodes into it)', () => {
  it('accepts well-typed objects and whatever the schema leaves open', () => {
    expect(goDecodeError({ apiVersion: 'v1', spec: { replicas: 2, paused: true, ratio: 0.5, since: '2026-01-01T00:00:00Z', cpu: 1, port: 'http', raw: [1, 'x'], labels: { a: 'b' }, args: ['x'], children: [{ cpu: '1m', port: 80 }], anything: { x: 1 } } }, widget)).toBeUndefined();
  });

  it('refuses each typed path with Go\'s message, names from the schema\'s definitions', () => {
    expect(goDecodeError({ spec: [] }, widget)).toBe('json: cannot unmarshal array into Go struct field Widget.spec of type v1.WidgetSpec');
    expect(goDecodeError({ spec: { replicas: '2' } }, widget)).toBe('json: cannot unmarshal string into Go struct field WidgetSpec.spec.replicas of type int32');
    expect(goDecodeError({ spec: { paused: 'no' } }, widget)).toBe('json: cannot unmarshal string into Go struct field WidgetSpec.spec.paused of type bool');
    expect(goDecodeError({ spec: { since: 5 } }, widget)).toBe('json: cannot unmarshal number into Go struct field WidgetSpec.spec.since of type string');
    expect(goDecodeError({ spec: { labels: { a: 1 } } }, widget)).toBe('json: cannot unmarshal number into Go struct field WidgetSpec.spec.labels of type string');
    expect(goDecodeError({ spec: { args: 'x' } }, widget)).toBe('json: cannot unmarshal string into Go struct field WidgetSpec.spec.args of type []string');
    // A recursive schema: the same type further down.
    expect(goDecodeError({ spec: { children: [{ children: [{ ratio: 'x' }] }] } }, widget)).toBe('json: cannot unmarshal string into Go struct field WidgetSpec.spec.children.children.ratio of type float64');
  });
});
