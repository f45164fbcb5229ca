import { describe, expect, it } from 'vitest';
import { convertAPIResourceList } from './legacy-discovery.converter';

describe('convertAPIResourceList (kube ConvertGroupVersionIntoToDiscovery)', () => {
  it('turns resources and their subresources into aggregated discovery', () => {
    const v = convertAPIResourceList('v1', [
      { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'], shortNames: ['fl'], categories: ['all'] },
      { name: 'flunders/status', namespaced: true, kind: 'Flunder', verbs: ['get', 'update'] },
      { name: 'flunders/exec', namespaced: true, verbs: ['create'] },
      { name: 'fischers', singularName: 'fischer', namespaced: false, kind: 'Fischer', group: 'g', version: 'v9', verbs: ['get'] },
    ]);
    expect(v).toEqual({
      version: 'v1',
      freshness: 'Current',
      resources: [
        {
          resource: 'flunders',
          responseKind: { group: '', version: '', kind: 'Flunder' },
          scope: 'Namespaced',
          singularResource: 'flunder',
          verbs: ['get', 'list'],
          shortNames: ['fl'],
          categories: ['all'],
          subresources: [
            { subresource: 'status', verbs: ['get', 'update'], responseKind: { group: '', version: '', kind: 'Flunder' } },
            { subresource: 'exec', verbs: ['create'], responseKind: { group: '', version: '', kind: '' } },
          ],
        },
        { resource: 'fischers', responseKind: { group: 'g', version: 'v9', kind: 'Fischer' }, scope: 'Cluster', singularResource: 'fischer', verbs: ['get'] },
      ],
    });
  });

  it('creates a missing parent and refuses a scope mismatch with kube message', () => {
    expect(convertAPIResourceList('v1', [{ name: 'orphans/status', namespaced: true, verbs: ['get'] }]).resources[0]).toMatchObject({ resource: 'orphans', scope: 'Namespaced' });
    expect(() => convertAPIResourceList('v1', [{ name: 'a', namespaced: true, kind: 'A' }, { name: 'a/status', namespaced: false, kind: 'A' }])).toThrow(
      'Error: Parent a (scope: Namespaced) and subresource status (scope: Cluster) scope do not match',
    );
  });
});
