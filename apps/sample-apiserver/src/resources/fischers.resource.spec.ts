import { describe, expect, it } from 'vitest';
import { collectSchemas } from '@kube/apiserver';
import { FISCHER_SCHEMA, FLUNDER_SCHEMA } from '../openapi/wardle-v1alpha1.schemas';
import { fischersResource } from './fischers.resource';
import { wardleResources, wardleStoragePrefix } from '.';

describe('fischers', () => {
  it('is cluster-scoped, without subresources', () => {
    expect(fischersResource).toMatchObject({ kind: 'Fischer', plural: 'fischers', namespaced: false });
    expect(fischersResource.subresources).toBeUndefined();
  });

  it('prints the disallowed flunders', () => {
    const [column] = fischersResource.tableColumns ?? [];
    expect(column.name).toBe('Disallowed Flunders');
    expect(column.cell({ metadata: { name: 'f' }, disallowedFlunders: ['a', 'b'] })).toBe('a,b');
    expect(column.cell({ metadata: { name: 'f' } })).toBe('');
  });
});

describe('the wardle resources', () => {
  it('are stored under /registry/wardle.example.com/<plural> unless told otherwise', () => {
    expect(wardleResources().map((d) => d.storagePrefix)).toEqual(['wardle.example.com/flunders', 'wardle.example.com/fischers']);
    expect(wardleResources('teams/wardle').map((d) => d.storagePrefix)).toEqual(['teams/wardle/flunders', 'teams/wardle/fischers']);
    expect(wardleStoragePrefix('fischers')).toBe('wardle.example.com/fischers');
  });

  it('publish complete OpenAPI schemas (every $ref resolves, lists included)', () => {
    const schemas = collectSchemas(wardleResources());
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([FLUNDER_SCHEMA, `${FLUNDER_SCHEMA}List`, `${FLUNDER_SCHEMA}Spec`, FISCHER_SCHEMA, `${FISCHER_SCHEMA}List`]),
    );
    expect(schemas[`${FLUNDER_SCHEMA}Spec`].properties?.referenceType).toMatchObject({ type: 'string', enum: ['Fischer', 'Flunder'] });
    expect(schemas[FISCHER_SCHEMA]['x-kubernetes-group-version-kind']).toEqual([{ group: 'wardle.example.com', kind: 'Fischer', version: 'v1alpha1' }]);
  });
});
