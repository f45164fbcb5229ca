/**
 * A multi-apiserver control plane as kube shows it (issue 30): on a stack with two front doors (aggregator
 * replicas, what clients call "the apiserver") and two core-api replicas behind them,
 * - each front door keeps its identity Lease `kube-system/apiserver-<hash>` (kube's labels, holder
 *   `<name>_<uuid>`, leaseDurationSeconds 3600) renewed every interval (shortened here to 2 s);
 * - the `kubernetes` Endpoints and EndpointSlices list every live front door (kube's lease endpoint reconciler:
 *   each records itself under /registry/masterleases/ with a TTL, shortened here to 8 s);
 * - one killed -9 leaves them once its record expires, and its Lease stops being renewed; restarted, it comes
 *   back, takes its Lease over with a new holder and collects identity Leases expired for over their duration;
 *   stopped cleanly, it deletes its record at once (the etcd lease it was written under still alive: deleted, not
 *   expired);
 * - with a core-api replica killed -9, exec-style upgrades keep working (a refused connection goes to the other).
 * kubectl 1.27 and 1.33 show the Leases and Endpoints. One stack for the file; the kills come last.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { type Instance, ProcessStack } from '../chaos/process.stack';
import { kubectlSession } from '../support/kubectl.session';

const SELECTOR = 'apiserver.kubernetes.io/identity=kube-apiserver';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';
const RENEW_SECONDS = 2;
const TTL_SECONDS = 8;
const KUBECTL = ['1.27', '1.33'];
/** Each poll below waits up to 90 s: a loaded machine gets room, a broken stack still fails. */
const TEST_TIMEOUT_MS = 240_000;

interface Lease {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string };
}
interface Subset {
  addresses?: Array<{ ip: string }>;
  ports?: Array<{ name?: string; port: number; protocol?: string }>;
}

let stack: ProcessStack;
let etcd: Etcd3;
let kubeconfig = '';

async function until(what: string, cond: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function get<T>(path: string): Promise<T> {
  const r = await stack.request('aggregator', 'GET', path);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body) as T;
}

const identityLeases = async (): Promise<Lease[]> => (await get<{ items: Lease[] }>(`${LEASES}?labelSelector=${encodeURIComponent(SELECTOR)}`)).items;
const port = (i: Instance): number => Number(new URL(stack.url(i)).port);

/** The `kubernetes` Endpoints as `ip:port` strings, sorted. */
async function endpointAddresses(): Promise<string[]> {
  const ep = await get<{ subsets?: Subset[] }>('/api/v1/namespaces/default/endpoints/kubernetes');
  return (ep.subsets ?? []).flatMap((s) => (s.addresses ?? []).flatMap((a) => (s.ports ?? []).map((p) => `${a.ip}:${p.port}`))).sort();
}

/** The `kubernetes` EndpointSlices' addresses as `ip:port`, sorted. */
async function sliceAddresses(): Promise<string[]> {
  const list = await get<{ items: Array<{ endpoints?: Array<{ addresses: string[] }>; ports?: Array<{ port: number }> }> }>(
    `/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=${encodeURIComponent('kubernetes.io/service-name=kubernetes')}`,
  );
  return list.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses.flatMap((a) => (s.ports ?? []).map((p) => `${a}:${p.port}`)))).sort();
}

const frontDoors = (...instances: Instance[]): string[] => instances.map((i) => `127.0.0.1:${port(i)}`).sort();

/** An exec-style upgrade through the front door (aggregator); resolves with the status line's code. */
function upgrade(path: string): Promise<number> {
  const pki = stack.pki;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: port('aggregator'), ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey), ALPNProtocols: ['http/1.1'] }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m && text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
    socket.setTimeout(30_000, () => socket.destroy(new Error('no answer to the upgrade')));
  });
}

beforeAll(async () => {
  stack = await ProcessStack.start({
    replicas: 2,
    without: ['sample-apiserver', 'controller-manager'],
    env: { KUBE_IDENTITY_LEASE_RENEW_INTERVAL_SECONDS: String(RENEW_SECONDS), KUBE_ENDPOINT_RECONCILER_TTL_SECONDS: String(TTL_SECONDS) },
  });
  etcd = new Etcd3({ hosts: stack.etcd.endpoint });
  kubeconfig = join(tempDir('apiserver-identity'), 'kubeconfig');
  const read = (p: string): string => readFileSync(p, 'utf8');
  await writeKubeconfig(kubeconfig, { server: stack.url('aggregator'), caPem: read(stack.pki.caCert), clientCertPem: read(stack.pki.adminCert), clientKeyPem: read(stack.pki.adminKey) });
}, 240_000);

afterAll(async () => {
  etcd?.close();
  await stack?.stop();
}, 120_000);

describe('apiserver identity and the kubernetes Endpoints with two front doors', () => {
  it('keeps one identity Lease per front door, as kube names and labels it, renewed', async () => {
    await until('two identity Leases', async () => (await identityLeases()).length === 2);
    const first = await identityLeases();
    const names = first.map((l) => l.metadata.name);
    expect(new Set(names).size).toBe(2);
    for (const lease of first) {
      expect(lease.metadata.name).toMatch(/^apiserver-[a-z2-7]{26}$/);
      expect(lease.metadata.labels?.['apiserver.kubernetes.io/identity']).toBe('kube-apiserver');
      expect(lease.metadata.labels?.['kubernetes.io/hostname']).toBeTruthy();
      expect(lease.spec.holderIdentity).toMatch(new RegExp(`^${lease.metadata.name}_[0-9a-f-]{36}$`));
      expect(lease.spec.leaseDurationSeconds).toBe(3600);
      expect(lease.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
    const renewed = (l: Lease): boolean => Date.parse(l.spec.renewTime ?? '') > Date.parse(first.find((f) => f.metadata.name === l.metadata.name)?.spec.renewTime ?? '');
    await until('both Leases renewed', async () => (await identityLeases()).filter(renewed).length === 2);
    for (const version of KUBECTL) {
      const out = await kubectlSession(version, () => kubeconfig).ok(['get', 'leases', '-n', 'kube-system', '-l', SELECTOR]);
      expect(out.split('\n')[0]).toMatch(/^NAME\s+HOLDER\s+AGE$/);
      for (const lease of first) expect(out).toMatch(new RegExp(`^${lease.metadata.name}\\s+${lease.metadata.name}_`, 'm'));
    }
  }, TEST_TIMEOUT_MS);

  it('lists both front doors in the kubernetes Endpoints and EndpointSlices', async () => {
    const both = frontDoors('aggregator', 'aggregator.1');
    await until('both front doors in the Endpoints', async () => JSON.stringify(await endpointAddresses()) === JSON.stringify(both));
    await until('both front doors in the EndpointSlices', async () => JSON.stringify(await sliceAddresses()) === JSON.stringify(both));
    for (const version of KUBECTL) {
      const r = await kubectlSession(version, () => kubeconfig).k(['get', 'endpoints', 'kubernetes', '-n', 'default']);
      expect(r.code, r.stderr).toBe(0);
      const row = r.stdout.split('\n')[1] ?? '';
      expect(row.split(/\s+/)[0]).toBe('kubernetes');
      expect(row.split(/\s+/)[1].split(',').sort()).toEqual(both);
    }
  }, TEST_TIMEOUT_MS);

  it('sends exec-style upgrades to the live core-api when the other was killed -9', async () => {
    const path = '/api/v1/namespaces/default/pods/no-such-pod/exec?command=true&stdout=true';
    const alive = await upgrade(path);
    expect(alive).not.toBe(503);
    await stack.kill('core-api.1');
    // Right after the kill the dead replica is still announced: every other request is routed to it first.
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push(await upgrade(path));
    expect(codes).toEqual(Array.from({ length: 6 }, () => alive));
  }, TEST_TIMEOUT_MS);

  it('drops a front door killed -9 once its record expires; its Lease stops being renewed; restarted, it is back', async () => {
    const names = (await identityLeases()).map((l) => l.metadata.name);
    await stack.kill('aggregator.1');
    const atKill = await identityLeases();
    await until('the killed front door out of the Endpoints', async () => JSON.stringify(await endpointAddresses()) === JSON.stringify(frontDoors('aggregator')));
    await until('the killed front door out of the EndpointSlices', async () => JSON.stringify(await sliceAddresses()) === JSON.stringify(frontDoors('aggregator')));
    // The survivor renews twice more while the killed one's renewTime stays where it was.
    const renewTimes = async (): Promise<Map<string, number>> => new Map((await identityLeases()).map((l) => [l.metadata.name, Date.parse(l.spec.renewTime ?? '')]));
    const before = await renewTimes();
    await until('the survivor renewed', async () => [...(await renewTimes())].filter(([n, t]) => t > (before.get(n) ?? Infinity)).length === 1);
    const mid = await renewTimes();
    await until('the survivor renewed again', async () => [...(await renewTimes())].filter(([n, t]) => t > (mid.get(n) ?? Infinity)).length === 1);
    const after = await renewTimes();
    // Compared from a read well after the kill: a renewal in flight as it died may still have landed before it.
    const stale = [...after].filter(([n, t]) => t === before.get(n));
    expect(stale.length).toBe(1);
    const [staleName] = stale[0];
    expect(names).toContain(staleName);

    const oldHolder = atKill.find((l) => l.metadata.name === staleName)?.spec.holderIdentity;
    // Left by an apiserver gone for over its duration: the restarted front door collects it at start (kube's
    // apiserverleasegc); an expired Lease without the identity label is not an apiserver's, and stays.
    const expired = (name: string, labels?: Record<string, string>) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, ...(labels ? { labels } : {}) },
      spec: { holderIdentity: `${name}_gone`, leaseDurationSeconds: 3600, renewTime: new Date(Date.now() - 2 * 3600_000).toISOString().replace('Z', '000Z') },
    });
    for (const lease of [expired('apiserver-gone', { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': 'gone' }), expired('not-an-apiserver')]) {
      expect((await stack.request('aggregator', 'POST', LEASES, lease)).status).toBe(201);
    }
    await stack.restart('aggregator.1');
    await until('the restarted front door ready', () => stack.partReady('aggregator.1'));
    await until('the restarted front door back in the Endpoints', async () => JSON.stringify(await endpointAddresses()) === JSON.stringify(frontDoors('aggregator', 'aggregator.1')));
    // Same host and port: the same Lease, taken over with a new holder (kube's behaviour for a restarted apiserver).
    await until('its Lease taken over', async () => {
      const lease = (await identityLeases()).find((l) => l.metadata.name === staleName);
      return !!lease?.spec.holderIdentity && lease.spec.holderIdentity !== oldHolder;
    });
    await until('the expired identity Lease collected', async () => (await stack.request('aggregator', 'GET', `${LEASES}/apiserver-gone`)).status === 404);
    expect((await identityLeases()).length).toBe(2);
    expect((await stack.request('aggregator', 'GET', `${LEASES}/not-an-apiserver`)).status).toBe(200);
  }, TEST_TIMEOUT_MS);

  it('drops a cleanly stopped front door at once: its record deleted while its etcd lease still runs', async () => {
    const key = `/registry/masterleases/127.0.0.1:${port('aggregator.1')}`;
    await until('the record of the restarted front door', async () => (await etcd.get(key).string()) !== null);
    // The moment the record goes, the etcd lease it was last written under: alive means deleted, not expired.
    const watcher = await etcd.watch().key(key).withPreviousKV().create();
    const leaseAtDeletion = new Promise<number>((resolve) => watcher.on('delete', (_kv, previous) => void timeToLive(String(previous?.lease)).then(resolve)));
    try {
      process.kill(stack.pid('aggregator.1') as number, 'SIGTERM');
      expect(await leaseAtDeletion).toBeGreaterThan(0);
    } finally {
      await watcher.cancel();
    }
    await until('the stopped front door out of the Endpoints', async () => JSON.stringify(await endpointAddresses()) === JSON.stringify(frontDoors('aggregator')));
  }, TEST_TIMEOUT_MS);
});

/** etcd's LeaseTimeToLive of a lease id: its remaining seconds, -1 once expired. */
async function timeToLive(id: string): Promise<number> {
  const res = await etcd.leaseClient.leaseTimeToLive({ ID: id, keys: false });
  return Number(res.TTL);
}
