/**
 * Restarts of the aggregator (issue 14, hole 10): after a clean shutdown the next one leads at once; after a
 * crash it re-checks every APIService at once, as kube's availability controller does, instead of serving the
 * previous run's `Available=True` until the crashed leader's lease expires.
 */
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdClient, LeaderElection } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { startStack, until } from '@test/support';
import { startAggregatorReplica } from '../support/core-api.harness';

const LEADER_KEY = '/registry/leader-election/kube-aggregator';
const NAME = 'v1.stale.example.com';

type Condition = { type: string; status: string; reason?: string; message?: string };
const availableOf = (body: string): Condition | undefined => (JSON.parse(body) as { status?: { conditions?: Condition[] } }).status?.conditions?.find((c) => c.type === 'Available');

let etcd: EtcdProcess;
let raw: Etcd3;

beforeAll(async () => {
  etcd = await startEtcd();
  raw = new Etcd3({ hosts: etcd.endpoint });
});

afterAll(async () => {
  raw?.close();
  await etcd?.stop();
});

describe('a clean shutdown', () => {
  it('releases the aggregator leadership before closing etcd, so a restarted aggregator leads at once', async () => {
    const stack = await startStack({ etcd });
    const deadline = Date.now() + 20_000;
    while ((await raw.get(LEADER_KEY).string()) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await raw.get(LEADER_KEY).string()).not.toBeNull();
    await stack.stop();
    // The lease was revoked while etcd was still reachable: no key waits for its TTL to run out.
    expect(await raw.get(LEADER_KEY).string()).toBeNull();
    const restarted = await startStack({ etcd });
    try {
      const holder = await raw.get(LEADER_KEY).string();
      expect(holder).not.toBeNull();
    } finally {
      await restarted.stop();
    }
  });
});

describe('an aggregator started while a crashed leader still holds the lease', () => {
  it('corrects a stale Available=True at once, though it is not the leader', async () => {
    const stack = await startStack({ etcd });
    const previous = new LeaderElection(new EtcdClient({ endpoints: [etcd.endpoint] }), { key: LEADER_KEY, identity: 'crashed-run', ttlSeconds: 300 });
    let replica: Awaited<ReturnType<typeof startAggregatorReplica>> | undefined;
    try {
      const apiService = {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: NAME },
        spec: { group: 'stale.example.com', version: 'v1', service: { namespace: 'default', name: 'missing', port: 443 }, groupPriorityMinimum: 100, versionPriority: 10, insecureSkipTLSVerify: true },
      };
      expect((await stack.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', { body: JSON.stringify(apiService) })).status).toBe(201);
      const path = `/apis/apiregistration.k8s.io/v1/apiservices/${NAME}`;
      expect(await until(async () => availableOf((await stack.request('GET', path)).body)?.reason === 'ServiceNotFound', 30_000)).toBe(true);

      // The front door goes away, and the previous run "crashed": its lease is held, its verdict was True.
      await stack.app.close();
      previous.start();
      expect(await until(async () => previous.isLeader, 30_000)).toBe(true);
      const keys = await raw.getAll().prefix('/registry/').keys();
      const key = keys.find((k) => k.endsWith(`/${NAME}`));
      expect(key, keys.join('\n')).toBeDefined();
      const stored = JSON.parse((await raw.get(key as string).string()) as string) as { status: { conditions: Condition[] } };
      stored.status.conditions = [{ type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed', lastTransitionTime: '2025-01-01T00:00:00Z' } as Condition];
      await raw.put(key as string).value(JSON.stringify(stored));

      replica = await startAggregatorReplica(stack);
      const r = replica;
      // Not the leader (the crashed run's lease has minutes left), yet the stale condition is corrected.
      expect(await until(async () => availableOf((await r.request('GET', path)).body)?.status === 'False', 30_000)).toBe(true);
      expect(availableOf((await r.request('GET', path)).body)).toMatchObject({ status: 'False', reason: 'ServiceNotFound' });
      expect(await raw.get(LEADER_KEY).string()).toContain('crashed-run');
    } finally {
      await replica?.stop();
      await previous.stop();
      for (const app of stack.apps.slice(1)) await app.close();
    }
  }, 120_000);
});
