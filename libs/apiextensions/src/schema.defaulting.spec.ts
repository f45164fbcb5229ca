import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { applyDefaults, dropNullsInNonNullable, pruneDefaults } from './schema.defaulting';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        strategy: { type: 'object', default: { type: 'RollingUpdate' }, properties: { type: { type: 'string' }, maxSurge: { 'x-kubernetes-int-or-string': true, default: '25%' } } },
        ports: { type: 'array', items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' }, port: { type: 'integer' } } } },
        selectors: { type: 'object', additionalProperties: { type: 'object', properties: { op: { type: 'string', default: 'In' } } } },
        note: { type: 'string', nullable: true, default: 'n' },
        tags: { type: 'array', items: { type: 'string', default: 'x' } },
      },
    },
  },
};

describe('applyDefaults', () => {
  it('defaults missing fields recursively, in arrays and maps, and the defaults of defaults', () => {
    const obj: Record<string, unknown> = { spec: { ports: [{ port: 80 }], selectors: { a: {} }, note: null, tags: [null, 'y'] } };
    applyDefaults(obj, schema);
    expect(obj).toEqual({
      spec: {
        replicas: 1,
        strategy: { type: 'RollingUpdate', maxSurge: '25%' },
        ports: [{ port: 80, protocol: 'TCP' }],
        selectors: { a: { op: 'In' } },
        note: null,
        tags: ['x', 'y'],
      },
    });
  });

  it('replaces nulls in non-nullable fields and deep-copies defaults', () => {
    const a: Record<string, unknown> = { spec: { replicas: null, strategy: null } };
    const b: Record<string, unknown> = {};
    applyDefaults(a, schema);
    applyDefaults(b, schema);
    expect((a.spec as Record<string, unknown>).replicas).toBe(1);
    expect((a.spec as Record<string, unknown>).strategy).not.toBe((b.spec as Record<string, unknown>).strategy);
    expect(schema.properties?.spec.properties?.strategy.default).toEqual({ type: 'RollingUpdate' });
  });
});

describe('dropNullsInNonNullable', () => {
  it('drops nulls of non-nullable fields without default, keeps the rest for defaulting', () => {
    const obj: Record<string, unknown> = { spec: { replicas: null, note: null, ports: [{ port: null }], selectors: { a: null } } };
    dropNullsInNonNullable(obj, schema);
    expect(obj).toEqual({ spec: { replicas: null, note: null, ports: [{}], selectors: {} } });
  });
});

describe('pruneDefaults', () => {
  it('prunes unknown fields out of defaults, on a copy', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { a: { type: 'object', default: { x: 1, y: 2 }, properties: { x: { type: 'integer' } } } } };
    expect(pruneDefaults(s).properties?.a.default).toEqual({ x: 1 });
    expect(s.properties?.a.default).toEqual({ x: 1, y: 2 });
  });
});
