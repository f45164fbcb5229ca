import { describe, expect, it } from 'vitest';
import { advertisedEndpoint, apiServerId, identityHostKey, identityLease, isLeaseExpired, masterLeaseKey, masterLeaseValue, microTime } from './apiserver-identity';

describe('apiserver identity', () => {
  it("names the Lease as kube's APIServerID: apiserver- and the base32 of sha256(len|hostname, len|kube-apiserver)[:16]", () => {
    // The same bytes hashed independently (Python's hashlib and base64.b32encode, padding stripped, lower-cased).
    const id = apiServerId('master-1');
    expect(id).toBe('apiserver-wj467rbl25eeviqacfhvg2yvnm');
    expect(apiServerId('master-2')).not.toBe(id);
    // Replicas of one host differ by their port.
    expect(apiServerId(identityHostKey('host', 6443))).not.toBe(apiServerId(identityHostKey('host', 6448)));
  });

  it('writes kube\'s labels, holder, duration and a microsecond renewTime, keeping what the stored Lease has', () => {
    const now = Date.parse('2026-01-02T03:04:05.678Z');
    const lease = identityLease(undefined, 'apiserver-x', 'apiserver-x_uid', 'host-a', 3600, now);
    expect(lease).toEqual({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'apiserver-x', namespace: 'kube-system', labels: { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': 'host-a' } },
      spec: { holderIdentity: 'apiserver-x_uid', leaseDurationSeconds: 3600, renewTime: '2026-01-02T03:04:05.678000Z' },
    });
    const renewed = identityLease({ ...lease, metadata: { ...lease.metadata, resourceVersion: '7' } }, 'apiserver-x', 'apiserver-x_new', 'host-a', 3600, now + 10_000);
    expect(renewed.metadata.resourceVersion).toBe('7');
    expect((renewed.spec as { renewTime: string; holderIdentity: string }).renewTime).toBe(microTime(now + 10_000));
    expect((renewed.spec as { holderIdentity: string }).holderIdentity).toBe('apiserver-x_new');
  });

  it("expires as apiserverleasegc's isLeaseExpired: no renewTime or duration, or renewTime + duration past", () => {
    const now = Date.parse('2026-01-02T12:00:00Z');
    const lease = (spec: object) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec });
    expect(isLeaseExpired(lease({}), now)).toBe(true);
    expect(isLeaseExpired(lease({ renewTime: '2026-01-02T11:59:00.000000Z' }), now)).toBe(true);
    expect(isLeaseExpired(lease({ leaseDurationSeconds: 3600 }), now)).toBe(true);
    expect(isLeaseExpired(lease({ renewTime: '2026-01-02T11:00:01.000000Z', leaseDurationSeconds: 3600 }), now)).toBe(false);
    expect(isLeaseExpired(lease({ renewTime: '2026-01-02T10:59:59.000000Z', leaseDurationSeconds: 3600 }), now)).toBe(true);
  });

  it('advertises the IP clients reach: an IP advertise address (its port), the pod IP, the bind address, else loopback', () => {
    expect(advertisedEndpoint(6443, '0.0.0.0', '127.0.0.1:16443')).toEqual({ ip: '127.0.0.1', port: 16443 });
    expect(advertisedEndpoint(6443, '0.0.0.0', 'kube-ts-aggregator.ns.svc:443', '10.1.2.3')).toEqual({ ip: '10.1.2.3', port: 6443 });
    expect(advertisedEndpoint(6443, '192.168.1.5')).toEqual({ ip: '192.168.1.5', port: 6443 });
    expect(advertisedEndpoint(6448, '0.0.0.0')).toEqual({ ip: '127.0.0.1', port: 6448 });
  });

  it("records a front door under /registry/masterleases/ as an Endpoints naming its address, as kube's lease reconciler", () => {
    const ep = { ip: '127.0.0.1', port: 6448 };
    expect(masterLeaseKey(ep)).toBe('/registry/masterleases/127.0.0.1:6448');
    expect(JSON.parse(masterLeaseValue(ep))).toMatchObject({ kind: 'Endpoints', subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 6448, protocol: 'TCP' }] }] });
  });
});
