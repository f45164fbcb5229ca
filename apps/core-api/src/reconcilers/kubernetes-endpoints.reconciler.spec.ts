import { describe, expect, it } from 'vitest';
import { kubernetesSlices, kubernetesSubsets, parseMasterLease } from './kubernetes-endpoints.reconciler';

describe('the kubernetes Endpoints from the master leases', () => {
  it('reads the address a front door recorded, and nothing from a value it cannot read', () => {
    expect(parseMasterLease('{"kind":"Endpoints","subsets":[{"addresses":[{"ip":"10.0.0.2"}],"ports":[{"name":"https","port":6443,"protocol":"TCP"}]}]}')).toEqual({ ip: '10.0.0.2', port: 6443 });
    expect(parseMasterLease('{"subsets":[{"addresses":[{"ip":"10.0.0.2"}]}]}')).toBeUndefined();
    expect(parseMasterLease('{"subsets":[{"addresses":[{"ip":"not-an-ip"}],"ports":[{"port":6443}]}]}')).toBeUndefined();
    expect(parseMasterLease('not json')).toBeUndefined();
  });

  it('lists every live apiserver in one subset when they share a port (kube: one IP each), sorted', () => {
    expect(kubernetesSubsets([{ ip: '10.0.0.3', port: 6443 }, { ip: '10.0.0.2', port: 6443 }, { ip: '10.0.0.10', port: 6443 }])).toEqual([
      { addresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.3' }, { ip: '10.0.0.10' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] },
    ]);
    expect(kubernetesSlices([{ ip: '10.0.0.3', port: 6443 }, { ip: '10.0.0.2', port: 6443 }])).toEqual([
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
        addressType: 'IPv4',
        endpoints: [
          { addresses: ['10.0.0.2'], conditions: { ready: true } },
          { addresses: ['10.0.0.3'], conditions: { ready: true } },
        ],
        ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
      },
    ]);
  });

  it('gives front doors of one host on different ports a subset each, and a slice each past the first', () => {
    const live = [{ ip: '127.0.0.1', port: 6448 }, { ip: '127.0.0.1', port: 6443 }];
    expect(kubernetesSubsets(live)).toEqual([
      { addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] },
      { addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 6448, protocol: 'TCP' }] },
    ]);
    expect(kubernetesSlices(live).map((s) => [s.metadata.name, (s.ports as Array<{ port: number }>)[0].port])).toEqual([
      ['kubernetes', 6443],
      ['kubernetes-6448', 6448],
    ]);
  });
});
