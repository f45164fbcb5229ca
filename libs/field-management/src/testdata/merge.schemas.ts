/**
 * Schemas of the table-driven merge suite, in structured-merge-diff's own schema format (the same
 * shapes its tests use), so the Go oracle (tools/smd-oracle) reads them unchanged.
 */
import type { TypeDef } from '../schema.types';

export const SCHEMAS: Record<string, TypeDef[]> = {
  leaf: [
    {
      name: 'leafFields',
      map: {
        fields: [
          { name: 'numeric', type: { scalar: 'numeric' } },
          { name: 'string', type: { scalar: 'string' } },
          { name: 'bool', type: { scalar: 'boolean' } },
        ],
      },
    },
  ],
  sets: [{ name: 'sets', map: { fields: [{ name: 'list', type: { list: { elementType: { scalar: 'string' }, elementRelationship: 'associative' } } }] } }],
  associative: [
    {
      name: 'type',
      map: {
        fields: [
          { name: 'list', type: { namedType: 'associativeList' } },
          { name: 'atomicList', type: { list: { elementType: { scalar: 'string' }, elementRelationship: 'atomic' } } },
          { name: 'labels', type: { map: { elementType: { scalar: 'string' } } } },
          { name: 'atomicMap', type: { map: { elementType: { scalar: 'string' }, elementRelationship: 'atomic' } } },
          { name: 'struct', type: { namedType: 'struct' } },
          { name: 'ports', type: { namedType: 'portList' } },
        ],
      },
    },
    { name: 'associativeList', list: { elementType: { namedType: 'myElement' }, elementRelationship: 'associative', keys: ['name'] } },
    {
      name: 'myElement',
      map: {
        fields: [
          { name: 'name', type: { scalar: 'string' } },
          { name: 'id', type: { scalar: 'numeric' } },
          { name: 'value', type: { scalar: 'numeric' } },
          { name: 'bv', type: { scalar: 'boolean' } },
          { name: 'nested', type: { namedType: 'associativeList' } },
        ],
      },
    },
    {
      name: 'struct',
      map: {
        fields: [
          { name: 'name', type: { scalar: 'string' } },
          { name: 'scalarField', type: { scalar: 'string' } },
          { name: 'complexField', type: { namedType: 'struct' } },
        ],
      },
    },
    { name: 'portList', list: { elementType: { namedType: 'port' }, elementRelationship: 'associative', keys: ['port', 'protocol'] } },
    {
      name: 'port',
      map: {
        fields: [
          { name: 'port', type: { scalar: 'numeric' } },
          { name: 'protocol', type: { scalar: 'string' }, default: 'TCP' },
          { name: 'name', type: { scalar: 'string' } },
        ],
      },
    },
  ],
  deduced: [
    {
      name: '__untyped_atomic_',
      scalar: 'untyped',
      list: { elementType: { namedType: '__untyped_atomic_' }, elementRelationship: 'atomic' },
      map: { elementType: { namedType: '__untyped_atomic_' }, elementRelationship: 'atomic' },
    },
    {
      name: '__untyped_deduced_',
      scalar: 'untyped',
      list: { elementType: { namedType: '__untyped_atomic_' }, elementRelationship: 'atomic' },
      map: { elementType: { namedType: '__untyped_deduced_' }, elementRelationship: 'separable' },
    },
  ],
};
