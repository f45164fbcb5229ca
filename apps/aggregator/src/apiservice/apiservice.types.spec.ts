import { describe, expect, it } from 'vitest';
import { apiService, coordination, wardle } from './apiservice.testing';
import {
  apiServiceGroupVersion,
  apiServiceName,
  availableCondition,
  isAvailable,
  isLocal,
  serviceDescription,
  setAvailableCondition,
  sortAPIServices,
  sortGroupsAndVersions,
  type APIService,
} from './apiservice.types';

const T0 = Date.parse('2024-05-01T10:00:00.123Z');
const T1 = Date.parse('2024-05-01T10:05:00Z');

const names = (list: readonly APIService[]): string[] => list.map((s) => s.metadata.name ?? '');
const versionsOf = (list: readonly APIService[]): string[] => list.map((s) => s.spec.version ?? '');

describe('APIService names', () => {
  it('are <version>.<group>, "v1." for the legacy core group', () => {
    expect(apiServiceName('wardle.example.com', 'v1alpha1')).toBe('v1alpha1.wardle.example.com');
    expect(apiServiceName('', 'v1')).toBe('v1.');
  });

  it('split back at the first dot (APIServiceNameToGroupVersion)', () => {
    expect(apiServiceGroupVersion('v1alpha1.wardle.example.com')).toEqual({ group: 'wardle.example.com', version: 'v1alpha1' });
    expect(apiServiceGroupVersion('v1.')).toEqual({ group: '', version: 'v1' });
  });
});

describe('local and remote APIServices', () => {
  it('are local exactly when spec.service is absent or null', () => {
    expect(isLocal(coordination())).toBe(true);
    expect(isLocal({ ...coordination(), spec: { ...coordination().spec, service: null } })).toBe(true);
    expect(isLocal(wardle())).toBe(false);
  });

  it('describe their service as kubectl prints it', () => {
    expect(serviceDescription(coordination())).toBe('Local');
    expect(serviceDescription(wardle())).toBe('wardle/api');
  });
});

describe('the Available condition', () => {
  it('is absent, and not available, until someone sets it', () => {
    const svc = wardle();
    expect(availableCondition(svc)).toBeUndefined();
    expect(isAvailable(svc)).toBe(false);
  });

  it('is added with a second-precision transition time', () => {
    const svc = wardle();
    expect(setAvailableCondition(svc, 'False', 'ServiceNotFound', 'service/api in "wardle" is not present', T0)).toBe(true);
    expect(svc.status).toEqual({
      conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'ServiceNotFound', message: 'service/api in "wardle" is not present' }],
    });
    expect(isAvailable(svc)).toBe(false);
  });

  it('keeps lastTransitionTime while the status stays, and reports whether anything changed', () => {
    const svc = wardle();
    setAvailableCondition(svc, 'False', 'ServiceNotFound', 'service/api in "wardle" is not present', T0);
    expect(setAvailableCondition(svc, 'False', 'ServiceNotFound', 'service/api in "wardle" is not present', T1)).toBe(false);
    expect(setAvailableCondition(svc, 'False', 'MissingEndpoints', 'endpoints for service/api in "wardle" have no addresses with port name ""', T1)).toBe(true);
    expect(availableCondition(svc)).toMatchObject({ status: 'False', reason: 'MissingEndpoints', lastTransitionTime: '2024-05-01T10:00:00Z' });
  });

  it('moves lastTransitionTime when the status flips', () => {
    const svc = wardle();
    setAvailableCondition(svc, 'False', 'FailedDiscoveryCheck', 'failing or missing response from https://10.0.0.1:443/apis/wardle.example.com/v1alpha1', T0);
    expect(setAvailableCondition(svc, 'True', 'Passed', 'all checks passed', T1)).toBe(true);
    expect(availableCondition(svc)).toEqual({ type: 'Available', status: 'True', lastTransitionTime: '2024-05-01T10:05:00Z', reason: 'Passed', message: 'all checks passed' });
    expect(isAvailable(svc)).toBe(true);
    expect(svc.status?.conditions).toHaveLength(1);
  });

  it('drops an empty reason or message, as Go omits empty strings', () => {
    const svc = wardle();
    setAvailableCondition(svc, 'Unknown', 'ServiceAccessError', 'boom', T0);
    setAvailableCondition(svc, 'Unknown', '', '', T1);
    expect(availableCondition(svc)).toEqual({ type: 'Available', status: 'Unknown', lastTransitionTime: '2024-05-01T10:00:00Z' });
  });
});

describe('ordering (SortedByGroupAndVersion)', () => {
  const inOneGroup = (versions: string[]): string[] => {
    const groups = sortGroupsAndVersions(versions.map((v) => apiService('example.com', v, 100, 100)));
    expect(groups).toHaveLength(1);
    return versionsOf(groups[0]);
  };

  // kube's TestSortedAPIServicesByVersion cases.
  it.each([
    [['v1', 'v2'], ['v2', 'v1']],
    [['v2', 'v10'], ['v10', 'v2']],
    [['v2', 'v2beta1', 'v10beta2', 'v10beta1', 'v10alpha1', 'v1'], ['v2', 'v1', 'v10beta2', 'v10beta1', 'v2beta1', 'v10alpha1']],
    [['v1', 'v2', 'test', 'foo10', 'final', 'foo2', 'foo1'], ['v2', 'v1', 'final', 'foo1', 'foo10', 'foo2', 'test']],
    [
      ['v12alpha1', 'v10', 'v11beta2', 'v10beta3', 'v3beta1', 'v2', 'v11alpha2', 'foo1', 'v1', 'foo10'],
      ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10'],
    ],
  ])('orders versions of equal priority kube-aware: %j', (versions, expected) => {
    expect(inOneGroup(versions)).toEqual(expected);
  });

  it('puts a higher versionPriority first, whatever the version string says', () => {
    const groups = sortGroupsAndVersions([apiService('autoscaling', 'v1', 17500, 15), apiService('autoscaling', 'v2', 17500, 30), apiService('autoscaling', 'v2beta2', 17500, 9)]);
    expect(names(groups[0])).toEqual(['v2.autoscaling', 'v1.autoscaling', 'v2beta2.autoscaling']);
    const pinned = sortGroupsAndVersions([apiService('wardle.example.com', 'v1beta1', 1000, 15), apiService('wardle.example.com', 'v1alpha1', 1000, 20)]);
    expect(versionsOf(pinned[0])).toEqual(['v1alpha1', 'v1beta1']);
  });

  it('orders groups by groupPriorityMinimum, highest first, a group taking the highest of its versions', () => {
    const list = [
      apiService('wardle.example.com', 'v1alpha1', 1000, 15),
      apiService('coordination.k8s.io', 'v1', 16500, 15),
      apiService('', 'v1', 18000, 1),
      apiService('apps', 'v1', 17800, 15),
      // The beta version lifts the whole group above apps.
      apiService('wardle.example.com', 'v1beta1', 17900, 10),
    ];
    const groups = sortGroupsAndVersions(list);
    expect(groups.map((g) => g[0].spec.group)).toEqual(['', 'wardle.example.com', 'apps', 'coordination.k8s.io']);
    expect(names(groups[1])).toEqual(['v1alpha1.wardle.example.com', 'v1beta1.wardle.example.com']);
  });

  it('breaks ties between groups by APIService name, alphabetically', () => {
    const list = [apiService('zeta.example.com', 'v1', 1000, 100), apiService('alpha.example.com', 'v2', 1000, 100), apiService('beta.example.com', 'v1', 1000, 100)];
    // Names compare version first: "v1.beta…" < "v1.zeta…" < "v2.alpha…".
    expect(sortGroupsAndVersions(list).map((g) => g[0].spec.group)).toEqual(['beta.example.com', 'zeta.example.com', 'alpha.example.com']);
  });

  it('flattens to discovery order without touching the input', () => {
    const list = [apiService('b.example.com', 'v1', 100, 10), apiService('a.example.com', 'v1beta1', 200, 10), apiService('b.example.com', 'v2', 50, 20), apiService('a.example.com', 'v1', 100, 10)];
    const before = names(list);
    expect(names(sortAPIServices(list))).toEqual(['v1.a.example.com', 'v1beta1.a.example.com', 'v2.b.example.com', 'v1.b.example.com']);
    expect(names(list)).toEqual(before);
  });
});
