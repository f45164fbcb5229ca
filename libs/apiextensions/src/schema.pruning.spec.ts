import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { pruneCustomResource, pruneWithSchema } from './schema.pruning';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        containers: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        labels: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } },
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
      },
    },
  },
};

describe('pruneCustomResource', () => {
  it('drops unknown fields and reports their paths, sorted, after root metadata', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'a', labels: {}, clusterName: 'x', ownerReferences: [{ name: 'o', uid: 'u', junk: 1 }] },
      spec: {
        replicas: 1,
        foo: 'bar',
        containers: [{ name: 'c', bar: 1 }, { image: 'x' }],
        labels: { a: { v: 'x', w: 'y' } },
        config: { anything: { deep: true }, known: { a: 'x', b: 'y' } },
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1 }, spec: { x: 'y', z: 1 }, status: {} },
      },
      status: { phase: 'x' },
    };
    expect(pruneCustomResource(obj, schema)).toEqual([
      'metadata.clusterName',
      'metadata.ownerReferences[0].junk',
      'spec.config.known.b',
      'spec.containers[0].bar',
      'spec.containers[1].image',
      'spec.foo',
      'spec.labels.a.w',
      'spec.template.spec.z',
      'spec.template.status',
      'status',
      'spec.template.metadata.bogus',
    ]);
    expect(obj).toEqual({
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'a', ownerReferences: [{ apiVersion: '', kind: '', name: 'o', uid: 'u' }] },
      spec: {
        replicas: 1,
        containers: [{ name: 'c' }, {}],
        labels: { a: { v: 'x' } },
        config: { anything: { deep: true }, known: { a: 'x' } },
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'y' } },
      },
    });
  });

  it('keeps everything below x-kubernetes-preserve-unknown-fields at the root', () => {
    const obj = { apiVersion: 'v1', kind: 'X', spec: { a: 1 } };
    expect(pruneCustomResource(obj, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true })).toEqual([]);
    expect(obj.spec).toEqual({ a: 1 });
  });
});

describe('pruneWithSchema', () => {
  it('prunes everything inside maps without a schema and leaves scalars alone', () => {
    const obj = { m: { a: { b: 1 }, c: 2 } };
    expect(pruneWithSchema(obj, { type: 'object', properties: { m: { type: 'object', additionalProperties: true } } }, false)).toEqual(['m.a.b']);
    expect(obj).toEqual({ m: { a: {}, c: 2 } });
  });

  it('does not track paths when asked not to', () => {
    const obj = { x: 1 };
    expect(pruneWithSchema(obj, { type: 'object' }, false, false)).toEqual([]);
    expect(obj).toEqual({});
  });
});
