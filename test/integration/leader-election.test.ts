import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdClient, LeaderElection } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';

let etcd: EtcdProcess;
let clients: EtcdClient[] = [];

beforeAll(async () => {
  etcd = await startEtcd();
});

afterAll(async () => {
  clients.forEach((c) => c.close());
  await etcd?.stop();
});

const until = async (cond: () => boolean, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return cond();
};

describe('LeaderElection on an etcd lease', () => {
  it('elects exactly one leader and hands over when the leader stops', async () => {
    clients = [new EtcdClient({ endpoints: [etcd.endpoint] }), new EtcdClient({ endpoints: [etcd.endpoint] })];
    const [a, b] = clients.map((c, i) => new LeaderElection(c, { key: '/registry/leader-election/test', identity: `candidate-${i}`, ttlSeconds: 2 }));
    a.start();
    expect(await until(() => a.isLeader, 5000)).toBe(true);
    b.start();
    await new Promise((r) => setTimeout(r, 1500));
    expect([a.isLeader, b.isLeader]).toEqual([true, false]);
    await a.stop();
    expect(await until(() => b.isLeader, 5000)).toBe(true);
    expect(a.isLeader).toBe(false);
    await b.stop();
  });
});
