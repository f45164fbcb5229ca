import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { celTypeName, DeclTypeBuilder, escapeCelName } from './cel.types';

describe('escapeCelName', () => {
  it("escapes names that are not CEL identifiers the way cel.Escape does", () => {
    expect(escapeCelName('replicas')).toBe('replicas');
    expect(escapeCelName('namespace')).toBe('__namespace__');
    expect(escapeCelName('foo-bar.baz/qux')).toBe('foo__dash__bar__dot__baz__slash__qux');
    expect(escapeCelName('a__b')).toBe('a__underscores__b');
    expect(escapeCelName('1st')).toBeUndefined();
    expect(escapeCelName('a b')).toBeUndefined();
  });
});

describe('DeclTypeBuilder', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          ratio: { type: 'number' },
          port: { 'x-kubernetes-int-or-string': true },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          listeners: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
          when: { type: 'string', format: 'date-time' },
          raw: { 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
  };

  it('maps schema types to CEL types, adding apiVersion/kind/metadata at the root', () => {
    const b = new DeclTypeBuilder();
    const root = b.build(schema, true);
    if (root?.kind !== 'object') throw new Error('root is not an object type');
    expect([...root.fields.keys()]).toEqual(['spec', 'kind', 'apiVersion', 'metadata']);
    const spec = root.fields.get('spec')?.type;
    if (spec?.kind !== 'object') throw new Error('spec is not an object type');
    const types = Object.fromEntries([...spec.fields].map(([k, f]) => [k, celTypeName(f.type)]));
    expect(types).toEqual({
      replicas: 'int',
      ratio: 'double',
      port: 'dyn',
      labels: 'map<string, string>',
      listeners: `list<${(spec.fields.get('listeners')?.type as { elem: { name: string } }).elem.name}>`,
      when: 'google.protobuf.Timestamp',
    });
    expect(b.bySchema.get(schema.properties?.spec as JSONSchemaProps)).toBe(spec);
  });
});
