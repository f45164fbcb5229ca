import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { validateCustomResource } from './custom-resource.validation';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        replicas: { type: 'integer', maximum: 10, 'x-kubernetes-validations': [{ rule: 'self % 2 == 0', message: 'must be even' }] },
        hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
    },
  },
};

const check = (obj: Record<string, unknown>, oldObject?: Record<string, unknown>): string[] => validateCustomResource(obj, schema, { oldObject }).map(String);

describe('validateCustomResource', () => {
  it('runs the schema, list types, then CEL', () => {
    expect(check({ spec: { name: 'a', replicas: 4, hosts: ['a', 'b'] } })).toEqual([]);
    expect(check({ spec: { name: 'a', replicas: 3, hosts: ['a', 'a'] } })).toEqual(['spec.hosts[1]: Duplicate value: "a"', 'spec.replicas: Invalid value: 3: must be even']);
  });

  it('does not run CEL after a blocking error', () => {
    expect(check({ spec: { replicas: 3 } })).toEqual([
      'spec.name: Required value',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });

  it('still runs CEL after a non-blocking error', () => {
    expect(check({ spec: { name: 'a', replicas: 11 } })).toEqual([
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      'spec.replicas: Invalid value: 11: must be even',
    ]);
  });

  it('tolerates list duplicates already stored, on update', () => {
    const old = { spec: { name: 'a', hosts: ['x', 'x'] } };
    expect(check({ spec: { name: 'a', hosts: ['y', 'y'] } }, old)).toEqual([]);
  });
});
