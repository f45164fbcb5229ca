import { describe, expect, it } from 'vitest';
import type { SchemaComponents } from './openapi.types';
import { pruneUnknownFields } from './schema.pruning';

const components: SchemaComponents = {
  Pod: { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: '#/components/schemas/Meta' }, spec: { allOf: [{ $ref: '#/components/schemas/Spec' }] } } },
  Meta: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
  Spec: { type: 'object', properties: { containers: { type: 'array', items: { $ref: '#/components/schemas/Container' } }, extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
  Container: { type: 'object', properties: { name: { type: 'string' } } },
};

describe('pruneUnknownFields', () => {
  it('removes unknown fields and reports their paths', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' }, bogus: 1 }, spec: { containers: [{ name: 'c', imagee: 'x' }], extra: { anything: true }, nope: 2 }, top: 3 };
    const unknown = pruneUnknownFields(pod, { $ref: '#/components/schemas/Pod' }, components);
    expect(unknown.sort()).toEqual(['metadata.bogus', 'spec.containers[0].imagee', 'spec.nope', 'top']);
    expect(pod).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [{ name: 'c' }], extra: { anything: true } } });
  });

  it('keeps everything without a schema', () => {
    const obj = { a: { b: 1 } };
    expect(pruneUnknownFields(obj, undefined, components)).toEqual([]);
    expect(obj).toEqual({ a: { b: 1 } });
  });
});
