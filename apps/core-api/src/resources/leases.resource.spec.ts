import { describe, expect, it } from 'vitest';
import { leasesResource, type Lease } from './leases.resource';
import { cells, create, messages, meta } from './strategy.testing';

describe('leases', () => {
  it('lives in coordination.k8s.io/v1', () => {
    expect(leasesResource).toMatchObject({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true });
  });

  it('accepts a typical leader-election lease', () => {
    const lease: Lease = { metadata: meta('kube-scheduler', 'kube-system'), spec: { holderIdentity: 'node-1', leaseDurationSeconds: 15, leaseTransitions: 0 } };
    expect(create(leasesResource, lease)).toEqual([]);
  });

  it('rejects non-positive durations, negative transitions and a preferred holder without strategy', () => {
    const lease: Lease = { metadata: meta('l', 'ns'), spec: { leaseDurationSeconds: 0, leaseTransitions: -1, preferredHolder: 'x' } };
    expect(messages(create(leasesResource, lease))).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
      'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
    ]);
  });

  it('prints the holder', () => {
    expect(cells(leasesResource, { metadata: meta('l', 'ns'), spec: { holderIdentity: 'node-1_abc' } })).toEqual({ Holder: 'node-1_abc' });
    expect(cells(leasesResource, { metadata: meta('l', 'ns') })).toEqual({ Holder: '' });
  });
});
