import { describe, expect, it } from 'vitest';
import { groupVersionKey, LiveInstanceTable, snapshotFingerprint } from './live-instance.table';
import { type Announcement, REGISTRATION_API_VERSION, type RegistrationSource } from './registration.types';

const gv = (group: string, version: string, groupPriorityMinimum = 1000, versionPriority = 100) => ({ group, version, groupPriorityMinimum, versionPriority });

function announce(instance: string, groupVersions: Announcement['groupVersions'], source: RegistrationSource = 'onstart', service = 'core-api'): Announcement {
  return {
    apiVersion: REGISTRATION_API_VERSION,
    service,
    instance,
    endpoint: `https://${instance}:6443`,
    caBundle: 'Y2E=',
    groupVersions,
    source,
    ttlSeconds: 15,
    sentAt: new Date().toISOString(),
  };
}

describe('LiveInstanceTable', () => {
  it('keys group/versions by APIService name', () => {
    expect(groupVersionKey({ group: '', version: 'v1' })).toBe('v1.');
    expect(groupVersionKey({ group: 'apps', version: 'v1' })).toBe('v1.apps');
  });

  it('lists every instance of a group/version as an endpoint, sorted', () => {
    const table = new LiveInstanceTable();
    table.apply(announce('b', [gv('', 'v1', 18000, 1)]));
    table.apply(announce('a', [gv('', 'v1', 18000, 1)]));
    const core = table.snapshot().get('v1.');
    expect(core?.endpoints.map((e) => e.instance)).toEqual(['a', 'b']);
    expect(core).toMatchObject({ group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1, source: 'onstart' });
  });

  it('replaces an instance set per source and reports heartbeats as no change', () => {
    const table = new LiveInstanceTable();
    expect(table.apply(announce('a', [gv('x.io', 'v1')], 'crd'))).toBe(true);
    expect(table.apply(announce('a', [gv('apps', 'v1')], 'onstart'))).toBe(true);
    expect(table.apply(announce('a', [gv('x.io', 'v1')], 'crd'))).toBe(false);
    expect(table.apply(announce('a', [gv('y.io', 'v1')], 'crd'))).toBe(true);
    expect([...table.snapshot().keys()]).toEqual(['v1.apps', 'v1.y.io']);
  });

  it('withdraws some or all group/versions of one source', () => {
    const table = new LiveInstanceTable();
    table.apply(announce('a', [gv('x.io', 'v1'), gv('x.io', 'v2')], 'crd'));
    const base = { apiVersion: REGISTRATION_API_VERSION, service: 'core-api', instance: 'a', source: 'crd', sentAt: '' } as const;
    expect(table.withdraw({ ...base, groupVersions: [{ group: 'x.io', version: 'v2' }] })).toBe(true);
    expect([...table.snapshot().keys()]).toEqual(['v1.x.io']);
    expect(table.withdraw({ ...base, groupVersions: [{ group: 'x.io', version: 'v9' }] })).toBe(false);
    expect(table.withdraw({ ...base, source: 'onstart' })).toBe(false);
    expect(table.withdraw(base)).toBe(true);
    expect(table.size).toBe(0);
  });

  it('prefers a built-in over a CRD, then higher priority, when announcers disagree', () => {
    const table = new LiveInstanceTable();
    table.apply(announce('a', [gv('x.io', 'v1', 1000, 100)], 'crd', 'extensions'));
    table.apply(announce('b', [gv('x.io', 'v1', 500, 5)], 'onstart', 'other'));
    expect(table.snapshot().get('v1.x.io')).toMatchObject({ source: 'onstart', groupPriorityMinimum: 500, versionPriority: 5 });
    expect(table.snapshot().get('v1.x.io')?.endpoints.map((e) => e.service)).toEqual(['extensions', 'other']);
  });

  it('fingerprints equal views equally', () => {
    const a = new LiveInstanceTable();
    const b = new LiveInstanceTable();
    a.apply(announce('a', [gv('x.io', 'v1'), gv('apps', 'v1')]));
    b.apply(announce('a', [gv('apps', 'v1'), gv('x.io', 'v1')]));
    expect(snapshotFingerprint(a.snapshot())).toBe(snapshotFingerprint(b.snapshot()));
  });
});
