import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { validateListSetsAndMaps } from './list-type.validation';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        finalizers: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        listeners: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } } },
        },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } },
        },
        byZone: { type: 'object', additionalProperties: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } },
      },
    },
  },
};

const check = (obj: Record<string, unknown>): string[] => validateListSetsAndMaps(obj, schema).map(String);

describe('validateListSetsAndMaps', () => {
  it('reports the second occurrence of repeated set elements once', () => {
    expect(check({ spec: { finalizers: ['a', 'b', 'a', 'a'], byZone: { z1: [1, 2, 1] } } })).toEqual([
      'spec.finalizers[2]: Duplicate value: "a"',
      'spec.byZone[z1][2]: Duplicate value: 1',
    ]);
  });

  it('reports repeated map keys with the key, also for composite keys and nested sets', () => {
    const obj = {
      spec: {
        listeners: [{ name: 'a', hosts: ['x', 'x'] }, { name: 'b' }, { name: 'a' }, {}, {}],
        ports: [{ protocol: 'TCP', port: 80 }, { port: 80, protocol: 'UDP' }, { port: 80, protocol: 'TCP' }],
      },
    };
    expect(check(obj)).toEqual([
      'spec.listeners[2]: Duplicate value: {"name":"a"}',
      'spec.listeners[4]: Duplicate value: {}',
      'spec.listeners[0].hosts[1]: Duplicate value: "x"',
      'spec.ports[2]: Duplicate value: {"port":80,"protocol":"TCP"}',
    ]);
  });

  it('requires objects in list-type map lists', () => {
    expect(check({ spec: { listeners: [{ name: 'a' }, 'b'] } })).toEqual(['spec.listeners[1]: Invalid value: "b": must be an object for an array of list-type map']);
  });
});
