import { describe, expect, it } from 'vitest';
import { admitClaims, DEFAULT_GROUP_OWNERSHIP, groupOwnershipWith } from './group-ownership.policy';
import { type Announcement, REGISTRATION_API_VERSION, type RegistrationSource } from './registration.types';

const gv = (group: string, version: string) => ({ group, version, groupPriorityMinimum: 1000, versionPriority: 100 });

function announce(service: string, groupVersions: Announcement['groupVersions'], source: RegistrationSource = 'onstart'): Announcement {
  return { apiVersion: REGISTRATION_API_VERSION, service, instance: 'i', endpoint: 'https://x:1', caBundle: 'Y2E=', groupVersions, source, ttlSeconds: 15, sentAt: '' };
}

const nobody = (): string[] => [];
const keys = (a: Announcement): string[] => a.groupVersions.map((g) => `${g.version}.${g.group}`);

describe('group ownership', () => {
  it('accepts the built-in groups from core-api, apiextensions.k8s.io from extensions, and nothing of those from anyone else', () => {
    const core = admitClaims(announce('core-api', [gv('', 'v1'), gv('apps', 'v1'), gv('coordination.k8s.io', 'v1')]), DEFAULT_GROUP_OWNERSHIP, nobody);
    expect(core.refused).toEqual([]);
    expect(admitClaims(announce('extensions', [gv('apiextensions.k8s.io', 'v1')]), DEFAULT_GROUP_OWNERSHIP, nobody).refused).toEqual([]);

    const forged = admitClaims(announce('extensions', [gv('', 'v1'), gv('apps', 'v2'), gv('apiextensions.k8s.io', 'v1')]), DEFAULT_GROUP_OWNERSHIP, nobody);
    expect(keys(forged.admitted)).toEqual(['v1.apiextensions.k8s.io']);
    expect(forged.refused).toEqual([
      { key: 'v1.', reason: 'group "" belongs to core-api' },
      { key: 'v2.apps', reason: 'group "apps" belongs to core-api' },
    ]);
    expect(keys(admitClaims(announce('core-api', [gv('apiextensions.k8s.io', 'v1')]), DEFAULT_GROUP_OWNERSHIP, nobody).admitted)).toEqual([]);
    // The aggregator's own group is announced by nobody.
    expect(admitClaims(announce('core-api', [gv('apiregistration.k8s.io', 'v1')]), DEFAULT_GROUP_OWNERSHIP, nobody).refused).toHaveLength(1);
  });

  it('accepts CustomResourceDefinition group/versions from extensions only', () => {
    expect(admitClaims(announce('extensions', [gv('stable.example.com', 'v1')], 'crd'), DEFAULT_GROUP_OWNERSHIP, nobody).refused).toEqual([]);
    const verdict = admitClaims(announce('sample-apiserver', [gv('stable.example.com', 'v1')], 'crd'), DEFAULT_GROUP_OWNERSHIP, nobody);
    expect(verdict.refused).toEqual([{ key: 'v1.stable.example.com', reason: 'only extensions announces CustomResourceDefinition group/versions' }]);
    // Not even a built-in group as a CRD from its owner.
    expect(admitClaims(announce('core-api', [gv('apps', 'v1')], 'crd'), DEFAULT_GROUP_OWNERSHIP, nobody).refused).toHaveLength(1);
  });

  it('gives any other group/version to the service that serves it now, replicas included', () => {
    const served = (key: string): string[] => (key === 'v1alpha1.wardle.example.com' ? ['sample-apiserver'] : []);
    const replica = admitClaims(announce('sample-apiserver', [gv('wardle.example.com', 'v1alpha1')]), DEFAULT_GROUP_OWNERSHIP, served);
    expect(replica.refused).toEqual([]);
    const impostor = admitClaims(announce('impostor', [gv('wardle.example.com', 'v1alpha1'), gv('wardle.example.com', 'v1beta1')]), DEFAULT_GROUP_OWNERSHIP, served);
    expect(impostor.refused).toEqual([{ key: 'v1alpha1.wardle.example.com', reason: 'it is served by sample-apiserver' }]);
    expect(keys(impostor.admitted)).toEqual(['v1beta1.wardle.example.com']);
    // A CRD group/version already served by an aggregated server stays the server's.
    expect(admitClaims(announce('extensions', [gv('wardle.example.com', 'v1alpha1')], 'crd'), DEFAULT_GROUP_OWNERSHIP, served).refused).toHaveLength(1);
  });

  it('takes configured owners (KUBE_REGISTRATION_GROUP_OWNERS) beside the defaults and rejects malformed ones', () => {
    const ownership = groupOwnershipWith('wardle.example.com=sample-apiserver, core=core-api');
    expect(ownership.groups.get('wardle.example.com')).toBe('sample-apiserver');
    expect(ownership.groups.get('apps')).toBe('core-api');
    expect(admitClaims(announce('impostor', [gv('wardle.example.com', 'v1')]), ownership, nobody).refused).toEqual([{ key: 'v1.wardle.example.com', reason: 'group "wardle.example.com" belongs to sample-apiserver' }]);
    expect(() => groupOwnershipWith('wardle.example.com')).toThrow(/expected <group>=<service>/);
    expect(() => groupOwnershipWith('x.io=Not_A_Label')).toThrow(/expected/);
    expect(groupOwnershipWith(undefined).groups).toEqual(DEFAULT_GROUP_OWNERSHIP.groups);
  });
});
