/**
 * What kube's apiserver identity and lease endpoint reconciler write, as pure functions (the controllers in
 * apiserver-presence.reconciler.ts do the I/O): the identity Lease's name, labels and expiry, and the
 * `/registry/masterleases/` record of a live front door.
 */
import { createHash } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { KubeObject } from '@kube/apimachinery';

/** kube's label on every apiserver identity Lease (and the GC's selector). */
export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
export const IDENTITY_VALUE = 'kube-apiserver';
export const IDENTITY_SELECTOR = `${IDENTITY_LABEL}=${IDENTITY_VALUE}`;
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
export const IDENTITY_NAMESPACE = 'kube-system';

/** kube's IdentityLeaseDurationSeconds, IdentityLeaseRenewIntervalPeriod and IdentityLeaseGCPeriod. */
export const IDENTITY_LEASE_DURATION_SECONDS = 3600;
export const IDENTITY_LEASE_RENEW_INTERVAL_MS = 10_000;
export const IDENTITY_LEASE_GC_PERIOD_MS = 3600_000;

/** kube's DefaultEndpointReconcilerTTL (a master lease's etcd TTL) and its endpoint reconcile interval. */
export const MASTER_LEASE_TTL_SECONDS = 15;
export const MASTER_LEASE_INTERVAL_MS = 10_000;
export const MASTER_LEASES_PREFIX = '/registry/masterleases/';

/** Go's base32.StdEncoding without padding. */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** cryptobyte's AddUint16LengthPrefixed. */
function lengthPrefixed(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

/**
 * kube's APIServerID (k8s.io/apiserver server/config.go): `apiserver-` and the lower-case unpadded base32 of the
 * first 16 bytes of sha256(len‖hostname ‖ len‖"kube-apiserver"). `hostname` is what the caller makes unique: kube
 * hashes the OS hostname alone; replicas sharing a host pass `hostname:port` (see identityHostKey).
 */
export function apiServerId(hostname: string): string {
  const hash = createHash('sha256').update(Buffer.concat([lengthPrefixed(hostname), lengthPrefixed(IDENTITY_VALUE)])).digest();
  return `apiserver-${base32(hash.subarray(0, 16)).toLowerCase()}`;
}

/**
 * What the Lease name is derived from: the hostname and the port, since several front doors of one host (npm start's
 * replicas) would otherwise share kube's one-per-host name and take each other's Lease over.
 */
export function identityHostKey(hostname: string, port: number): string {
  return `${hostname}:${port}`;
}

/** metav1.MicroTime as kube renders it (RFC 3339, six fractional digits). */
export function microTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  renewTime?: string;
  acquireTime?: string;
}

/** apiserverleasegc's isLeaseExpired: no renewTime or duration, or renewTime + duration before now. */
export function isLeaseExpired(lease: KubeObject, now: number = Date.now()): boolean {
  const spec = (lease.spec ?? {}) as LeaseSpec;
  if (!spec.renewTime || spec.leaseDurationSeconds === undefined || spec.leaseDurationSeconds === null) return true;
  const renewed = Date.parse(spec.renewTime);
  return Number.isNaN(renewed) || renewed + spec.leaseDurationSeconds * 1000 < now;
}

/** The identity Lease as kube's lease controller writes it on every renewal (newLease + the label post-processing). */
export function identityLease(base: KubeObject | undefined, name: string, holderIdentity: string, hostname: string, durationSeconds: number, now: number = Date.now()): KubeObject {
  const lease: KubeObject = base ? structuredClone(base) : { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: IDENTITY_NAMESPACE } };
  lease.metadata.labels = { ...(lease.metadata.labels ?? {}), [IDENTITY_LABEL]: IDENTITY_VALUE, [HOSTNAME_LABEL]: hostname };
  lease.spec = { ...((lease.spec ?? {}) as LeaseSpec), holderIdentity, leaseDurationSeconds: durationSeconds, renewTime: microTime(now) };
  return lease;
}

/** Where clients reach this front door: the IP and port its `kubernetes` Endpoints address carries. */
export interface AdvertisedEndpoint {
  ip: string;
  port: number;
}

/**
 * The front door's address for the `kubernetes` Endpoints (kube's --advertise-address and secure port): the host of
 * KUBE_ADVERTISE_ADDRESS when it is an IP (its port too), else the pod's IP (KUBE_POD_IP, the chart's downward API)
 * with the listening port, else the bind address unless it is the wildcard, else loopback.
 */
export function advertisedEndpoint(listenPort: number, bindAddress: string, advertiseAddress?: string, podIp?: string): AdvertisedEndpoint {
  if (advertiseAddress) {
    const i = advertiseAddress.lastIndexOf(':');
    const host = i > 0 ? advertiseAddress.slice(0, i) : advertiseAddress;
    const port = i > 0 ? Number(advertiseAddress.slice(i + 1)) : listenPort;
    if (isIPv4(host)) return { ip: host, port: Number.isInteger(port) && port > 0 ? port : listenPort };
  }
  if (podIp && isIPv4(podIp)) return { ip: podIp, port: listenPort };
  return { ip: isIPv4(bindAddress) && bindAddress !== '0.0.0.0' ? bindAddress : '127.0.0.1', port: listenPort };
}

/** The master lease key of a front door: kube keys by IP alone; replicas sharing an IP differ by port. */
export function masterLeaseKey(endpoint: AdvertisedEndpoint): string {
  return `${MASTER_LEASES_PREFIX}${endpoint.ip}:${endpoint.port}`;
}

/** The value kube stores under a master lease: an Endpoints naming the one address (here with its port). */
export function masterLeaseValue(endpoint: AdvertisedEndpoint): string {
  return JSON.stringify({
    kind: 'Endpoints',
    apiVersion: 'v1',
    metadata: { name: `${endpoint.ip}:${endpoint.port}`, namespace: 'default' },
    subsets: [{ addresses: [{ ip: endpoint.ip }], ports: [{ name: 'https', port: endpoint.port, protocol: 'TCP' }] }],
  });
}
