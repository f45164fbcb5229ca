/**
 * One writer for shared state with two aggregator replicas (issue 30). What docs/architecture.md ("Replicas:
 * who writes what") says, checked on separate processes:
 * - autoregistration (the automanaged APIServices) is written by the elected replica only: the holder of
 *   /registry/leader-election/kube-aggregator; kill -9 it, and the other takes over within the lease (15 s) and
 *   registers a new CRD group meanwhile;
 * - the availability condition of an APIService with spec.service is checked by every replica (as kube's), and
 *   written once per change, never back and forth: replicas that agree find the condition already written.
 */
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronTab } from '../../apps/extensions/src/crd/crd.testing';
import { type Instance, ProcessStack } from '../chaos/process.stack';

const LEADER_KEY = '/registry/leader-election/kube-aggregator';
const WARDLE = 'v1alpha1.wardle.example.com';
/** The election's lease (LeaderElection's ttlSeconds) and its campaign period (a third of it). */
const LEASE_MS = 15_000;

type Condition = { type: string; status: string; reason?: string; message?: string };
interface ApiService {
  metadata: { name: string; resourceVersion: string };
  status?: { conditions?: Condition[] };
}

let stack: ProcessStack;
let etcd: Etcd3;

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond().catch(() => false)) return;
    await pause(100);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/** The aggregator instance holding the election (its identity ends with its port). */
async function leader(): Promise<Instance | undefined> {
  const holder = await etcd.get(LEADER_KEY).string();
  const port = Number(holder?.split('/').at(-1));
  return stack.instances('aggregator').find((i) => stack.ports.get(i) === port);
}

const available = (s: ApiService): Condition | undefined => s.status?.conditions?.find((c) => c.type === 'Available');

describe('two aggregator replicas', () => {
  beforeAll(async () => {
    stack = await ProcessStack.start({ replicas: 2, without: ['controller-manager'] });
    etcd = new Etcd3({ hosts: stack.etcd.endpoint });
    await until('wardle available', async () => {
      const res = await stack.request('aggregator', 'GET', `/apis/apiregistration.k8s.io/v1/apiservices/${WARDLE}`);
      return res.status === 200 && available(JSON.parse(res.body) as ApiService)?.status === 'True';
    });
  }, 300_000);

  afterAll(async () => {
    etcd?.close();
    await stack?.stop();
  }, 120_000);

  it('write an APIService availability change once, and nothing while nothing changes', async () => {
    const list = await stack.request('aggregator', 'GET', '/apis/apiregistration.k8s.io/v1/apiservices');
    const from = (JSON.parse(list.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const writes: ApiService[] = [];
    const watch = stack.openWatch('aggregator.1', `/apis/apiregistration.k8s.io/v1/apiservices?watch=1&resourceVersion=${from}&fieldSelector=metadata.name%3D${WARDLE}`, (line) => {
      const ev = JSON.parse(line) as { type: string; object: ApiService };
      if (ev.type === 'MODIFIED') writes.push(ev.object);
    });
    expect(await watch.status).toBe(200);
    try {
      // Both replicas re-check every 3 s: two rounds each, and nobody writes.
      await pause(7_000);
      expect(writes.map(available)).toEqual([]);
      await stack.kill('sample-apiserver');
      await until('wardle unavailable', async () => writes.some((s) => available(s)?.status === 'False'), 30_000);
      // Two more rounds of both replicas: the verdict stands, nobody writes it again (or a different one).
      await pause(7_000);
      expect(writes.map((s) => `${available(s)?.status} ${available(s)?.reason}`)).toEqual(['False FailedDiscoveryCheck']);
    } finally {
      watch.close();
      await stack.restart('sample-apiserver');
    }
    await until('wardle available again', async () => {
      const res = await stack.request('aggregator', 'GET', `/apis/apiregistration.k8s.io/v1/apiservices/${WARDLE}`);
      return res.status === 200 && available(JSON.parse(res.body) as ApiService)?.status === 'True';
    });
  }, 120_000);

  it('autoregisters from the elected replica only; killing it hands the election to the other within the lease', async () => {
    const first = await leader();
    expect(first).toBeDefined();
    const other = stack.instances('aggregator').find((i) => i !== first) as Instance;
    const killedAt = Date.now();
    await stack.kill(first as Instance);
    try {
      await until('the other replica elected', async () => (await leader()) === other, LEASE_MS + 10_000);
      const tookOverMs = Date.now() - killedAt;
      expect(tookOverMs).toBeLessThan(LEASE_MS + LEASE_MS / 3 + 2_000);
      // A new group while the old leader is dead: the new leader registers it.
      expect((await stack.request(other, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', cronTab())).status).toBe(201);
      await until('v1.stable.example.com registered', async () => {
        const res = await stack.request(other, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.stable.example.com');
        return res.status === 200;
      });
      const registered = JSON.parse((await stack.request(other, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.stable.example.com')).body) as ApiService & { metadata: { labels?: Record<string, string> } };
      expect(registered.metadata.labels?.['kube-aggregator.kubernetes.io/automanaged']).toBe('true');
    } finally {
      await stack.restart(first as Instance);
    }
    await until(`${first} ready again`, () => stack.partReady(first as Instance));
    // The restarted replica follows: the election stays where it is.
    expect(await leader()).toBe(other);
  }, 120_000);
});
